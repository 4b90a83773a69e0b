package match

import (
	"fmt"
	"io"
	"math"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/record"
)

// Report is what a match says, as one JSON object: the counts, the estimate
// and the test. Infinite and undefined numbers are null.
type Report struct {
	A string `json:"a"`
	B string `json:"b"`
	// Games is every game counted; Distinct the games that replay no earlier
	// one; ReplayedGames and ReplayedPairs what was left out.
	Games         int `json:"games"`
	Distinct      int `json:"distinct_games"`
	Pairs         int `json:"pairs"` // distinct complete pairs
	ReplayedGames int `json:"replayed_games"`
	ReplayedPairs int `json:"replayed_pairs"`
	// Wins, Draws and Losses are A's, in distinct games.
	Wins         int                        `json:"wins"`
	Draws        int                        `json:"draws"`
	Losses       int                        `json:"losses"`
	Pentanomial  sprt.Pentanomial           `json:"pentanomial"`
	Estimate     Estimate                   `json:"estimate"`
	SPRT         *SPRT                      `json:"sprt,omitempty"`
	MeanPlies    float64                    `json:"mean_plies"`
	Terminations map[record.Termination]int `json:"terminations"`
}

// Estimate is sprt.Strength with the infinite or undefined values as null.
type Estimate struct {
	Score     float64  `json:"score"`
	ScoreLow  float64  `json:"score_low"`
	ScoreHigh float64  `json:"score_high"`
	Elo       *float64 `json:"elo"`
	EloLow    *float64 `json:"elo_low"`
	EloHigh   *float64 `json:"elo_high"`
	NElo      *float64 `json:"nelo"`
	NEloLow   *float64 `json:"nelo_low"`
	NEloHigh  *float64 `json:"nelo_high"`
	LOS       *float64 `json:"los"`
	// Result is the estimate with its infinities, for tables.
	Result sprt.Strength `json:"-"`
}

// SPRT is the test and where it stands; State is "continue" (undecided),
// "H0" or "H1".
type SPRT struct {
	Elo0  float64    `json:"elo0"`
	Elo1  float64    `json:"elo1"`
	Alpha float64    `json:"alpha"`
	Beta  float64    `json:"beta"`
	Model sprt.Model `json:"model"`
	sprt.Verdict
	Pairs int `json:"pairs"` // the pairs the test has seen
}

// Report returns the standings as a report.
func (s *Standings) Report() *Report {
	e := s.Estimate()
	r := &Report{
		A: s.A, B: s.B, Games: s.Counted, Distinct: s.Distinct(), Pairs: s.Pairs.Pairs(),
		ReplayedGames: s.ReplayedGames, ReplayedPairs: s.ReplayedPairs,
		Wins: s.Games.Wins, Draws: s.Games.Draws, Losses: s.Games.Losses,
		Pentanomial: s.Pairs, Terminations: s.Terminations,
		Estimate: Estimate{Score: e.Score, ScoreLow: e.ScoreLow, ScoreHigh: e.ScoreHigh,
			Elo: finite(e.Elo), EloLow: finite(e.EloLow), EloHigh: finite(e.EloHigh),
			NElo: finite(e.NElo), NEloLow: finite(e.NEloLow), NEloHigh: finite(e.NEloHigh), LOS: finite(e.LOS), Result: e},
	}
	if math.IsNaN(e.Score) {
		r.Estimate.Score, r.Estimate.ScoreLow, r.Estimate.ScoreHigh = 0, 0, 1 // no games: nothing known
	}
	if d := s.Distinct(); d > 0 {
		r.MeanPlies = float64(s.Plies) / float64(d)
	}
	if s.test != nil {
		v := sprt.Verdict{State: sprt.Continue}
		if s.verdict != nil {
			v = *s.verdict
		} else {
			v.Lower, v.Upper = s.test.Test.Bounds()
		}
		t := s.test.Test
		r.SPRT = &SPRT{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta, Model: t.Model, Verdict: v, Pairs: s.tested.Pairs()}
	}
	return r
}

func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// WriteTable writes the report as lines of a tab-separated table (the caller
// owns the tabwriter): games and replays, W-D-L, the pentanomial, the
// estimate, the test, the mean length and the terminations.
func WriteTable(w io.Writer, r *Report) {
	fmt.Fprintf(w, "games\t%d distinct (%d pairs)", r.Distinct, r.Pairs)
	if r.ReplayedGames > 0 || r.ReplayedPairs > 0 {
		fmt.Fprintf(w, "; %d games replayed earlier ones and were left out (%d pairs)", r.ReplayedGames, r.ReplayedPairs)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "A wins / draws / losses\t%d / %d / %d\n", r.Wins, r.Draws, r.Losses)
	p := r.Pentanomial
	fmt.Fprintf(w, "pairs by A's points 0, ½, 1, 1½, 2\t%d, %d, %d, %d, %d\n", p[0], p[1], p[2], p[3], p[4])
	if e := r.Estimate.Result; e.Games > 0 {
		fmt.Fprintf(w, "A score\t%.3f (95%% interval %.3f .. %.3f)\n", e.Score, e.ScoreLow, e.ScoreHigh)
		fmt.Fprintf(w, "Elo (logistic)\t%s (95%% interval %s .. %s)\n", EloText(e.Elo), EloText(e.EloLow), EloText(e.EloHigh))
		fmt.Fprintf(w, "normalized Elo\t%s (95%% interval %s .. %s)\n", EloText(e.NElo), EloText(e.NEloLow), EloText(e.NEloHigh))
		fmt.Fprintf(w, "LOS\t%.1f%%\n", 100*e.LOS)
	}
	if s := r.SPRT; s != nil {
		fmt.Fprintf(w, "SPRT\t%s: LLR %.2f (bounds %.2f, %.2f) after %d pairs, %s Elo [%g, %g], α %g, β %g\n",
			StateText(s.State), s.LLR, s.Lower, s.Upper, s.Pairs, s.Model, s.Elo0, s.Elo1, s.Alpha, s.Beta)
	}
	fmt.Fprintf(w, "mean plies\t%.1f\n", r.MeanPlies)
	for _, t := range record.Terminations() {
		if n := r.Terminations[t]; n > 0 {
			fmt.Fprintf(w, "  %s\t%d\n", t, n)
		}
	}
}

// StateText says where a test stands in words.
func StateText(s sprt.State) string {
	switch s {
	case sprt.H0:
		return "H0 accepted"
	case sprt.H1:
		return "H1 accepted"
	}
	return "no verdict yet"
}

// EloText writes an Elo difference with its sign, or ±inf, or n/a.
func EloText(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.1f", x)
}
