package solver_test

import (
	"fmt"
	"strings"

	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/solver"
)

func ExampleSolveDFPN() {
	root, _ := minishogi.Handicap("bare-king")
	d, err := solver.SolveDFPN(root, minishogi.Sente, solver.DFPNOptions{MaxPlies: 12})
	if err != nil {
		panic(err)
	}
	fmt.Println("mate in", d.Plies, "plies; proof checks:", solver.CheckProof(root, d.Proof) == nil)
	// Output: mate in 8 plies; proof checks: true
}

// The bare-king mate is 8 plies (docs/rules.md#bare-king). The layers are the positions
// first reached at each ply; TestLayersByBruteForce counts them again by a plain
// breadth-first search.
func ExampleSolveRetro() {
	root, _ := minishogi.Handicap("bare-king")
	r := solver.SolveRetro(root, minishogi.Sente, solver.RetroOptions{MaxPlies: 8})
	fmt.Println("mate in", r.Plies, "plies, found with the graph bounded at", r.MaxPlies, "plies")
	fmt.Println("positions per ply:", r.Layers)
	// Output:
	// mate in 8 plies, found with the graph bounded at 6 plies
	// positions per ply: [1 2 32 79 886 1559 12687]
}

func ExampleCheckLine() {
	root, _ := minishogi.ParseSFEN("4k/5/4G/5/K4 b G 1")
	lc, _ := solver.CheckLine(root, minishogi.Sente, strings.Fields("5e5d 1a2a G*2b"), 0)
	fmt.Println("mate:", lc.Mate, "minimal:", lc.MinimalMate, "ok:", lc.OK())
	fmt.Println(lc.Refutations[0].Kind, "at ply", lc.Refutations[0].Ply)
	// Output:
	// mate: true minimal: 1 ok: false
	// shorter-mate at ply 0
}
