package mcts

import (
	"math"
	"testing"
)

// TestVisitTargetPruning: the pruned visit distribution of a root set up by hand, with
// CPuct 1.25 and ForcedPlayouts k = 2, worked out here.
//
// Children (prior, visits, mean): c0 (0.5, 20, 0.3), c1 (0.3, 8, 0.1), c2 (0.05, 2, -0.5);
// ΣN = 30, √30 = 5.477226. c* = c0, PUCT(c*) = 0.3 + 1.25·0.5·5.477226/21 = 0.463013.
//
//   - c1: n_forced = √(2·0.3·30) = 4.2426, so at least 8 - 4.2426 = 3.757 visits stay; and
//     0.1 + 1.25·0.3·5.477226/(1+N') < 0.463013 needs 1+N' > 5.658, N' ≥ 5: 5 stay.
//   - c2: n_forced = √(2·0.05·30) = 1.7321, so 2 - 1.7321 = 0.268 may stay, and
//     -0.5 + 0.342327/(1+0.268) = -0.23 < 0.463013 allows it: 0.268 ≤ 1, pruned.
//
// The target is (20, 5, 0)/25 = (0.8, 0.2, 0); without forced playouts it is the visits,
// (20, 8, 2)/30.
func TestVisitTargetPruning(t *testing.T) {
	cfg := testConfig()
	cfg.CPuct = 1.25 // the worked example's constant, not the default
	cfg.ForcedPlayouts = 2
	s := newSearcher(t, cfg, uniform)
	root := &s.pool.nodes[0]
	root.children = 1
	root.meta.Store(packMeta(expanded, Proof{}, 3))
	for i, c := range []struct {
		prior  float32
		visits uint64
		q      float64
	}{{0.5, 20, 0.3}, {0.3, 8, 0.1}, {0.05, 2, -0.5}} {
		n := &s.pool.nodes[1+i]
		n.init(Move(i), c.prior)
		n.counts.Store(c.visits * oneVisit)
		n.valueSum.Store(int64(math.Round(c.q * float64(c.visits) * valueScale)))
	}
	for _, tc := range []struct {
		name   string
		forced bool
		want   []float64
	}{
		{"pruned", true, []float64{0.8, 0.2, 0}},
		{"visits", false, []float64{20.0 / 30, 8.0 / 30, 2.0 / 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.forced = tc.forced
			got := make([]float32, 3)
			s.visitTarget(got)
			for i := range got {
				if math.Abs(float64(got[i])-tc.want[i]) > 1e-6 {
					t.Errorf("target %v, want %v", got, tc.want)
					break
				}
			}
		})
	}
}

// TestForcedPlayouts: with noise and k = 2 every root move gets its √(2·P·ΣN) visits
// (within the one playout in flight when the count is taken), KataGo's rule.
func TestForcedPlayouts(t *testing.T) {
	cfg := testConfig()
	cfg.ForcedPlayouts = 2
	cfg.DirichletEpsilon = 0.25
	s := newSearcher(t, cfg, rollouts)
	res := search(t, s, newTicTacToe("........."), Limits{Playouts: 400})
	var sumN uint32
	for _, c := range res.Root {
		sumN += c.Visits
	}
	for _, c := range res.Root {
		if owed := forcedPlayouts(2, c.Prior, sumN); float32(c.Visits)+1 < owed {
			t.Errorf("move %d: prior %v, %d visits of %d; owed %.1f", c.Move, c.Prior, c.Visits, sumN, owed)
		}
	}
	sum := float32(0)
	for _, p := range res.Target {
		sum += p
	}
	if math.Abs(float64(sum)-1) > 1e-5 {
		t.Errorf("target sums to %v", sum)
	}
}
