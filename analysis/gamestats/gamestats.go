package gamestats

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/shogilab/shogilab/analysis/score"
	"github.com/shogilab/shogilab/record"
)

// Summary accumulates games. The zero Summary is not usable; call New.
type Summary struct {
	results      score.Tally
	terminations map[record.Termination]*score.Tally
	byLength     []score.Tally // index: plies
	resign       map[string]int
}

// New returns an empty Summary.
func New() *Summary {
	return &Summary{terminations: map[record.Termination]*score.Tally{}, resign: map[string]int{}}
}

// Add counts one game.
func (s *Summary) Add(g *record.Game) {
	if r := resignRule(g); r != "" {
		s.resign[r]++
	}
	s.results.Add(g.Result)
	t := s.terminations[g.Termination]
	if t == nil {
		t = new(score.Tally)
		s.terminations[g.Termination] = t
	}
	t.Add(g.Result)
	if g.Plies >= len(s.byLength) {
		s.byLength = slices.Grow(s.byLength, g.Plies+1-len(s.byLength))[:g.Plies+1]
	}
	s.byLength[g.Plies].Add(g.Result)
}

// resignRule is when the engines of g resigned: the distinct record.Player.Resign of its
// sides that are the toolkit's engine, joined by "+" (proven, never, never+proven), or ""
// when neither side is.
func resignRule(g *record.Game) string {
	a, b := g.Players.Sente.Resign(), g.Players.Gote.Resign()
	switch {
	case a == "":
		return b
	case b == "" || a == b:
		return a
	case a > b:
		a, b = b, a
	}
	return a + "+" + b
}

// Fields are the record fields Add reads: a reader need decode no other
// (selection.Options.Fields).
const Fields = record.FieldResult | record.FieldTermination | record.FieldPlies | record.FieldPlayers

// Share is a proportion of the games with its Wilson 95% interval. Value is
// NaN when there are no games, written as null in JSON (which has no NaN).
type Share struct {
	Count    int        `json:"count"`
	Value    float64    `json:"value"`
	Interval [2]float64 `json:"interval"`
}

// MarshalJSON writes Value as null when it is NaN.
func (s Share) MarshalJSON() ([]byte, error) {
	out := struct {
		Count    int        `json:"count"`
		Value    *float64   `json:"value"`
		Interval [2]float64 `json:"interval"`
	}{Count: s.Count, Interval: s.Interval}
	if !math.IsNaN(s.Value) {
		out.Value = &s.Value
	}
	return json.Marshal(out)
}

func share(t score.Tally, count int) Share {
	v, lo, hi := t.Share(count)
	return Share{Count: count, Value: v, Interval: [2]float64{lo, hi}}
}

// Termination is how many games ended one way, and who won them.
type Termination struct {
	Termination record.Termination `json:"termination"`
	score.Tally
	Share Share `json:"share"` // of all games
}

// Lengths summarise the lengths of the games with one result (or all).
type Lengths struct {
	Result string  `json:"result"` // "all", "sente", "gote" or "draw"
	Games  int     `json:"games"`
	Mean   float64 `json:"mean"`
	Min    int     `json:"min"`
	Q1     int     `json:"q1"`
	Median int     `json:"median"`
	Q3     int     `json:"q3"`
	P90    int     `json:"p90"`
	Max    int     `json:"max"`
}

// Bin is the number of games of each result that lasted Plies plies.
type Bin struct {
	Plies int `json:"plies"`
	score.Tally
}

// Report is everything Summary knows, in the order a reader wants it.
type Report struct {
	Games      int   `json:"games"`
	SenteWins  Share `json:"sente_wins"`
	GoteWins   Share `json:"gote_wins"`
	Draws      Share `json:"draws"`
	SenteScore Share `json:"sente_score"` // Count is the games; a draw counts half
	// Terminations, the most frequent first.
	Terminations []Termination `json:"terminations"`
	// Lengths for all games, then Sente wins, Gote wins and draws (those
	// with at least one game).
	Lengths   []Lengths `json:"lengths"`
	Histogram []Bin     `json:"histogram"` // lengths that occurred, shortest first
	// Resign counts the games by when their engines resigned (the toolkit's engine's
	// setting Resign: proven, never, or never+proven when the two sides differ); a game
	// without the toolkit's engine is not counted. With proven a game ends when its loser's
	// search proves every move lost, so its length counts the plies to a proven loss.
	Resign map[string]int `json:"resign"`
}

// Report summarises the games added so far.
func (s *Summary) Report() Report {
	t := s.results
	r := Report{Games: t.Games(), SenteWins: share(t, t.SenteWins), GoteWins: share(t, t.GoteWins), Draws: share(t, t.Draws),
		Resign: maps.Clone(s.resign)}
	lo, hi := t.Interval()
	r.SenteScore = Share{Count: t.Games(), Value: t.Score(), Interval: [2]float64{lo, hi}}
	for term, tt := range s.terminations {
		r.Terminations = append(r.Terminations, Termination{Termination: term, Tally: *tt, Share: share(t, tt.Games())})
	}
	slices.SortFunc(r.Terminations, func(a, b Termination) int {
		if c := cmp.Compare(b.Games(), a.Games()); c != 0 {
			return c
		}
		return cmp.Compare(a.Termination, b.Termination)
	})
	for plies, bt := range s.byLength {
		if bt.Games() > 0 {
			r.Histogram = append(r.Histogram, Bin{Plies: plies, Tally: bt})
		}
	}
	for _, res := range []string{"all", string(record.Sente), string(record.Gote), string(record.Draw)} {
		if l, ok := lengths(r.Histogram, res); ok {
			r.Lengths = append(r.Lengths, l)
		}
	}
	return r
}

// count is the number of games in b with result res ("all" for every game).
func count(b score.Tally, res string) int {
	switch res {
	case "all":
		return b.Games()
	case string(record.Sente):
		return b.SenteWins
	case string(record.Gote):
		return b.GoteWins
	case string(record.Draw):
		return b.Draws
	}
	panic(fmt.Sprintf("gamestats: result %q", res))
}

func lengths(hist []Bin, res string) (Lengths, bool) {
	var xs, ws []float64
	var sum float64
	for _, b := range hist {
		if n := count(b.Tally, res); n > 0 {
			xs = append(xs, float64(b.Plies))
			ws = append(ws, float64(n))
			sum += float64(b.Plies) * float64(n)
		}
	}
	if len(xs) == 0 {
		return Lengths{}, false
	}
	var n float64
	for _, w := range ws {
		n += w
	}
	q := func(p float64) int { return int(stat.Quantile(p, stat.Empirical, xs, ws)) }
	return Lengths{Result: res, Games: int(n), Mean: sum / n, Min: int(xs[0]),
		Q1: q(0.25), Median: q(0.5), Q3: q(0.75), P90: q(0.9), Max: int(xs[len(xs)-1])}, true
}

// ResignNote says what the games' lengths count, from how their engines resigned
// (Report.Resign): for example "Every game's engine resigned when its search proved every
// move lost (Resign=proven), so a game's length counts the plies to a proven loss, not to
// the end the rules give it." It is "" when no game had the toolkit's engine, whose rule
// the records would say.
func ResignNote(r Report) string {
	counted := 0
	for _, n := range r.Resign {
		counted += n
	}
	if counted == 0 {
		return ""
	}
	const proven = "resigned when its search proved every move lost"
	if counted == r.Games && len(r.Resign) == 1 {
		switch {
		case r.Resign[record.ResignProven] > 0:
			return "Every game's engine " + proven + " (Resign=proven), so a game's length counts the plies to a proven loss, not to the end the rules give it."
		case r.Resign[record.ResignNever] > 0:
			return "The engines never resigned (Resign=never): a game's length counts the plies to the end the rules give it."
		}
	}
	var parts []string
	for _, rule := range slices.Sorted(maps.Keys(r.Resign)) {
		parts = append(parts, fmt.Sprintf("Resign=%s in %d", rule, r.Resign[rule]))
	}
	note := fmt.Sprintf("The engines resigned by different rules: %s of the %d games", strings.Join(parts, ", "), r.Games)
	if counted < r.Games {
		note += fmt.Sprintf(" (%d without the toolkit's engine)", r.Games-counted)
	}
	return note + "; with proven an engine " + proven + ", so such a game's length counts the plies to a proven loss."
}

// LengthsCaption is the caption of PlotLengths: what it shows, of which games (games says,
// such as "200 games of ... (FILE)"), and the numbers behind it, with what the lengths count
// (ResignNote).
func LengthsCaption(r Report, games string) string {
	if len(r.Lengths) == 0 {
		return fmt.Sprintf("Length of the games by result, in %s: no games.", games)
	}
	all := r.Lengths[0]
	var terms []string
	for _, t := range r.Terminations {
		terms = append(terms, fmt.Sprintf("%s %d", t.Termination, t.Share.Count))
	}
	scale := ""
	if lengthsOnLog(LengthsChart(r)) {
		scale = ", counted on a logarithmic axis"
	}
	caption := fmt.Sprintf("Length of the games by result, a histogram in bins of %s%s, in %s. Sente won %d, Gote %d, draws %d; Sente's score %.3f with Wilson 95%% interval [%.3f, %.3f]. Length in plies: mean %.1f, median %d, quartiles %d and %d, range %d–%d. Terminations: %s.",
		BinWidth(r), scale, games, r.SenteWins.Count, r.GoteWins.Count, r.Draws.Count, r.SenteScore.Value, r.SenteScore.Interval[0], r.SenteScore.Interval[1],
		all.Mean, all.Median, all.Q1, all.Q3, all.Min, all.Max, strings.Join(terms, ", "))
	if note := ResignNote(r); note != "" {
		caption += " " + note
	}
	return caption
}

// BinWidth says how wide the bins of the game-length histogram are: "one ply" or "N plies".
func BinWidth(r Report) string {
	c := LengthsChart(r)
	if len(c.Series) == 0 || len(c.Series[0].XYs) < 3 {
		return "one ply"
	}
	w := c.Series[0].XYs[2].X - c.Series[0].XYs[1].X
	if w == 1 {
		return "one ply"
	}
	return fmt.Sprintf("%g plies", w)
}
