package sprt_test

import (
	"fmt"

	"github.com/shogilab/shogilab/analysis/sprt"
)

// A match pair by pair: an SPRT's verdict after each pair, then the Elo
// with its interval.
func Example() {
	test, _ := sprt.Parse("elo0=0,elo1=100,alpha=0.05,beta=0.05")
	seq := sprt.NewSequence(test)
	var p sprt.Pentanomial
	// A's points in each pair of games: 0, 1/2, 1, 3/2 or 2.
	for _, points := range []float64{1.5, 1, 2, 1, 0.5, 1.5, 2, 1, 1.5, 2, 1, 1.5, 0.5, 2, 1.5, 1, 2, 1.5, 1, 2, 1.5, 2} {
		p.Add(points)
		if v := seq.Update(p); v.State != sprt.Continue {
			fmt.Printf("%s accepted after %d pairs: LLR %.2f (%.2f, %.2f)\n", v.State, p.Pairs(), v.LLR, v.Lower, v.Upper)
			break
		}
	}
	r := sprt.Estimate(p.Units())
	fmt.Printf("%v: %d games, score %.3f, Elo %+.0f [%+.0f, %+.0f], LOS %.1f%%\n", p, r.Games, r.Score, r.Elo, r.EloLow, r.EloHigh, 100*r.LOS)
	// Output:
	// H1 accepted after 14 pairs: LLR 2.85 (-2.94, 2.78)
	// [0 2 4 4 4]: 28 games, score 0.679, Elo +130 [+30, +256], LOS 99.5%
}
