package mcts

import (
	"context"
	"testing"

	"github.com/shogilab/shogilab/outcome"
)

func newSearcher(t testing.TB, cfg Config, eval func() Evaluator) *Searcher {
	t.Helper()
	s, err := NewSearcher(cfg, eval)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func rollouts() Evaluator { return NewRolloutEvaluator(100) }
func uniform() Evaluator  { return UniformEvaluator{} }

func search(t testing.TB, s *Searcher, g Game, lim Limits) SearchResult {
	t.Helper()
	res, err := s.Search(context.Background(), g, lim)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkTree checks the invariants of a quiet tree rooted at g's position:
// no playout in flight, visits of an unproven expanded node one more than
// its children's, priors summing to 1, and every proof equal in result to
// the negamax value of its position.
func checkTree(t *testing.T, s *Searcher, g Game) {
	t.Helper()
	g = g.Clone()
	memo := map[uint64]Proof{}
	nodes := s.pool.nodes
	var walk func(idx uint32)
	walk = func(idx uint32) {
		n := &nodes[idx]
		meta := n.meta.Load()
		if f := n.counts.Load() & countMask; f != 0 {
			t.Fatalf("node %d: %d playouts still in flight", idx, f)
		}
		if metaState(meta) == expanding {
			t.Fatalf("node %d: left expanding", idx)
		}
		if p := metaProof(meta); p.Outcome != outcome.Unknown {
			if want := solve(g, memo); want.Outcome != p.Outcome {
				t.Fatalf("node %d (%v): proved %v, negamax says %v", idx, g, p, want)
			}
		}
		if metaState(meta) != expanded || metaChildren(meta) == 0 {
			return
		}
		sum, priors := uint32(0), float32(0)
		for c := n.children; c < n.children+metaChildren(meta); c++ {
			sum += nodes[c].visits()
			priors += nodes[c].prior
			g.Play(nodes[c].move)
			walk(c)
			g.Undo()
		}
		if metaOutcome(meta) == outcome.Unknown && n.visits() != sum+1 {
			t.Fatalf("node %d: %d visits, children %d", idx, n.visits(), sum)
		}
		if priors < 0.999 || priors > 1.001 {
			t.Fatalf("node %d: priors sum to %v", idx, priors)
		}
	}
	walk(0)
}

// testConfig is DefaultConfig with a pool of 2^20 nodes (32 MiB), enough for
// the small games, so that the many searchers of the tests are quick to make.
func testConfig() Config {
	cfg := DefaultConfig()
	cfg.MaxNodes = 1 << 20
	return cfg
}
