package mcts

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/outcome"
)

// deepenEvaluator is treeEvaluator with a second look: Deepen counts its calls by node
// and, when prove is set, returns the node's exact result by negamax (solve).
type deepenEvaluator struct {
	treeEvaluator
	calls map[int]int
	prove bool
}

func (e *deepenEvaluator) EvaluateDeep(g Game, moves []Move, priors []float32, rng *rand.Rand) Evaluation {
	e.calls[-1]++ // counted apart: the root's evaluation
	return e.Evaluate(g, moves, priors, rng)
}

func (e *deepenEvaluator) Deepen(g Game) (Proof, bool) {
	e.calls[g.(*treeGame).at()]++
	if !e.prove {
		return Proof{}, false
	}
	return solve(g.Clone(), map[uint64]Proof{}), true
}

// binaryTree is a complete binary tree of the given depth whose leaves are draws, with
// values and priors that vary from node to node, so that a search visits its nodes
// unevenly.
func binaryTree(depth int) *gameTree {
	t := &gameTree{}
	var build func(d int) int
	build = func(d int) int {
		if d == depth {
			return t.leaf(0)
		}
		id := t.add(float32(len(t.children)%7-3) / 4)
		a, b := build(d+1), build(d+1)
		p := float32(id%5+1) / 6
		t.link(id, []int{a, b}, []float32{p, 1 - p})
		return id
	}
	build(0)
	return t
}

// TestDeepenVisits: with one goroutine the search asks for Deepen exactly at the nodes
// below the root that a playout passed through after DeepenVisits visits, once each; with
// DeepenVisits 0, never.
func TestDeepenVisits(t *testing.T) {
	tree := binaryTree(10)
	for _, k := range []int{0, 1, 4} {
		t.Run(fmt.Sprintf("DeepenVisits=%d", k), func(t *testing.T) {
			ev := &deepenEvaluator{calls: map[int]int{}}
			cfg := testConfig()
			cfg.DeepenVisits = k
			s := newSearcher(t, cfg, func() Evaluator { return ev })
			g := tree.game()
			search(t, s, g, Limits{Playouts: 600})
			nodes := s.pool.nodes
			asked := 0
			var walk func(idx uint32, id int)
			walk = func(idx uint32, id int) {
				n := &nodes[idx]
				meta := n.meta.Load()
				if idx != 0 && metaOutcome(meta) == outcome.Unknown {
					want := 0
					if k > 0 && int(n.visits()) > k {
						want = 1
					}
					if ev.calls[id] != want {
						t.Errorf("node %d, %d visits: Deepen called %d times, want %d", id, n.visits(), ev.calls[id], want)
					}
					asked += want
				}
				if metaState(meta) != expanded {
					return
				}
				for i := range metaChildren(meta) {
					walk(n.children+i, tree.children[id][nodes[n.children+i].move])
				}
			}
			walk(0, 0)
			if ev.calls[0] != 0 {
				t.Errorf("Deepen called at the root")
			}
			if want := min(k, 1); ev.calls[-1] != want {
				t.Errorf("the root evaluated deep %d times, want %d", ev.calls[-1], want)
			}
			if k > 0 && asked == 0 {
				t.Error("no node was deepened")
			}
			checkTree(t, s, g)
		})
	}
}

// TestDeepenProof: a proof from Deepen solves its node as an evaluator's proof does. Below
// the root's move 1 a forced line of 20 plies ends in a loss for the side to move after
// move 1; Deepen, which knows it, proves the move a win after two playouts through it,
// where the tree alone needs a playout a ply.
func TestDeepenProof(t *testing.T) {
	tree := &gameTree{}
	root := tree.add(0)
	quiet := tree.leaf(0) // move 0: a draw
	line := tree.add(0)   // move 1: the forced line
	at := line
	for range 19 {
		next := tree.add(0)
		tree.link(at, []int{next}, []float32{1})
		at = next
	}
	tree.link(at, []int{tree.leaf(-1)}, []float32{1})
	tree.link(root, []int{quiet, line}, []float32{0.5, 0.5})
	want := solve(tree.game(), map[uint64]Proof{})
	if want != (Proof{outcome.Win, 21}) {
		t.Fatalf("negamax says %v; the tree is not what the test means", want)
	}
	for _, c := range []struct {
		name   string
		visits int
		proven bool
	}{
		{"deepened", 1, true},
		{"never deepened", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev := &deepenEvaluator{calls: map[int]int{}, prove: true}
			cfg := testConfig()
			cfg.DeepenVisits = c.visits
			s := newSearcher(t, cfg, func() Evaluator { return ev })
			res := search(t, s, tree.game(), Limits{Playouts: 8})
			if got := res.Proof == want && res.Best == 1; got != c.proven {
				t.Errorf("proof %v, best %d after %d playouts; want proven %v", res.Proof, res.Best, res.Playouts, c.proven)
			}
			checkTree(t, s, tree.game())
		})
	}
}
