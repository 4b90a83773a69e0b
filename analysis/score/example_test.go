package score_test

import (
	"fmt"

	"github.com/shogilab/shogilab/analysis/score"
	"github.com/shogilab/shogilab/record"
)

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

func ExampleWilson() {
	lo, hi := score.Wilson(0.5, 100, 1.96)
	fmt.Printf("[%.4f, %.4f]\n", lo, hi)
	// Output:
	// [0.4038, 0.5962]
}
