package bushiplay_test

import (
	"fmt"

	"github.com/shogilab/shogilab/bushiplay"
	"github.com/shogilab/shogilab/rules/bushi"
)

// Solve the default layout and follow the perfect game's first moves.
func ExampleSolve() {
	r, err := bushi.NewRules(bushi.DefaultLayout())
	if err != nil {
		panic(err)
	}
	sol := bushiplay.Solve(r)
	v, plies := sol.Value(bushi.Start())
	fmt.Printf("black to place: %v in %d plies, %v wins\n", v, plies, sol.Result(bushi.Start()))
	fmt.Println("first moves:", sol.Line(bushi.Start(), 4))
	// Output:
	// black to place: loss in 20 plies, white wins
	// first moves: [+y/+z +x/+y turn turn]
}
