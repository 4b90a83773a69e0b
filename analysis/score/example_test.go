package score_test

import (
	"fmt"

	"github.com/shogilab/shogilab/analysis/score"
	"github.com/shogilab/shogilab/record"
)

// Two wins, a loss and a draw: 2.5 points of 4, with Wilson's interval at p = 0.625, n = 4.
func ExampleTally() {
	var t score.Tally
	for _, r := range []record.Result{record.Sente, record.Sente, record.Gote, record.Draw} {
		t.Add(r)
	}
	lo, hi := t.Interval()
	fmt.Printf("%d games, Sente scores %.3f [%.3f, %.3f]\n", t.Games(), t.Score(), lo, hi)
	// Output:
	// 4 games, Sente scores 0.625 [0.219, 0.908]
}

// By hand, p = 0.5, n = 100, z = 1.96: centre 0.5 + z²/200 = 0.519208, half-width
// z·√(0.0025 + z²/40000) = 0.099864, divided by 1 + z²/100 = 1.038416.
func ExampleWilson() {
	lo, hi := score.Wilson(0.5, 100, 1.96)
	fmt.Printf("[%.4f, %.4f]\n", lo, hi)
	// Output:
	// [0.4038, 0.5962]
}
