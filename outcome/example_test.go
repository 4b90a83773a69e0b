package outcome_test

import (
	"fmt"

	"github.com/shogilab/shogilab/outcome"
)

// A position won for the side to move is lost for the opponent, who moves next.
func ExampleValue_Negate() {
	for _, v := range []outcome.Value{outcome.Unknown, outcome.Loss, outcome.Draw, outcome.Win} {
		fmt.Printf("%v -> %v\n", v, v.Negate())
	}
	// Output:
	// unknown -> unknown
	// loss -> win
	// draw -> draw
	// win -> loss
}
