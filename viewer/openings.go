package viewer

import (
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/shogilab/shogilab/analysis/openings"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/notation"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// explorer is the opening tree of every game given, as analyze openings builds it (package
// openings, fed by selection.Stream with the same checks), with each line's continuations
// looked up by the line.
type explorer struct {
	depth    int
	counts   selection.Counts
	err      error
	starts   []openings.Line
	children map[string][]branch // by lineKey of the parent, most played first
}

// branch is a line of the tree as the explorer keeps it: its last move and its numbers, the
// rest being its parent's key (a tree of random games has a line for nearly every game and
// ply, so each byte counts).
type branch struct {
	move string
	openings.Stats
	positionGames int
}

func lineKey(start int, moves []string) string {
	return fmt.Sprint(start) + "|" + strings.Join(moves, " ")
}

func (s *Server) buildExplorer() *explorer {
	var paths []string
	for _, f := range s.index.files {
		paths = append(paths, f.path)
	}
	ex := &explorer{depth: s.opts.Depth, children: map[string][]branch{}}
	if len(paths) == 0 {
		return ex
	}
	tree := openings.NewTree(s.opts.Depth)
	opts := selection.Options{Fields: openings.Fields | selection.CheckMovesFields, Check: selection.CheckMoves, SkipBad: true}
	ex.counts, ex.err = selection.Stream(paths, selection.Filter{}, opts, func(g *record.Game) error {
		if err := tree.Add(g); err != nil {
			return fmt.Errorf("%w (%w)", err, selection.ErrBadGame)
		}
		return nil
	})
	ex.starts = tree.Starts()
	startOf := map[string]int{}
	for i, st := range ex.starts {
		startOf[st.Start] = i
	}
	// Lines are depth first, the more played sibling first: each line's continuations come
	// in that order.
	for _, l := range tree.Lines(1) {
		parent := lineKey(startOf[l.Start], l.Moves[:len(l.Moves)-1])
		ex.children[parent] = append(ex.children[parent], branch{l.Moves[len(l.Moves)-1], l.Stats, l.PositionGames})
	}
	return ex
}

// continuation is one move of the explorer's table.
type continuation struct {
	openings.Stats
	PositionGames int
	USI, Japanese string
	Href          string
	Bar           template.HTML // Sente's wins, the draws and Gote's wins as one bar
}

// wdlBar draws the results of a line as lishogi's explorer does: white for Sente's wins, grey
// for draws, black for Gote's.
func wdlBar(l openings.Stats) template.HTML {
	const w = 120.0
	n := float64(l.Games)
	s, d := w*float64(l.SenteWins)/n, w*float64(l.Draws)/n
	return template.HTML(fmt.Sprintf(`<svg class="wdl" width="%g" height="12" role="img" aria-label="Sente %d, draws %d, Gote %d">`+
		`<rect class="s" x="0" y="0" width="%.1f" height="12"/><rect class="d" x="%.1f" y="0" width="%.1f" height="12"/><rect class="g" x="%.1f" y="0" width="%.1f" height="12"/></svg>`,
		w, l.SenteWins, l.Draws, l.GoteWins, s, s, d, s+d, w-s-d))
}

func (s *Server) openingsPage(rt route, lk linker) (any, error) {
	ex := s.explorer
	if len(ex.starts) == 0 {
		return map[string]any{"Empty": true, "Counts": ex.counts, "Err": errText(ex.err)}, nil
	}
	if rt.start >= len(ex.starts) {
		return nil, errNotFound
	}
	if len(rt.moves) > ex.depth {
		return nil, badRequest("openings: %d moves; the tree follows %d plies (view --depth)", len(rt.moves), ex.depth)
	}
	st := ex.starts[rt.start]
	pos, err := minishogi.ParseSFEN(st.Start + " 1")
	if err != nil {
		return nil, err
	}
	// Replay the line, collecting the way back to each of its positions.
	type crumb struct {
		Text, Href string
	}
	crumbs := []crumb{{"start", lk.href(route{kind: pageOpenings, start: rt.start})}}
	node := st.Stats
	last := minishogi.NoSquare
	var lastMove minishogi.Move
	for i, text := range rt.moves {
		var next *branch
		for _, c := range ex.children[lineKey(rt.start, rt.moves[:i])] {
			if c.move == text {
				next = &c
				break
			}
		}
		if next == nil {
			return nil, &httpError{404, fmt.Sprintf("openings: no game plays %s after %s", text, strings.Join(rt.moves[:i], " "))}
		}
		m, err := pos.ParseMove(text)
		if err != nil {
			return nil, err // the tree holds legal moves only
		}
		crumbs = append(crumbs, crumb{fmt.Sprintf("%d. %s", i+1, notation.JapaneseMove(&pos, m, last)),
			lk.href(route{kind: pageOpenings, start: rt.start, moves: rt.moves[:i+1]})})
		last, lastMove = m.To(), m
		pos.MakeMove(m)
		node = next.Stats
	}
	var rows []continuation
	for _, c := range ex.children[lineKey(rt.start, rt.moves)] {
		m, err := pos.ParseMove(c.move)
		if err != nil {
			return nil, err
		}
		row := continuation{Stats: c.Stats, PositionGames: c.positionGames, USI: c.move, Japanese: notation.JapaneseMove(&pos, m, last)}
		if len(rt.moves)+1 < ex.depth {
			row.Href = lk.href(route{kind: pageOpenings, start: rt.start, moves: append(slices.Clip(rt.moves), c.move)})
		}
		row.Bar = wdlBar(c.Stats)
		rows = append(rows, row)
	}
	type startRow struct {
		openings.Line
		Href    string
		Current bool
	}
	var starts []startRow
	for i, s := range ex.starts {
		starts = append(starts, startRow{s, lk.href(route{kind: pageOpenings, start: i}), i == rt.start})
	}
	return map[string]any{
		"Board": newBoard(&pos, lastMove), "Node": node, "Rows": rows, "Crumbs": crumbs, "Starts": starts,
		"Depth": ex.depth, "Ply": len(rt.moves), "Counts": ex.counts, "Err": errText(ex.err), "Moves": strings.Join(rt.moves, " "),
	}, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
