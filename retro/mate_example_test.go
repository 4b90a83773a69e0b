package retro_test

import (
	"fmt"

	"github.com/shogilab/shogilab/retro"
)

// A bounded mate on a small arena (see arena in mate_test.go): the attacker at vertex 0 goes
// to 1; the defender there picks 2 or 3; from either, the attacker moves to the dead end 4.
func ExampleMateSearch() {
	a := arena{edges: [][]int{{1}, {2, 3}, {4, 0}, {4}, {}}}
	ms := retro.NewMateSearch[int, int, int](a, 0)
	plies, found, _ := ms.MinimalMate(0, true, 9)
	fmt.Println("mate:", found, "in", plies, "plies")
	line, _ := ms.MateLine(0, true, plies)
	fmt.Println("line (vertices):", line)
	proof, _ := ms.Proof(0, true, plies)
	fmt.Println("proof entries:", len(proof.Moves), "checks:", retro.CheckProof[int, int, int](a, 0, proof) == nil)

	// The same by bounded retrograde analysis.
	gr := retro.Enumerate[int, int](a, []int{0}, retro.Options{MaxPly: 9})
	d, ok := gr.SolveMate(true, nil).Mated(0)
	fmt.Println("retrograde:", ok, d)
	// Output:
	// mate: true in 3 plies
	// line (vertices): [1 2 4]
	// proof entries: 3 checks: true
	// retrograde: true 3
}
