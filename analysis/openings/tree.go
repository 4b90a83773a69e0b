package openings

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/shogilab/shogilab/analysis/score"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// Fields are the record fields Add reads: a reader need decode no other
// (selection.Options.Fields).
const Fields = record.FieldID | record.FieldVariant | record.FieldStart | record.FieldMoves | record.FieldResult | record.FieldPlies

// Tree is the opening tree of the games added, to a fixed depth in plies.
// The zero Tree is not usable; make one with NewTree.
type Tree struct {
	depth     int
	roots     []*node // one per start position, in order of first appearance
	starts    map[string]start
	positions map[uint64]*position
	games     int64 // games added, which numbers them for counting each once per position
}

// start is a parsed start position, kept so each distinct start is parsed once.
type start struct {
	pos  minishogi.Position
	root *node
}

// node is one move sequence from a start.
type node struct {
	move     string  // the last move; "" at a root
	children []*node // few per node (at most the legal moves): a slice is smaller and faster than a map
	results  score.Tally
	plies    int64 // sum of the games' lengths, for the mean
	pos      *position
}

// position is one position reached within the depth, by any move order.
type position struct {
	sfen     string // without move number
	ply      int    // plies from the start at which it was first reached
	results  score.Tally
	plies    int64
	orders   int   // tree nodes (move sequences) that reach it
	lastGame int64 // the number of the last game counted, to count each game once
}

// NewTree returns an empty tree that follows games for depth plies. It
// panics if depth is not positive.
func NewTree(depth int) *Tree {
	if depth <= 0 {
		panic(fmt.Sprintf("openings: depth %d is not positive", depth))
	}
	return &Tree{depth: depth, starts: map[string]start{}, positions: map[uint64]*position{}}
}

// Depth is the number of plies the tree follows.
func (t *Tree) Depth() int { return t.depth }

// Add replays the first Depth plies of g and counts its result and length in
// every line and position it passes. It returns an error, and counts nothing,
// if g is not a Minishogi game, its start is not a position or one of those
// moves is illegal.
func (t *Tree) Add(g *record.Game) error {
	if g.Variant != "minishogi" {
		return fmt.Errorf("openings: game %d: variant %q: only minishogi games can be replayed", g.ID, g.Variant)
	}
	st, ok := t.starts[g.Start]
	if !ok {
		pos, err := minishogi.ParseSFEN(g.Start)
		if err != nil {
			return fmt.Errorf("openings: game %d: %w", g.ID, err)
		}
		st = start{pos: pos, root: t.rootFor(pos)}
		t.starts[g.Start] = st
	}
	// Check every move before counting anything, so a bad game leaves no trace.
	n := min(t.depth, len(g.Moves))
	var moves [64]minishogi.Move
	ms := moves[:0]
	pos := st.pos
	for i := range n {
		m, err := pos.ParseMove(g.Moves[i])
		if err != nil {
			return fmt.Errorf("openings: game %d: moves[%d]: %w", g.ID, i, err)
		}
		pos.MakeMove(m)
		ms = append(ms, m)
	}
	t.games++ // from 1, so a fresh position (lastGame 0) never looks counted
	gameMark := t.games
	pos = st.pos
	at := st.root
	at.count(g)
	at.pos.countOnce(g, gameMark)
	for i, m := range ms {
		pos.MakeMove(m)
		at = t.child(at, g.Moves[i], &pos, i+1)
		at.count(g)
		at.pos.countOnce(g, gameMark)
	}
	return nil
}

func (t *Tree) rootFor(pos minishogi.Position) *node {
	key := selection.PositionKey(pos.SFEN())
	for _, r := range t.roots {
		if r.pos.sfen == key {
			return r // another spelling of a start already seen
		}
	}
	r := &node{pos: t.position(&pos, 0)}
	t.roots = append(t.roots, r)
	return r
}

func (t *Tree) child(n *node, move string, pos *minishogi.Position, ply int) *node {
	for _, c := range n.children {
		if c.move == move {
			return c
		}
	}
	c := &node{move: move, pos: t.position(pos, ply)}
	c.pos.orders++
	n.children = append(n.children, c)
	return c
}

func (t *Tree) position(pos *minishogi.Position, ply int) *position {
	p, ok := t.positions[pos.Hash()]
	if !ok {
		p = &position{sfen: selection.PositionKey(pos.SFEN()), ply: ply}
		t.positions[pos.Hash()] = p
	}
	return p
}

func (n *node) count(g *record.Game) {
	n.results.Add(g.Result)
	n.plies += int64(g.Plies)
}

// countOnce counts g unless it was already counted here: a game that
// returns to a position within the depth passes it twice.
func (p *position) countOnce(g *record.Game, mark int64) {
	if p.lastGame == mark {
		return
	}
	p.lastGame = mark
	p.results.Add(g.Result)
	p.plies += int64(g.Plies)
}

// Stats are the results of the games through a line or a position.
type Stats struct {
	Games int `json:"games"`
	score.Tally
	Score     float64    `json:"score"`      // Sente's points per game, a draw counting half
	Interval  [2]float64 `json:"interval"`   // Wilson 95% interval of Score
	MeanPlies float64    `json:"mean_plies"` // mean length of the games, in plies
}

func newStats(t score.Tally, plies int64) Stats {
	lo, hi := t.Interval()
	return Stats{Games: t.Games(), Tally: t, Score: t.Score(), Interval: [2]float64{lo, hi},
		MeanPlies: float64(plies) / float64(t.Games())}
}

// Line is a move sequence from a start position and its games.
type Line struct {
	Start string   `json:"start"` // the start position (SFEN without move number)
	Moves []string `json:"moves"` // USI moves; empty for the start itself
	Stats
	// Position is the position the line reaches (SFEN without move number)
	// and PositionGames the games that reach it by any move order.
	Position      string `json:"position"`
	PositionGames int    `json:"position_games"`
}

// Lines returns the lines of one to Depth plies played in at least minGames
// games, depth first, the more played of two sibling lines first (ties by
// move), the start positions in order of first appearance. A table printed
// in this order reads as the tree with its main lines on top.
func (t *Tree) Lines(minGames int) []Line {
	var out []Line
	var walk func(start string, n *node, moves []string)
	walk = func(start string, n *node, moves []string) {
		for _, c := range sortedChildren(n) {
			if c.results.Games() < minGames {
				continue // children are rarer still
			}
			ms := append(slices.Clip(moves), c.move)
			out = append(out, Line{Start: start, Moves: ms, Stats: newStats(c.results, c.plies),
				Position: c.pos.sfen, PositionGames: c.pos.results.Games()})
			walk(start, c, ms)
		}
	}
	for _, r := range t.roots {
		walk(r.pos.sfen, r, nil)
	}
	return out
}

func sortedChildren(n *node) []*node {
	cs := slices.Clone(n.children)
	slices.SortFunc(cs, func(a, b *node) int {
		if c := cmp.Compare(b.results.Games(), a.results.Games()); c != 0 {
			return c
		}
		return cmp.Compare(a.move, b.move)
	})
	return cs
}

// Starts returns the start positions and their games, in order of first
// appearance.
func (t *Tree) Starts() []Line {
	out := make([]Line, len(t.roots))
	for i, r := range t.roots {
		out[i] = Line{Start: r.pos.sfen, Moves: []string{}, Stats: newStats(r.results, r.plies),
			Position: r.pos.sfen, PositionGames: r.pos.results.Games()}
	}
	return out
}

// Position is a position reached within the depth, merged over the move
// orders that reach it.
type Position struct {
	SFEN string `json:"sfen"` // without move number
	Ply  int    `json:"ply"`  // plies from the start when first reached
	// Orders is the number of distinct move sequences in the tree that
	// reach it: more than one is a transposition.
	Orders int `json:"orders"`
	Stats
}

// Positions returns the positions after one to Depth plies reached in at
// least minGames games, by ply and then most played first (ties by SFEN).
func (t *Tree) Positions(minGames int) []Position {
	var out []Position
	for _, p := range t.positions {
		if p.ply == 0 || p.results.Games() < minGames {
			continue
		}
		out = append(out, Position{SFEN: p.sfen, Ply: p.ply, Orders: p.orders, Stats: newStats(p.results, p.plies)})
	}
	slices.SortFunc(out, func(a, b Position) int {
		if c := cmp.Compare(a.Ply, b.Ply); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Games, a.Games); c != 0 {
			return c
		}
		return cmp.Compare(a.SFEN, b.SFEN)
	})
	return out
}

// Size is the number of tree nodes (lines) and distinct positions held: what
// the tree's memory grows with.
func (t *Tree) Size() (lines, positions int) {
	var walk func(n *node)
	walk = func(n *node) {
		lines += len(n.children)
		for _, c := range n.children {
			walk(c)
		}
	}
	for _, r := range t.roots {
		walk(r)
	}
	return lines, len(t.positions)
}
