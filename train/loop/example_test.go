package loop_test

import (
	"fmt"

	"github.com/shogilab/shogilab/train/loop"
)

// The gate's rule: only an SPRT that accepted H1 promotes; one that reached its bound
// undecided promotes nothing, however the evidence leans.
func ExamplePromotes() {
	for _, m := range []loop.MatchResult{
		{State: "H1", LLR: 2.94},
		{State: "H0", LLR: -2.94},
		{State: "continue", LLR: 0.4},
		{State: "continue", LLR: -0.4},
	} {
		fmt.Printf("%s, LLR %+.2f: %v\n", m.State, float64(m.LLR), loop.Promotes(m))
	}
	// Output:
	// H1, LLR +2.94: true
	// H0, LLR -2.94: false
	// continue, LLR +0.40: false
	// continue, LLR -0.40: false
}
