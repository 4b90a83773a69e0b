package mcts

import "math"

// The policy target of a search is what a network's policy head learns from it
// (Result.Target): with the Gumbel root, the improved policy of its completed Q-values
// (gumbelTarget); with PUCT, the root's visit distribution, less the visits that forced
// playouts gave (Wu 2019, "Accelerating Self-Play Learning in Go", KataGo, section 3.1).

// forcedPlayouts is n_forced(c) = √(k · P(c) · ΣN), the visits a root child with prior P
// is owed with Config.ForcedPlayouts = k after ΣN visits of the root's children.
func forcedPlayouts(k, prior float32, sumN uint32) float32 {
	return float32(math.Sqrt(float64(k * prior * float32(sumN))))
}

// forcedChild is a root child that has had fewer visits (in flight included) than
// forcedPlayouts owes it, the one with the largest prior, if any; moves proven lost are
// owed nothing. KataGo forces them only while the root has noise, as s.forced says.
func (s *Searcher) forcedChild() (uint32, bool) {
	root := &s.pool.nodes[0]
	first, count := root.children, metaChildren(root.meta.Load())
	var sumN uint32
	for c := first; c < first+count; c++ {
		cnt := s.pool.nodes[c].counts.Load()
		sumN += uint32(cnt>>32 + cnt&countMask)
	}
	best, bestPrior := uint32(0), float32(-1)
	for c := first; c < first+count; c++ {
		n := &s.pool.nodes[c]
		if s.proven(c) {
			continue
		}
		cnt := n.counts.Load()
		if float32(cnt>>32+cnt&countMask) < forcedPlayouts(s.cfg.ForcedPlayouts, n.prior, sumN) && n.prior > bestPrior {
			best, bestPrior = c, n.prior
		}
	}
	return best, bestPrior >= 0
}

// visitTarget writes the root's visit distribution into out, by child offset. With
// forced playouts (s.forced) it is pruned first, as KataGo prunes it: the most visited
// child c* keeps its visits; every other child c gives back up to n_forced(c) of its
// visits, as many as it can while its PUCT score with the visits left stays below c*'s,
//
//	Q(c) + CPuct·P(c)·√ΣN/(1+N') < Q(c*) + CPuct·P(c*)·√ΣN/(1+N(c*)),
//
// and a child left with one visit or none is dropped. Q is the child's mean for the
// root's side to move.
func (s *Searcher) visitTarget(out []float32) {
	root := &s.pool.nodes[0]
	first, count := root.children, metaChildren(root.meta.Load())
	var sumN uint32
	star := first
	for c := first; c < first+count; c++ {
		v := s.pool.nodes[c].visits()
		sumN += v
		if v > s.pool.nodes[star].visits() {
			star = c
		}
	}
	if sumN == 0 {
		clear(out)
		return
	}
	sqrtN := float32(math.Sqrt(float64(sumN)))
	puct := func(n *node, visits float32) float32 {
		return n.q() + s.cfg.CPuct*n.prior*sqrtN/(1+visits)
	}
	top := puct(&s.pool.nodes[star], float32(s.pool.nodes[star].visits()))
	total := float32(0)
	for i := range count {
		c := first + i
		n := &s.pool.nodes[c]
		v := float32(n.visits())
		if s.forced && c != star && v > 0 {
			// The fewest visits N' ≥ v - n_forced with Q + U(N') < top.
			least := max(v-forcedPlayouts(s.cfg.ForcedPlayouts, n.prior, sumN), 0)
			if gap := top - n.q(); gap > 0 {
				least = max(least, float32(math.Floor(float64(s.cfg.CPuct*n.prior*sqrtN/gap))))
			} else {
				least = v
			}
			for least < v && !(puct(n, least) < top) {
				least++ // rounding: the bound is met one visit later
			}
			if v = min(v, least); v <= 1 {
				v = 0
			}
		}
		out[i] = v
		total += v
	}
	for i := range out {
		out[i] /= total
	}
}
