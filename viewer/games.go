package viewer

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/notation"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// pageSize is the number of games a page of the list shows.
const pageSize = 50

// maxChoices is the most names a filter offers as a list; beyond, a text field.
const maxChoices = 300

func (s *Server) gamesPage(rt route, lk linker) (any, error) {
	rows, total := s.index.page(rt.filter, rt.page, pageSize)
	pages := max((total+pageSize-1)/pageSize, 1)
	if rt.page >= pages {
		return nil, errNotFound
	}
	type row struct {
		gameRow
		Href string
	}
	out := make([]row, len(rows))
	for i, n := range rows {
		out[i] = row{s.index.row(n), lk.href(route{kind: pageGame, n: n})}
	}
	at := func(p int) string {
		if p < 0 || p >= pages {
			return ""
		}
		return lk.href(route{kind: pageGames, filter: rt.filter, page: p})
	}
	type choice struct {
		Value, Text string
		Selected    bool
	}
	choices := func(values []string, chosen string) []choice {
		out := []choice{{"", "any", chosen == ""}}
		for _, v := range values {
			out = append(out, choice{v, v, v == chosen})
		}
		return out
	}
	var sources []string
	srcChoices := []choice{{"", "any", rt.filter.Source == 0}}
	for i, src := range s.sources {
		if src.files != nil {
			sources = append(sources, src.Path)
			srcChoices = append(srcChoices, choice{strconv.Itoa(i + 1), src.Path, rt.filter.Source == i+1})
		}
	}
	var terms []string
	for _, t := range record.Terminations() {
		terms = append(terms, string(t))
	}
	names := s.index.names.sorted()
	d := map[string]any{
		"Rows": out, "Total": total, "Page": rt.page + 1, "Pages": pages,
		"First": at(0), "Prev": at(rt.page - 1), "Next": at(rt.page + 1), "Last": at(pages - 1),
		"Filter": rt.filter, "Filtered": !rt.filter.empty(), "Action": lk.href(route{kind: pageGames}),
		"Results": choices([]string{"sente", "gote", "draw"}, rt.filter.Result), "Terminations": choices(terms, rt.filter.Termination),
		"Starts": choices(s.index.starts.sorted(), rt.filter.Start), "Sources": srcChoices,
	}
	if len(names) <= maxChoices {
		d["Players"] = choices(names, rt.filter.Player)
	}
	if rt.filter.MinPlies > 0 {
		d["Min"] = rt.filter.MinPlies
	}
	if rt.filter.MaxPlies > 0 {
		d["Max"] = rt.filter.MaxPlies
	}
	return d, nil
}

// frame is one position of a game as the script draws it: the board's pieces (codes of
// minishogi.Piece, square 0 first), the hands (minishogi.HandTypes order, Sente's first), the
// squares of the move that led to it (from is -1 for a drop) and its SFEN.
type frame struct {
	SFEN  string    `json:"s"`
	Board [25]int   `json:"b"`
	Hands [2][5]int `json:"h"`
	Last  []int     `json:"m,omitempty"`
}

func frameOf(pos *minishogi.Position, last minishogi.Move) frame {
	f := frame{SFEN: pos.SFEN(), Hands: [2][5]int{hand(pos, minishogi.Sente), hand(pos, minishogi.Gote)}}
	for s := range minishogi.Square(minishogi.NumSquares) {
		f.Board[s] = int(pos.PieceAt(s))
	}
	if last != 0 {
		from := -1
		if !last.IsDrop() {
			from = int(last.From())
		}
		f.Last = []int{from, int(last.To())}
	}
	return f
}

// moveRow is one move of the game's list.
type moveRow struct {
	Ply      int // the position after it
	Number   int // the move's number, from 1
	USI      string
	Japanese string
	Sente    bool
}

func (s *Server) gamePage(rt route, lk linker) (any, error) {
	g, err := s.index.read(rt.n)
	row := s.index.row(rt.n)
	d := map[string]any{
		"Row": row, "KIF": lk.href(route{kind: pageKIF, n: rt.n}), "CSA": lk.href(route{kind: pageCSA, n: rt.n}),
		"Lishogi": lk.href(route{kind: pageLishogi, n: rt.n}), "Source": lk.href(route{kind: pageSource, n: s.index.files[s.index.entries[rt.n].file].source}),
	}
	if rt.n > 0 {
		d["PrevGame"] = lk.href(route{kind: pageGame, n: rt.n - 1})
	}
	if rt.n+1 < len(s.index.entries) {
		d["NextGame"] = lk.href(route{kind: pageGame, n: rt.n + 1})
	}
	if err != nil {
		d["Err"] = fmt.Sprintf("this record cannot be read: %v", err)
		return d, nil
	}
	d["Game"] = g
	if g.Variant != "minishogi" {
		d["Err"] = fmt.Sprintf("variant %q: only Minishogi games can be shown", g.Variant)
		return d, nil
	}
	pos, err := minishogi.ParseSFEN(g.Start)
	if err != nil {
		d["Err"] = fmt.Sprintf("the start cannot be read: %v", err)
		return d, nil
	}
	frames := []frame{frameOf(&pos, 0)}
	var moves []moveRow
	last := minishogi.NoSquare
	for i, text := range g.Moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			d["Err"] = fmt.Sprintf("move %d %s: %v; the game is shown up to it", i+1, text, err)
			break
		}
		moves = append(moves, moveRow{Ply: i + 1, Number: i + 1, USI: text, Japanese: notation.JapaneseMove(&pos, m, last), Sente: pos.SideToMove() == minishogi.Sente})
		last = m.To()
		pos.MakeMove(m)
		frames = append(frames, frameOf(&pos, m))
	}
	start, _ := minishogi.ParseSFEN(g.Start)
	d["Board"] = newBoard(&start, 0)
	d["Moves"] = moves
	d["Frames"] = frames
	d["Glyphs"] = glyphs()
	d["HandGlyphs"] = handGlyphs()
	d["Graph"] = statsGraph(g, &start, len(moves))
	return d, nil
}

// statsGraph draws the root value of each move, from Sente's side, and its visits, as an SVG
// under the board; its cursor marks the ply shown. Nil when the record has no statistics.
func statsGraph(g *record.Game, start *minishogi.Position, plies int) template.HTML {
	n := min(len(g.Stats), plies)
	if n == 0 {
		return ""
	}
	const w, h, left, top, height = 640, 170, 40, 10, 120
	dx := float64(w-left-10) / float64(max(plies, 1))
	x := func(ply int) float64 { return left + dx*float64(ply) }
	y := func(v float64) float64 { return top + (1-v)/2*height }
	var maxVisits int64
	for _, st := range g.Stats[:n] {
		maxVisits = max(maxVisits, st.Visits)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="graph" id="graph" viewBox="0 0 %d %d" width="%d" height="%d" data-left="%d" data-dx="%g" data-plies="%d" role="img" aria-label="root value and visits of each move">`,
		w, h, w, h, left, dx, plies)
	fmt.Fprintf(&b, `<rect class="plot" x="%d" y="%d" width="%g" height="%d"/>`, left, top, dx*float64(plies), height)
	if maxVisits > 0 {
		for i, st := range g.Stats[:n] {
			bh := float64(st.Visits) / float64(maxVisits) * height / 2
			fmt.Fprintf(&b, `<rect class="visits" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>move %d: %d visits</title></rect>`,
				x(i)+dx*0.15, top+height-bh, math.Max(dx*0.7, 0.5), bh, i+1, st.Visits)
		}
	}
	var pts []string
	senteMoves := start.SideToMove() == minishogi.Sente
	for i, st := range g.Stats[:n] {
		v := st.Value // the mover's expected outcome: turned to Sente's side
		if senteMoves != (i%2 == 0) {
			v = -v
		}
		v = math.Max(-1, math.Min(1, v))
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i)+dx/2, y(v)))
	}
	fmt.Fprintf(&b, `<line class="zero" x1="%d" x2="%g" y1="%g" y2="%g"/>`, left, x(plies), y(0), y(0))
	fmt.Fprintf(&b, `<polyline class="value" points="%s"/>`, strings.Join(pts, " "))
	fmt.Fprintf(&b, `<text class="axis" x="%d" y="%g">+1</text><text class="axis" x="%d" y="%g">0</text><text class="axis" x="%d" y="%g">−1</text>`,
		left-6, y(1)+4, left-6, y(0)+4, left-6, y(-1)+4)
	fmt.Fprintf(&b, `<text class="legend" x="%d" y="%d">value for Sente (line); visits, most %d (bars); move</text>`, left, top+height+30, maxVisits)
	fmt.Fprintf(&b, `<line class="cursor" id="cursor" x1="%d" x2="%d" y1="%d" y2="%d"/>`, left, left, top, top+height)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// gameText is the game as KIF or CSA (package notation).
func (s *Server) gameText(rt route) (string, error) {
	g, err := s.index.read(rt.n)
	if err != nil {
		return "", &httpError{422, fmt.Sprintf("game %d cannot be read: %v", rt.n, err)}
	}
	var text string
	if rt.kind == pageKIF {
		text, err = notation.KIF(g)
	} else {
		text, err = notation.CSA(g)
	}
	if err != nil {
		return "", &httpError{422, err.Error()}
	}
	return text, nil
}

func (s *Server) lishogiPage(rt route, lk linker) (any, error) {
	kif, err := s.gameText(route{kind: pageKIF, n: rt.n})
	if err != nil {
		return nil, err
	}
	return map[string]any{"KIF": kif, "Game": lk.href(route{kind: pageGame, n: rt.n}), "Download": lk.href(route{kind: pageKIF, n: rt.n})}, nil
}
