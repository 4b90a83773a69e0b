package mcts

import (
	"cmp"
	"math"
	"slices"

	"github.com/shogilab/shogilab/outcome"
)

// The Gumbel root (Config.GumbelMoves) follows Danihelka, Guez, Schrittwieser and Silver,
// "Policy improvement by planning with Gumbel" (ICLR 2022), as Gumbel AlphaZero runs it:
//
//   - Before the first playout each root move a gets a Gumbel(0, 1) draw g(a), from the
//     searcher's seed, and the m moves with the largest g(a) + logit(a) are the candidates:
//     Gumbel-top-k, a sample of m moves without replacement from the priors.
//   - Sequential halving spends the playout budget n on the candidates in about log₂ m
//     phases: in each, every remaining candidate gets the same number of visits,
//     ⌊n / (⌈log₂ m⌉ · remaining)⌋ (at least one), and then the better half goes on, by
//     g(a) + logit(a) + σ(q̂(a)). gumbelSchedule lists, for each playout, the visits the
//     candidate it goes to must already have; the playout goes to the best candidate with
//     exactly that many, so the halving needs no state beyond the visit counts.
//   - The move played is the best by the same score among the candidates with the most
//     visits.
//
// Below the root the search keeps PUCT (the paper's deterministic non-root selection was
// not measured here). The priors' logits are log P; the softmax, the top-k and the argmax
// are the same for any constant added to them.

// σ(q̂) = (gumbelCVisit + max_b N(b)) · c_scale · q̂, with q̂ the completed Q-values
// rescaled to [0, 1] by their minimum and maximum over the root's moves, and c_scale
// Config.GumbelScale, as DeepMind's mctx computes it (qtransform_completed_by_mix_value,
// maxvisit_init = 50, value_scale its c_scale, 0.1 by default there, 1 here: see
// Config.GumbelScale). σ grows with the visits, so a well searched move's value outweighs
// the prior more and more; at c_scale 0.1 the values of the best and the worst move differ
// by 5 nats before the first visit, at 1 by 50, which makes the policy target about
// one-hot on the best value.
const gumbelCVisit = 50

// gumbelRoot is a Gumbel root's state for one search; the workers only read it.
type gumbelRoot struct {
	on         bool
	base       []float64 // g(a) + logit(a) for every root child, by child offset
	logit      []float64 // logit(a) = log P(a)
	candidates []uint32  // offsets of the m sampled children
	schedule   []uint32  // visits the candidate of playout k has before it: schedule[k]
	rawValue   float32   // the evaluator's value of the root, for its side to move
}

// minLogit stands for log 0: a move the evaluator gave no prior keeps a finite logit far
// below any other, so that the top-k and softmax stay defined.
const minLogit = -100

// gumbelSchedule is sequential halving's visit schedule for m candidates and n playouts:
// element k is how many visits the candidate that playout k goes to has already had.
// After each phase half the candidates (at least two) go on, until the budget is spent.
func gumbelSchedule(m int, n int64) []uint32 {
	seq := make([]uint32, 0, n)
	if m <= 1 {
		for k := range n {
			seq = append(seq, uint32(k))
		}
		return seq
	}
	phases := int64(math.Ceil(math.Log2(float64(m))))
	level := uint32(0)
	for considered := int64(m); int64(len(seq)) < n; considered = max(2, considered/2) {
		for range max(1, n/(phases*considered)) {
			for range considered {
				seq = append(seq, level)
			}
			level++
		}
	}
	return seq[:n]
}

// prepareGumbel draws the root's Gumbels (none with noise off) and picks the candidates.
// The root was just expanded with one visit, its evaluation.
func (s *Searcher) prepareGumbel(budget int64, noise bool) {
	root := &s.pool.nodes[0]
	first, count := root.children, int(metaChildren(root.meta.Load()))
	gr := &s.gumbel
	*gr = gumbelRoot{on: true, rawValue: -root.q()}
	for i := range count {
		l := math.Log(float64(s.pool.nodes[first+uint32(i)].prior))
		l = max(l, minLogit)
		g := 0.0
		if noise {
			g = s.drawGumbel()
		}
		gr.logit = append(gr.logit, l)
		gr.base = append(gr.base, g+l)
		gr.candidates = append(gr.candidates, uint32(i))
	}
	// The m largest g + logit, the largest first, ties to the earlier move.
	slices.SortStableFunc(gr.candidates, func(a, b uint32) int { return cmp.Compare(gr.base[b], gr.base[a]) })
	m := min(s.cfg.GumbelMoves, count)
	gr.candidates = gr.candidates[:m]
	gr.schedule = gumbelSchedule(m, budget)
}

// gumbelDraw is a Gumbel(0, 1) draw from the root's generator: -log(-log U). It is
// Searcher.drawGumbel unless a test puts Gumbels of its own there.
func (s *Searcher) gumbelDraw() float64 {
	u := s.rng.Float64()
	for u == 0 {
		u = s.rng.Float64()
	}
	return -math.Log(-math.Log(u))
}

// childValue is a root child's visits and its value for the root's side to move: a
// proven child's proven value, else its mean (q counts for visited children only).
func (s *Searcher) childValue(c uint32) (visits uint32, q float64, known bool) {
	n := &s.pool.nodes[c]
	if p := metaProof(n.meta.Load()).parent(); p.Outcome != outcome.Unknown {
		return n.visits(), float64(p.Value()), true
	}
	v := n.visits()
	return v, float64(n.q()), v > 0
}

// sigmaQ is σ(q̂(a)) for the root's children as they stand: the completed Q-values (a
// child's q if it was visited or is proven, else the mixed value v_mix), rescaled to
// [0, 1] and scaled by (c_visit + max N) · c_scale. v_mix is the paper's estimate of the
// root's value under the prior (its appendix D):
//
//	v_mix = (v̂ + ΣN / Σ_{N(b)>0} π(b) · Σ_{N(a)>0} π(a) q(a)) / (1 + ΣN),
//
// with v̂ the evaluator's value of the root and π the priors. It allocates nothing: a
// root selection runs it every playout.
type sigmaQ struct {
	s                *Searcher
	vmix, lo, factor float64
}

func (s *Searcher) sigmaQ() sigmaQ {
	root := &s.pool.nodes[0]
	first, count := root.children, metaChildren(root.meta.Load())
	var sumN, maxN uint32
	var sumP, sumPQ float64
	lo, hi := math.Inf(1), math.Inf(-1)
	unknown := false
	for c := first; c < first+count; c++ {
		v, q, known := s.childValue(c)
		sumN += v
		maxN = max(maxN, v)
		unknown = unknown || !known
		if known {
			p := float64(s.pool.nodes[c].prior)
			sumP += p
			sumPQ += p * q
			lo, hi = min(lo, q), max(hi, q)
		}
	}
	vmix := float64(s.gumbel.rawValue)
	if sumP > 0 {
		vmix = (vmix + float64(sumN)*sumPQ/sumP) / (1 + float64(sumN))
	}
	if unknown { // v_mix completes some move's value
		lo, hi = min(lo, vmix), max(hi, vmix)
	}
	return sigmaQ{s: s, vmix: vmix, lo: lo, factor: (gumbelCVisit + float64(maxN)) * float64(s.cfg.GumbelScale) / max(hi-lo, 1e-8)}
}

// of is σ(q̂) of root child c.
func (f sigmaQ) of(c uint32) float64 {
	_, q, known := f.s.childValue(c)
	if !known {
		q = f.vmix
	}
	return (q - f.lo) * f.factor
}

// gumbelChild is the root child that the next playout visits: among the candidates
// whose visits (playouts in flight included) equal the schedule's for this playout, the
// best by g + logit + σ(q̂). When no candidate has that many (several goroutines, or a
// search without a budget past its schedule) it is the best of those with the fewest.
func (s *Searcher) gumbelChild() (uint32, bool) {
	root := &s.pool.nodes[0]
	first, count := root.children, metaChildren(root.meta.Load())
	gr := &s.gumbel
	var started uint64
	for i := range count {
		n := &s.pool.nodes[first+i]
		if metaOutcome(n.meta.Load()) == outcome.Loss { // the move wins: take it
			return first + i, true
		}
		cnt := n.counts.Load()
		started += cnt>>32 + cnt&countMask
	}
	target := uint64(math.MaxUint64)
	if started < uint64(len(gr.schedule)) {
		target = uint64(gr.schedule[started])
	}
	sigma := s.sigmaQ()
	best, bestScore, bestCount := uint32(0), math.Inf(-1), uint64(math.MaxUint64)
	exact := false
	for _, a := range gr.candidates {
		n := &s.pool.nodes[first+a]
		if metaOutcome(n.meta.Load()) == outcome.Win { // the move loses
			continue
		}
		cnt := n.counts.Load()
		visits := cnt>>32 + cnt&countMask
		score := gr.base[a] + sigma.of(first+a)
		switch {
		case visits == target:
			if !exact || score > bestScore {
				best, bestScore, exact = first+a, score, true
			}
		case !exact && (visits < bestCount || visits == bestCount && score > bestScore):
			best, bestScore, bestCount = first+a, score, visits
		}
	}
	if math.IsInf(bestScore, -1) {
		// Every candidate loses: any other move not proven lost, else none.
		for c := first; c < first+count; c++ {
			if metaOutcome(s.pool.nodes[c].meta.Load()) != outcome.Win {
				return c, true
			}
		}
		return 0, false
	}
	return best, true
}

// gumbelBest is the move a Gumbel root plays: the best by g + logit + σ(q̂) among the
// candidates with the most visits, or bestChild's when the root is proven.
func (s *Searcher) gumbelBest() uint32 {
	if s.proven(0) {
		return s.bestChild(0)
	}
	first := s.pool.nodes[0].children
	gr := &s.gumbel
	sigma := s.sigmaQ()
	most := uint32(0)
	for _, a := range gr.candidates {
		most = max(most, s.pool.nodes[first+a].visits())
	}
	best, bestScore := s.bestChild(0), math.Inf(-1)
	for _, a := range gr.candidates {
		n := &s.pool.nodes[first+a]
		if n.visits() != most || metaOutcome(n.meta.Load()) == outcome.Win {
			continue
		}
		if score := gr.base[a] + sigma.of(first+a); score > bestScore {
			best, bestScore = first+a, score
		}
	}
	return best
}

// gumbelTarget writes the policy target of a Gumbel root into out, by child offset:
// softmax(logit + σ(completed Q)), the paper's improved policy (its equation 11).
func (s *Searcher) gumbelTarget(out []float32) {
	first := s.pool.nodes[0].children
	sigma := s.sigmaQ()
	x := make([]float64, len(out))
	for i := range x {
		x[i] = s.gumbel.logit[i] + sigma.of(first+uint32(i))
	}
	softmax(x, out)
}

// softmax writes the softmax of x into out.
func softmax(x []float64, out []float32) {
	top := math.Inf(-1)
	for _, v := range x {
		top = max(top, v)
	}
	sum := 0.0
	for _, v := range x {
		sum += math.Exp(v - top)
	}
	for i, v := range x {
		out[i] = float32(math.Exp(v-top) / sum)
	}
}
