package retro_test

import (
	"fmt"

	"github.com/shogilab/shogilab/retro"
)

// Take one or two stones; the player who cannot move loses.
func Example() {
	gr := retro.Enumerate[int, int](subtraction{}, []int{7}, retro.Options{})
	sol := gr.Solve(nil)
	for _, n := range []int{7, 6} {
		i, _ := gr.Find(n)
		fmt.Printf("%d stones: %v in %d plies\n", n, sol.Value[i], sol.Dist[i])
	}
	root, _ := gr.Find(7)
	slot, _ := gr.Best(sol, root)
	fmt.Println("best move leaves", gr.State(int(gr.Children(root)[slot])))
	fmt.Println("positions per ply:", gr.Layers())
	// Output:
	// 7 stones: win in 5 plies
	// 6 stones: loss in 4 plies
	// best move leaves 6
	// positions per ply: [1 2 2 2 1]
}
