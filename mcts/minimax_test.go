package mcts

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/shogilab/shogilab/outcome"
)

// checkMinimax checks the implicit minimax values (Config.MinimaxWeight) of a quiet tree
// searched by one goroutine, recomputing them from the tree: a node evaluated once and
// not expanded further holds its mean (its one value); a node with evaluated children
// holds the negation of the best of theirs; a node's value never is unknown once it was
// visited.
func checkMinimax(t *testing.T, s *Searcher) {
	t.Helper()
	nodes, mm := s.pool.nodes, s.pool.minimax
	var walk func(idx uint32)
	walk = func(idx uint32) {
		n := &nodes[idx]
		meta := n.meta.Load()
		got := math.Float32frombits(mm[idx].Load())
		if n.visits() == 0 {
			return
		}
		if got != got {
			t.Fatalf("node %d: visited %d times, no minimax value", idx, n.visits())
		}
		best, evaluated := float32(math.Inf(-1)), false
		if metaState(meta) == expanded {
			for c := n.children; c < n.children+metaChildren(meta); c++ {
				walk(c)
				if v := math.Float32frombits(mm[c].Load()); v == v {
					best, evaluated = max(best, v), true
				}
			}
		}
		want := n.q()
		if evaluated {
			want = -best
		} else if n.visits() != 1 && metaChildren(meta) > 0 {
			t.Fatalf("node %d: %d visits and no evaluated child", idx, n.visits())
		}
		if idx != 0 && math.Abs(float64(got-want)) > 1e-6 {
			t.Fatalf("node %d: minimax %v, want %v (children evaluated: %v)", idx, got, want, evaluated)
		}
	}
	walk(0)
}

func TestMinimaxBackups(t *testing.T) {
	cfg := testConfig()
	cfg.MinimaxWeight = 0.3
	for _, g := range []Game{newTicTacToe("........."), newTicTacToe("X...O...."), newNim(0, 2, 3, 4), newNim(3, 17)} {
		t.Run(fmt.Sprint(g), func(t *testing.T) {
			s := newSearcher(t, cfg, rollouts)
			res := search(t, s, g, Limits{Playouts: 5000})
			checkTree(t, s, g)
			checkMinimax(t, s)
			want := solve(g, map[uint64]Proof{})
			g.Play(res.Best)
			if got := solve(g, map[uint64]Proof{}).parent(); got.Outcome != want.Outcome {
				t.Errorf("%v: best move gives %v, not %v", g, got, want)
			}
			if over, _ := g.Outcome(); !over {
				// The kept subtree keeps its minimax values.
				search(t, s, g, Limits{Playouts: 1000})
				checkTree(t, s, g)
				checkMinimax(t, s)
			}
			g.Undo()
		})
	}
}

// TestMinimaxChangesSearch: the weight is used (another tree than without), and one
// goroutine with a seed stays reproducible.
func TestMinimaxChangesSearch(t *testing.T) {
	cfg := testConfig()
	cfg.Seed = 5
	plain, _ := selfPlay(t, cfg, 500)
	cfg.MinimaxWeight = 0.3
	first, _ := selfPlay(t, cfg, 500)
	second, _ := selfPlay(t, cfg, 500)
	if !reflect.DeepEqual(withoutTimes(first), withoutTimes(second)) {
		t.Fatal("two runs with minimax backups and seed 5 differ")
	}
	if reflect.DeepEqual(withoutTimes(first), withoutTimes(plain)) {
		t.Fatal("minimax backups left every search as it was")
	}
}

func TestMinimaxParallel(t *testing.T) {
	// Run with -race: four goroutines on one tree, and twins.
	cfg := testConfig()
	cfg.MinimaxWeight = 0.5
	cfg.Threads = 4
	g := newTicTacToe(".........")
	s := newSearcher(t, cfg, rollouts)
	res := search(t, s, g, Limits{Playouts: 20000})
	checkTree(t, s, g)
	g.Play(res.Best)
	if got := solve(g, map[uint64]Proof{}); got.Outcome != outcome.Draw {
		t.Errorf("best move %d leaves %v, want a draw", res.Best, got)
	}
}
