package mcts

import (
	"math"

	"github.com/shogilab/shogilab/outcome"
	"gonum.org/v1/gonum/stat/distmv"
)

// rank orders the children of a node for the final move choice, from the
// view of the node's side to move: a proven win before anything else (the
// shorter the better), a proven loss after everything else (the longer the
// better), and between them the most visited, then the higher valued.
type rank struct {
	proof  Proof // of playing the move
	visits uint32
	q      float32
}

func (s *Searcher) rankOf(c uint32) rank {
	n := &s.pool.nodes[c]
	return rank{metaProof(n.meta.Load()).parent(), n.visits(), n.q()}
}

func (a rank) tier() int {
	switch a.proof.Outcome {
	case outcome.Win:
		return 2
	case outcome.Loss:
		return 0
	}
	return 1
}

// beats reports whether a ranks strictly above b.
func (a rank) beats(b rank) bool {
	if a.tier() != b.tier() {
		return a.tier() > b.tier()
	}
	switch a.tier() {
	case 2:
		return a.proof.Plies < b.proof.Plies
	case 0:
		return a.proof.Plies > b.proof.Plies
	}
	if a.visits != b.visits {
		return a.visits > b.visits
	}
	return a.q > b.q
}

// bestChild is the child of the expanded node idx that ranks first; ties go
// to the earlier move.
func (s *Searcher) bestChild(idx uint32) uint32 {
	n := &s.pool.nodes[idx]
	first, count := n.children, metaChildren(n.meta.Load())
	best, bestRank := first, s.rankOf(first)
	for c := first + 1; c < first+count; c++ {
		if r := s.rankOf(c); r.beats(bestRank) {
			best, bestRank = c, r
		}
	}
	return best
}

// sampleChild draws a child of node idx with probability ∝
// visits^(1/temperature) among the moves not proven lost. A proven win is
// taken as bestChild takes it, and without visited candidates the choice
// falls back to bestChild.
func (s *Searcher) sampleChild(idx uint32, temperature float64) uint32 {
	best := s.bestChild(idx)
	top := s.rankOf(best)
	if top.tier() != 1 || top.visits == 0 {
		return best
	}
	n := &s.pool.nodes[idx]
	first, count := n.children, metaChildren(n.meta.Load())
	// Weights relative to the most visited move keep the powers in range.
	weight := func(r rank) float64 {
		if r.tier() != 1 {
			return 0
		}
		return math.Pow(float64(r.visits)/float64(top.visits), 1/temperature)
	}
	total := 0.0
	for c := first; c < first+count; c++ {
		total += weight(s.rankOf(c))
	}
	x := s.rng.Float64() * total
	for c := first; c < first+count; c++ {
		if w := weight(s.rankOf(c)); w > 0 {
			if x -= w; x < 0 {
				return c
			}
		}
	}
	return best // x was within rounding of total
}

// pv follows bestChild from the root while the chosen child has been
// visited or is proven.
func (s *Searcher) pv() []Move {
	var pv []Move
	idx := uint32(0)
	for {
		meta := s.pool.nodes[idx].meta.Load()
		if metaState(meta) != expanded || metaChildren(meta) == 0 {
			return pv
		}
		c := s.bestChild(idx)
		if r := s.rankOf(c); r.visits == 0 && r.proof.Outcome == outcome.Unknown {
			return pv
		}
		pv = append(pv, s.pool.nodes[c].move)
		idx = c
	}
}

// addRootNoise mixes Dirichlet(α, …, α) noise into the root children's
// priors, P' = (1-ε)·P + ε·η (Silver et al. 2018, AlphaZero), starting from
// the priors before any earlier noise when the root was searched before.
func (s *Searcher) addRootNoise() {
	root := &s.pool.nodes[0]
	first, count := root.children, int(metaChildren(root.meta.Load()))
	children := s.pool.nodes[first : int(first)+count]
	if s.rootPriors == nil {
		s.rootPriors = make([]float32, count)
		for i := range children {
			s.rootPriors[i] = children[i].prior
		}
	}
	if count < 2 {
		return
	}
	alpha := make([]float64, count)
	for i := range alpha {
		alpha[i] = s.cfg.DirichletAlpha
	}
	eta := distmv.NewDirichlet(alpha, s.rng).Rand(nil)
	eps := s.cfg.DirichletEpsilon
	for i := range children {
		children[i].prior = float32((1-eps)*float64(s.rootPriors[i]) + eps*eta[i])
	}
}
