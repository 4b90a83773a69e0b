package gamestats

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/shogilab/shogilab/analysis/score"
	"github.com/shogilab/shogilab/record"
)

// Summary accumulates games. The zero Summary is not usable; call New.
type Summary struct {
	results      score.Tally
	terminations map[record.Termination]*score.Tally
	byLength     []score.Tally // index: plies
}

// New returns an empty Summary.
func New() *Summary {
	return &Summary{terminations: map[record.Termination]*score.Tally{}}
}

// Add counts one game.
func (s *Summary) Add(g *record.Game) {
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

// Fields are the record fields Add reads: a reader need decode no other
// (selection.Options.Fields).
const Fields = record.FieldResult | record.FieldTermination | record.FieldPlies

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
}

// Report summarises the games added so far.
func (s *Summary) Report() Report {
	t := s.results
	r := Report{Games: t.Games(), SenteWins: share(t, t.SenteWins), GoteWins: share(t, t.GoteWins), Draws: share(t, t.Draws)}
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
