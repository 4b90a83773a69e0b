package mcts

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
)

// worker is one search goroutine's state. Its buffers are reused from
// playout to playout, so a playout allocates nothing.
type worker struct {
	s      *Searcher
	eval   Evaluator
	rng    *rand.Rand
	game   Game      // the root position, cloned at the start of each search
	path   []uint32  // nodes of the current playout, root first
	moves  []Move    // legal moves at the leaf being expanded
	priors []float32 // their priors
	stats  workerStats
}

// workerStats are read by the info goroutine while the worker writes them.
type workerStats struct {
	playouts   atomic.Int64
	depthSum   atomic.Int64
	selDepth   atomic.Int64
	collisions atomic.Int64
	_          [64]byte // keeps the workers' counters on separate cache lines
}

func (w *worker) resetStats() {
	w.stats.playouts.Store(0)
	w.stats.depthSum.Store(0)
	w.stats.selDepth.Store(0)
	w.stats.collisions.Store(0)
}

// search runs playouts until the search is halted.
func (w *worker) search() {
	s := w.s
	if w.game == nil {
		w.game = s.root.Clone()
	}
	claimed := int64(0) // playouts of the budget claimed and not yet run
	for !s.stop.Load() {
		if s.budget > 0 {
			if claimed == 0 {
				if claimed = s.claim(); claimed == 0 {
					return // run halts with StopPlayouts once every worker is done
				}
			}
			claimed--
		}
		for !w.playout() {
			if s.stop.Load() {
				return
			}
			w.stats.collisions.Add(1)
			runtime.Gosched()
		}
	}
}

// claimBatch is how many playouts of the budget a worker claims at a time.
// One shared add per playout would move the counter's cache line between
// the cores on every playout; with batches it moves once in claimBatch.
const claimBatch = 16

// claim takes up to claimBatch playouts of the budget and returns how many
// it got, 0 when the budget is spent. The claims of all workers together
// cover the budget exactly, so a search stopped by its budget runs exactly
// Limits.Playouts playouts, however many workers share it.
func (s *Searcher) claim() int64 {
	end := s.playouts.Add(claimBatch)
	return max(0, min(claimBatch, s.budget-(end-claimBatch)))
}

// playout descends from the root by PUCT to a leaf, expands and evaluates
// it, and backs the value up the path. It returns false, having undone its
// virtual losses, if it met a leaf that another goroutine is expanding or
// the pool was full.
func (w *worker) playout() bool {
	s := w.s
	nodes := s.pool.nodes
	w.path = w.path[:0]
	idx := uint32(0)
	var value float32 // of the leaf, for its side to move
	for {
		n := &nodes[idx]
		n.counts.Add(inFlight)
		w.path = append(w.path, idx)
		meta := n.meta.Load()
		if metaStatus(meta) != Unproven {
			value = metaProof(meta).Value()
			break
		}
		if metaState(meta) == expanded {
			c, ok := s.selectChild(n, meta)
			if !ok { // every move loses: n is a proven loss
				s.tryProve(idx)
				value = -1
				break
			}
			w.game.Play(nodes[c].move)
			idx = c
			continue
		}
		if metaState(meta) == unexpanded && n.meta.CompareAndSwap(meta, expanding) {
			var ok bool
			if value, ok = w.expand(idx); ok {
				break
			}
			s.halt(StopPoolFull)
		}
		w.retreat()
		return false
	}
	w.backup(value)
	return true
}

// retreat takes back a playout that could not finish.
func (w *worker) retreat() {
	nodes := w.s.pool.nodes
	for _, idx := range w.path {
		nodes[idx].counts.Add(^uint64(inFlight - 1)) // -inFlight
	}
	w.unwind()
}

// unwind takes back the moves of the path, returning the game to the root.
func (w *worker) unwind() {
	for range len(w.path) - 1 {
		w.game.Undo()
	}
}

// backup adds value (for the leaf's side to move) to the path, turning
// virtual losses into visits, and carries proofs up from a proven leaf
// (Winands, Björnsson and Saito 2008, "Monte-Carlo Tree Search Solver").
func (w *worker) backup(value float32) {
	s := w.s
	nodes := s.pool.nodes
	x := int64(-value * valueScale) // each node holds the value for the player who moved into it
	for i := len(w.path) - 1; i >= 0; i-- {
		n := &nodes[w.path[i]]
		n.valueSum.Add(x)
		n.counts.Add(oneVisit - inFlight)
		x = -x
	}
	leaf := w.path[len(w.path)-1]
	if s.proven(leaf) {
		i := len(w.path) - 2
		for i >= 0 && s.tryProve(w.path[i]) {
			i--
		}
		if i < 0 {
			s.halt(StopProven)
		}
	}
	depth := int64(len(w.path) - 1)
	w.stats.playouts.Add(1)
	w.stats.depthSum.Add(depth)
	if depth > w.stats.selDepth.Load() {
		w.stats.selDepth.Store(depth)
	}
	w.unwind()
}

// selectChild picks the child of n with the highest PUCT score,
//
//	Q + CPuct·P·√N/(1+n),
//
// where N counts the parent's visits and n the child's, playouts in flight
// included, and Q counts each playout in flight as VirtualLoss lost visits.
// Children whose move is proven to lose are skipped; a child whose move is
// proven to win is taken at once. It reports false if every child loses.
func (s *Searcher) selectChild(n *node, meta uint32) (uint32, bool) {
	nodes := s.pool.nodes
	cfg := &s.cfg
	parent := n.counts.Load()
	sqrtN := float32(math.Sqrt(float64(parent>>32 + parent&countMask)))
	best, bestScore := uint32(0), float32(math.Inf(-1))
	fresh, freshPrior := uint32(0), float32(-1) // the unvisited child with the highest prior
	visitedPrior := float32(0)
	first := n.children
	for c := first; c < first+metaChildren(meta); c++ {
		child := &nodes[c]
		status := metaStatus(child.meta.Load())
		switch status {
		case Loss: // the child's side to move loses: this move wins
			return c, true
		case Win:
			continue
		}
		counts := child.counts.Load()
		visits, flying := float32(counts>>32), float32(counts&countMask)
		if visits+flying == 0 {
			if child.prior > freshPrior {
				fresh, freshPrior = c, child.prior
			}
			continue
		}
		visitedPrior += child.prior
		sum := float32(0) // a proven draw is worth exactly 0
		if status == Unproven {
			sum = float32(child.valueSum.Load()) / valueScale
		}
		virtual := cfg.VirtualLoss * flying
		q := (sum - virtual) / (visits + virtual)
		if visits+virtual == 0 {
			q = 0
		}
		score := q + cfg.CPuct*child.prior*sqrtN/(1+visits+flying)
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	if freshPrior >= 0 {
		// Every unvisited child has the same first-play value, so the one
		// with the highest prior is the only one that can win.
		fpu := -n.q() - cfg.FPUReduction*float32(math.Sqrt(float64(visitedPrior)))
		if score := fpu + cfg.CPuct*freshPrior*sqrtN; score > bestScore {
			best, bestScore = fresh, score
		}
	}
	return best, bestScore > float32(math.Inf(-1))
}

// expand evaluates the leaf idx, which the caller has set to expanding, gives
// it its children and publishes them. It returns the leaf's value for its
// side to move, or false if the pool is full (the leaf is left unexpanded).
func (w *worker) expand(idx uint32) (float32, bool) {
	s := w.s
	n := &s.pool.nodes[idx]
	if over, v := w.game.Outcome(); over {
		n.meta.Store(packMeta(expanded, outcomeProof(v), 0))
		return v, true
	}
	w.moves = w.game.LegalMoves(w.moves[:0])
	count := len(w.moves)
	if count == 0 {
		panic("mcts: a game that is not over has no legal moves")
	}
	if count > MaxChildren {
		panic("mcts: a position has more than MaxChildren legal moves")
	}
	if cap(w.priors) < count {
		w.priors = make([]float32, count)
	}
	w.priors = w.priors[:count]
	clear(w.priors)
	ev := w.eval.Evaluate(w.game, w.moves, w.priors, w.rng)
	first, ok := s.pool.alloc(count)
	if !ok {
		n.meta.Store(unexpanded)
		return 0, false
	}
	normalize(w.priors)
	for i, m := range w.moves {
		s.pool.nodes[first+uint32(i)].init(m, w.priors[i])
	}
	n.children = first
	n.meta.Store(packMeta(expanded, ev.Proof, count))
	if ev.Proof.Status != Unproven {
		return ev.Proof.Value(), true
	}
	if ev.Value != ev.Value {
		panic("mcts: the evaluator returned the value NaN")
	}
	return min(max(ev.Value, -1), 1), true
}

// normalize scales priors to sum to 1, reading negative or NaN priors as 0
// and all zero as uniform.
func normalize(priors []float32) {
	sum := float32(0)
	for i, p := range priors {
		if !(p > 0) || math.IsInf(float64(p), 1) {
			priors[i] = 0
		}
		sum += priors[i]
	}
	for i := range priors {
		if sum > 0 {
			priors[i] /= sum
		} else {
			priors[i] = 1 / float32(len(priors))
		}
	}
}

// proven reports whether node idx is proven.
func (s *Searcher) proven(idx uint32) bool {
	return metaStatus(s.pool.nodes[idx].meta.Load()) != Unproven
}

// tryProve proves node idx from its children if they allow: a win if some
// move wins (by the shortest such win found), a loss or a draw once every
// move is proven (by the best of them, a loss by the longest resistance). It
// reports whether the node is proven.
func (s *Searcher) tryProve(idx uint32) bool {
	nodes := s.pool.nodes
	n := &nodes[idx]
	meta := n.meta.Load()
	if metaStatus(meta) != Unproven {
		return true
	}
	if metaState(meta) != expanded || metaChildren(meta) == 0 {
		return false
	}
	var win, draw, loss Proof // the best proven result of each kind, for n's side to move
	open := false
	first := n.children
	for c := first; c < first+metaChildren(meta); c++ {
		p := metaProof(nodes[c].meta.Load()).parent()
		switch p.Status {
		case Win:
			if win.Status == Unproven || p.Plies < win.Plies {
				win = p
			}
		case Draw:
			if draw.Status == Unproven || p.Plies < draw.Plies {
				draw = p
			}
		case Loss:
			if loss.Status == Unproven || p.Plies > loss.Plies {
				loss = p
			}
		default:
			open = true
		}
	}
	switch {
	case win.Status != Unproven:
		return n.setProof(win)
	case open:
		return false
	case draw.Status != Unproven:
		return n.setProof(draw)
	}
	return n.setProof(loss)
}
