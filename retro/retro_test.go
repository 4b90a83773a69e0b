package retro_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/shogilab/shogilab/internal/retrotest"
	"github.com/shogilab/shogilab/outcome"
	"github.com/shogilab/shogilab/retro"
)

// subtraction is the game "take one or two stones; who cannot move loses". Closed form: the
// mover loses exactly when n is a multiple of 3; the winner keeps the count a multiple of 3,
// so a loss at n = 3k lasts 2k plies and a win at 3k+r lasts 2k+1.
type subtraction struct{}

func (subtraction) Code(n int) int { return n }
func (subtraction) Children(n int, dst []int) []int {
	for take := 1; take <= 2 && take <= n; take++ {
		dst = append(dst, n-take)
	}
	return dst
}
func (subtraction) Terminal(int) (outcome.Value, bool) { return outcome.Unknown, false }

// denseSubtraction is the same game numbered densely, to exercise the slice index.
type denseSubtraction struct{ subtraction }

func (denseSubtraction) CodeSpace() int      { return 64 }
func (denseSubtraction) DenseCode(n int) int { return n }

func TestSubtractionClosedForm(t *testing.T) {
	for _, g := range []retro.Rules[int, int]{subtraction{}, denseSubtraction{}} {
		gr := retro.Enumerate(g, []int{20}, retro.Options{})
		if gr.Len() != 21 {
			t.Fatalf("%T: %d positions, want 21", g, gr.Len())
		}
		if want := append([]int{1}, slices.Repeat([]int{2}, 10)...); !slices.Equal(gr.Layers(), want) {
			t.Errorf("%T: layers %v, want %v", g, gr.Layers(), want)
		}
		sol := gr.Solve(nil)
		for i := range gr.Len() {
			n := gr.State(i)
			wantV, wantD := outcome.Win, int32(2*(n/3)+1)
			if n%3 == 0 {
				wantV, wantD = outcome.Loss, int32(2*(n/3))
			}
			if sol.Value[i] != wantV || sol.Dist[i] != wantD {
				t.Errorf("%T: n=%d: %v in %d, want %v in %d", g, n, sol.Value[i], sol.Dist[i], wantV, wantD)
			}
		}
		root, _ := gr.Find(20)
		line := gr.Line(sol, root, 100)
		var stones []int
		for _, i := range line {
			stones = append(stones, gr.State(i))
		}
		// The winner takes to a multiple of 3; the loser's moves all last equally long, and
		// Best breaks the tie toward the first child (take one).
		want := []int{20, 18, 17, 15, 14, 12, 11, 9, 8, 6, 5, 3, 2, 0}
		if !slices.Equal(stones, want) {
			t.Errorf("%T: line %v, want %v", g, stones, want)
		}
	}
}

// graphGame is a game given by an explicit move list; terminal nodes are losses for the side
// to move there.
type graphGame struct {
	moves    [][]int
	terminal []bool
}

func (g graphGame) Code(s int) int { return s }
func (g graphGame) Children(s int, dst []int) []int {
	return append(dst, g.moves[s]...)
}
func (g graphGame) Terminal(s int) (outcome.Value, bool) {
	if g.terminal[s] {
		return outcome.Loss, true
	}
	return outcome.Unknown, false
}

// A hand-solved cyclic graph:
//
//	0 → 1, 1 → 0          a cycle: both draws
//	2 → 3                 3 is terminal (mated): 2 wins in 1
//	4 → 2                 4 must let the opponent win: loss in 2
//	5 → 0, 5 → 2          5 avoids the loss by entering the cycle: draw, best move to 0
//	6 → 4, 6 → 1, 6 → 2   6 wins in 3 through 4, though a draw is also on offer
//	7 → 7, 7 → 3          7 wins in 1 rather than repeat
func TestCyclicGraphByHand(t *testing.T) {
	g := graphGame{
		moves:    [][]int{{1}, {0}, {3}, {}, {2}, {0, 2}, {4, 1, 2}, {7, 3}},
		terminal: []bool{false, false, false, true, false, false, false, false},
	}
	gr := retro.Enumerate[int, int](g, []int{0, 2, 4, 5, 6, 7}, retro.Options{})
	sol := gr.Solve(nil)
	want := []struct {
		v    outcome.Value
		d    int32
		best int // state chosen by Best, −1 for none
	}{
		{outcome.Draw, -1, 1}, {outcome.Draw, -1, 0}, {outcome.Win, 1, 3}, {outcome.Loss, 0, -1},
		{outcome.Loss, 2, 2}, {outcome.Draw, -1, 0}, {outcome.Win, 3, 4}, {outcome.Win, 1, 3},
	}
	for s, w := range want {
		i, ok := gr.Find(s)
		if !ok {
			t.Fatalf("state %d missing", s)
		}
		if sol.Value[i] != w.v || sol.Dist[i] != w.d {
			t.Errorf("state %d: %v in %d, want %v in %d", s, sol.Value[i], sol.Dist[i], w.v, w.d)
		}
		best := -1
		if slot, ok := gr.Best(sol, i); ok {
			best = gr.State(int(gr.Children(i)[slot]))
		}
		if best != w.best {
			t.Errorf("state %d: best move to %d, want %d", s, best, w.best)
		}
	}
}

// With a ply bound, what is proven inside the horizon stays exact and the rest is Unknown:
// 0 → 1 (terminal) or 0 → 2 → 3 → 4 → … a long chain ending in a terminal.
func TestPlyBound(t *testing.T) {
	const chain = 10
	g := graphGame{moves: make([][]int, chain+2), terminal: make([]bool, chain+2)}
	g.moves[0] = []int{1, 2}
	g.terminal[1] = true
	for s := 2; s <= chain; s++ {
		g.moves[s] = []int{s + 1}
	}
	g.terminal[chain+1] = true
	gr := retro.Enumerate[int, int](g, []int{0}, retro.Options{MaxPly: 2})
	if !slices.Equal(gr.Layers(), []int{1, 2, 1}) {
		t.Fatalf("layers %v, want [1 2 1]", gr.Layers())
	}
	sol := gr.Solve(nil)
	for s, w := range map[int]outcome.Value{0: outcome.Win, 1: outcome.Loss, 2: outcome.Unknown, 3: outcome.Unknown} {
		if i, _ := gr.Find(s); sol.Value[i] != w {
			t.Errorf("state %d: %v, want %v", s, sol.Value[i], w)
		}
	}
	if i, _ := gr.Find(3); gr.Expanded(i) {
		t.Error("state 3 lies at the bound and was expanded")
	}
}

func TestAgreesWithValueIteration(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 4))
	var gr retro.Graph[int, int]
	var sol *retro.Solution
	for trial := range 300 {
		n := 2 + rng.IntN(60)
		g := graphGame{moves: make([][]int, n), terminal: make([]bool, n)}
		roots := make([]int, n)
		for s := range n {
			roots[s] = s
			g.terminal[s] = rng.IntN(8) == 0
			for range rng.IntN(4) {
				g.moves[s] = append(g.moves[s], rng.IntN(n))
			}
		}
		gr.Build(g, roots, retro.Options{}) // reuse one graph and solution across trials
		sol = gr.Solve(sol)
		val, dist := retrotest.ValueIteration(g.moves, g.terminal)
		for s := range n {
			i, _ := gr.Find(s)
			if sol.Value[i] != val[s] || sol.Dist[i] != dist[s] {
				t.Fatalf("trial %d, node %d of %v: retro %v in %d, value iteration %v in %d",
					trial, s, g.moves, sol.Value[i], sol.Dist[i], val[s], dist[s])
			}
		}
	}
}
