package mcts

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/shogilab/shogilab/outcome"
)

// worker is one search goroutine's state. Its buffers are reused from
// playout to playout, so a playout allocates nothing.
type worker struct {
	s    *Searcher
	eval Evaluator
	// deepener is eval as a Deepener, when it is one.
	deepener Deepener
	rng      *rand.Rand
	src      *rand.PCG // rng's source, reseeded by Searcher.Reseed
	game     Game      // the root position, cloned at the start of each search
	path     []uint32  // nodes of the current playout, root first
	moves    []Move    // legal moves at the leaf being expanded
	priors   []float32 // their priors
	chunk    chunk     // pool nodes reserved for this worker's expansions

	// deferred[i] says that path[i] is a heavy node, whose statistics this
	// playout leaves in pending (see Searcher.deferFrom).
	deferred   []bool
	pending    []pendingStats
	sinceFlush int // descents backed up since pending was last flushed
	stats      workerStats
}

// workerStats are read by the info goroutine while the worker writes them.
type workerStats struct {
	playouts   atomic.Int64
	depthSum   atomic.Int64
	selDepth   atomic.Int64
	collisions atomic.Int64
	twins      atomic.Int64
	_          cacheLinePad // keeps the workers' counters on separate cache lines
}

func (w *worker) resetStats() {
	w.stats.playouts.Store(0)
	w.stats.depthSum.Store(0)
	w.stats.selDepth.Store(0)
	w.stats.collisions.Store(0)
	w.stats.twins.Store(0)
}

// search runs playouts until the search is halted.
func (w *worker) search() {
	s := w.s
	if w.game == nil {
		w.game = s.root.Clone()
	}
	defer w.flush()
	claimed := int64(0) // playouts of the budget claimed and not yet run
	for !s.stop.Load() {
		if s.hardTime > 0 && time.Since(s.started) >= s.hardTime {
			// Each worker reads the clock itself (some nanoseconds a playout of some
			// microseconds): on a busy machine the timer's goroutine may wait for a
			// processor some milliseconds after the deadline, a running worker does not.
			s.halt(StopTime)
			return
		}
		if s.budget > 0 {
			if claimed == 0 {
				if claimed = s.claim(); claimed == 0 {
					return // run halts with StopPlayouts once every worker is done
				}
			}
			claimed--
		}
		for {
			// A twin takes one more playout of the claimed budget, so that a
			// budget is still run exactly.
			leaves := w.playout(s.twins && (s.budget == 0 || claimed > 0))
			if s.yield {
				runtime.Gosched() // more workers than processors: let the others run (MaxThreads)
			}
			if leaves > 0 {
				if leaves == 2 && s.budget > 0 {
					claimed--
				}
				break
			}
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
// it, and backs the value up the path. With twin set it tries to expand the
// leaf's twin too (see worker.twin). It returns the number of leaves backed
// up, or 0, having undone its virtual losses, if it met a leaf that another
// goroutine is expanding or the pool was full.
func (w *worker) playout(twin bool) int {
	s := w.s
	nodes := s.pool.nodes
	w.path = w.path[:0]
	w.deferred = w.deferred[:0]
	idx := uint32(0)
	var value float32 // of the leaf, for its side to move
	for {
		n := &nodes[idx]
		deferred := s.deferFrom != 0 && uint32(n.counts.Load()>>32) >= s.deferFrom
		if !deferred {
			n.counts.Add(inFlight)
		}
		w.path = append(w.path, idx)
		w.deferred = append(w.deferred, deferred)
		meta := n.meta.Load()
		if metaOutcome(meta) != outcome.Unknown {
			value = metaProof(meta).Value()
			break
		}
		if metaState(meta) == expanded {
			if metaChildren(meta) == 0 { // a repetition leaf (Config.RepetitionLeaves)
				_, value = w.game.(Repeater).Repeats()
				break
			}
			if w.deepener != nil && idx != 0 && n.counts.Load()>>32 == uint64(s.cfg.DeepenVisits) {
				// n has been visited Config.DeepenVisits times: the evaluator's second
				// look (Deepener).
				if p, ok := w.deepener.Deepen(w.game); ok {
					n.setProof(p)
					value = metaProof(n.meta.Load()).Value()
					if mm := s.pool.minimax; mm != nil {
						mm[idx].Store(math.Float32bits(-value))
					}
					break
				}
			}
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
				if twin {
					if t, tv, ok := w.twin(); ok {
						w.backup(value, t, tv)
						return 2
					}
				}
				break
			}
			s.halt(StopPoolFull)
		}
		w.retreat()
		return 0
	}
	w.backup(value, noTwin, 0)
	return 1
}

// noTwin stands for "no twin" in backup; node 0, the root, is nobody's twin.
const noTwin = 0

// twin expands the leaf's twin: the child of the leaf's parent that the
// next descent through the parent would choose while this playout is in
// flight, if that child is unexpanded and no other goroutine claims it
// first. It returns the twin and its value for its side to move. The game
// is left at the twin's position or, without a twin, the leaf's.
//
// The walk down the top of the tree is where the goroutines of a parallel
// search meet, each writing nodes the other has just read, so that their
// cache lines travel between the cores; a descent that yields two leaves
// halves that traffic per playout. Lc0 gathers many leaves per descent for
// its batches in the same way, with in-flight visits steering each next
// choice.
func (w *worker) twin() (uint32, float32, bool) {
	s := w.s
	nodes := s.pool.nodes
	if len(w.path) < 2 {
		return noTwin, 0, false
	}
	leaf := w.path[len(w.path)-1]
	parent := &nodes[w.path[len(w.path)-2]]
	w.game.Undo()
	if c, ok := s.selectChild(parent, parent.meta.Load()); ok && c != leaf {
		t := &nodes[c]
		if m := t.meta.Load(); m == unexpanded && t.meta.CompareAndSwap(m, expanding) {
			t.counts.Add(inFlight)
			w.game.Play(t.move)
			if v, ok := w.expand(c); ok {
				return c, v, true
			}
			t.counts.Add(^uint64(inFlight - 1)) // -inFlight
			s.halt(StopPoolFull)
			w.game.Undo()
		}
	}
	w.game.Play(nodes[leaf].move)
	return noTwin, 0, false
}

// pendingStats are visits and a value sum that a worker owes a heavy node.
type pendingStats struct {
	idx      uint32
	visits   uint32
	valueSum int64
}

// flushEvery is how many descents a worker backs up before it adds its
// pending statistics to the tree. A heavy node then lags behind by at most
// 2·flushEvery visits per worker (a descent may bring a twin).
const flushEvery = 8

// addPending owes node idx visits visits with value sum x.
func (w *worker) addPending(idx uint32, x int64, visits uint32) {
	for i := len(w.pending) - 1; i >= 0; i-- {
		if p := &w.pending[i]; p.idx == idx {
			p.visits += visits
			p.valueSum += x
			return
		}
	}
	w.pending = append(w.pending, pendingStats{idx: idx, visits: visits, valueSum: x})
}

// flush adds the pending statistics to the tree.
func (w *worker) flush() {
	nodes := w.s.pool.nodes
	for _, p := range w.pending {
		n := &nodes[p.idx]
		n.valueSum.Add(p.valueSum)
		n.counts.Add(uint64(p.visits) * oneVisit)
	}
	w.pending = w.pending[:0]
	w.sinceFlush = 0
}

// retreat takes back a playout that could not finish.
func (w *worker) retreat() {
	nodes := w.s.pool.nodes
	for i, idx := range w.path {
		if !w.deferred[i] {
			nodes[idx].counts.Add(^uint64(inFlight - 1)) // -inFlight
		}
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
// With a twin (not noTwin) it adds the twin's value tv to the twin and the
// sum of both to the path above them, with two visits.
func (w *worker) backup(value float32, twin uint32, tv float32) {
	s := w.s
	nodes := s.pool.nodes
	x := int64(-value * valueScale) // each node holds the value for the player who moved into it
	visits := uint64(1)
	last := len(w.path) - 1
	for i := last; i >= 0; i-- {
		idx := w.path[i]
		if i == last-1 && twin != noTwin {
			t := &nodes[twin]
			tx := int64(-tv * valueScale)
			t.valueSum.Add(tx)
			t.counts.Add(oneVisit - inFlight)
			x -= tx // the parent's mover gets the negation of both leaves' values
			visits = 2
		}
		if w.deferred[i] {
			w.addPending(idx, x, uint32(visits))
		} else {
			n := &nodes[idx]
			n.valueSum.Add(x)
			n.counts.Add(visits*oneVisit - inFlight)
		}
		x = -x
	}
	if len(w.pending) > 0 {
		if w.sinceFlush++; w.sinceFlush >= flushEvery {
			w.flush()
		}
	}
	if s.pool.minimax != nil {
		s.backupMinimax(w.path)
	}
	if s.proven(w.path[last]) || twin != noTwin && s.proven(twin) {
		i := last - 1
		for i >= 0 && s.tryProve(w.path[i]) {
			i--
		}
		if i < 0 {
			s.halt(StopProven)
		}
	}
	if twin != noTwin {
		w.stats.twins.Add(1)
	}
	depth := int64(last)
	w.stats.playouts.Add(int64(visits))
	w.stats.depthSum.Add(depth * int64(visits))
	if depth > w.stats.selDepth.Load() {
		w.stats.selDepth.Store(depth)
	}
	w.unwind()
}

// backupMinimax updates the implicit minimax values (Config.MinimaxWeight) of path, whose
// leaf (and its twin, a child of the node before the leaf) were evaluated: each node's is
// the negation of its best child's, over the children that have one. It stops where a
// value does not change, as nothing above can change then.
func (s *Searcher) backupMinimax(path []uint32) {
	nodes, mm := s.pool.nodes, s.pool.minimax
	for i := len(path) - 2; i >= 0; i-- {
		idx := path[i]
		n := &nodes[idx]
		best := float32(math.Inf(-1))
		for c := n.children; c < n.children+metaChildren(n.meta.Load()); c++ {
			if v := math.Float32frombits(mm[c].Load()); v > best { // false for unknown (NaN)
				best = v
			}
		}
		if math.IsInf(float64(best), -1) {
			return
		}
		v := math.Float32bits(-best)
		if mm[idx].Load() == v {
			return
		}
		mm[idx].Store(v)
	}
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
	if n == &nodes[0] { // the root's own rules: gumbel.go, target.go
		if s.gumbel.on {
			return s.gumbelChild()
		}
		if s.forced {
			if c, ok := s.forcedChild(); ok {
				return c, true
			}
		}
	}
	cfg := &s.cfg
	parent := n.counts.Load()
	sqrtN := float32(math.Sqrt(float64(parent>>32 + parent&countMask)))
	best, bestScore := uint32(0), float32(math.Inf(-1))
	fresh, freshPrior := uint32(0), float32(-1) // the unvisited child with the highest prior
	visitedPrior := float32(0)
	first := n.children
	for c := first; c < first+metaChildren(meta); c++ {
		child := &nodes[c]
		status := metaOutcome(child.meta.Load())
		switch status {
		case outcome.Loss: // the child's side to move loses: this move wins
			return c, true
		case outcome.Win:
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
		if status == outcome.Unknown {
			sum = float32(child.valueSum.Load()) / valueScale
		}
		virtual := cfg.VirtualLoss * flying
		q := (sum - virtual) / (visits + virtual)
		if visits+virtual == 0 {
			q = 0
		}
		if mm := s.pool.minimax; mm != nil && status == outcome.Unknown {
			if v := math.Float32frombits(mm[c].Load()); v == v {
				q += cfg.MinimaxWeight * (v - q)
			}
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
	v, ok := w.evaluateLeaf(idx)
	if mm := w.s.pool.minimax; ok && mm != nil {
		mm[idx].Store(math.Float32bits(-v))
	}
	return v, ok
}

// evaluateLeaf is expand without the minimax value.
func (w *worker) evaluateLeaf(idx uint32) (float32, bool) {
	s := w.s
	n := &s.pool.nodes[idx]
	if over, v := w.game.Outcome(); over {
		n.meta.Store(packMeta(expanded, outcomeProof(v), 0))
		return v, true
	}
	if s.cfg.RepetitionLeaves && idx != 0 {
		if r, ok := w.game.(Repeater); ok {
			if repeats, v := r.Repeats(); repeats {
				n.meta.Store(packMeta(expanded, Proof{}, 0))
				return v, true
			}
		}
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
	var ev Evaluation
	if idx == 0 && w.deepener != nil {
		ev = w.deepener.EvaluateDeep(w.game, w.moves, w.priors, w.rng)
	} else {
		ev = w.eval.Evaluate(w.game, w.moves, w.priors, w.rng)
	}
	first, ok := w.alloc(count)
	if !ok {
		n.meta.Store(unexpanded)
		return 0, false
	}
	normalize(w.priors)
	for i, m := range w.moves {
		s.pool.nodes[first+uint32(i)].init(m, w.priors[i])
	}
	if mm := s.pool.minimax; mm != nil {
		for i := range w.moves {
			mm[first+uint32(i)].Store(unknownMinimax)
		}
	}
	n.children = first
	n.meta.Store(packMeta(expanded, ev.Proof, count))
	if ev.Proof.Outcome != outcome.Unknown {
		return ev.Proof.Value(), true
	}
	if ev.Value != ev.Value {
		panic("mcts: the evaluator returned the value NaN")
	}
	return min(max(ev.Value, -1), 1), true
}

// alloc reserves n consecutive pool nodes for one expansion. With one
// worker it takes them straight from the pool, so that the tree is laid out
// exactly as it always was. With several, each worker takes them from a
// chunk of its own: the workers then neither contend for the pool's counter
// nor write child blocks that share a cache line with the other workers'.
func (w *worker) alloc(n int) (uint32, bool) {
	p := &w.s.pool
	if len(w.s.workers) == 1 {
		return p.alloc(n)
	}
	if int(w.chunk.end-w.chunk.next) < n {
		size := max(n, chunkNodes)
		first, ok := p.alloc(size)
		if !ok {
			size = n // the pool is nearly full: take only what this block needs
			if first, ok = p.alloc(size); !ok {
				return 0, false
			}
		}
		w.chunk = chunk{next: first, end: first + uint32(size)}
	}
	first := w.chunk.next
	w.chunk.next += uint32(n)
	return first, true
}

// chunk is a run of pool nodes that one worker reserved, [next, end) unused.
type chunk struct{ next, end uint32 }

// chunkNodes is how many nodes a worker reserves at a time: 128 KiB, a few
// hundred expansions.
const chunkNodes = 4096

// releaseChunks gives the unused ends of the workers' chunks back to the pool
// where they lie at its end, and forgets the chunks. Called while no search
// runs.
func (s *Searcher) releaseChunks() {
	for released := true; released; {
		released = false
		for _, w := range s.workers {
			c := w.chunk
			if c.end > c.next && s.pool.used.CompareAndSwap(c.end, c.next) {
				w.chunk.end = c.next
				released = true
			}
		}
	}
	for _, w := range s.workers {
		w.chunk = chunk{}
	}
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
	return metaOutcome(s.pool.nodes[idx].meta.Load()) != outcome.Unknown
}

// tryProve proves node idx from its children if they allow: a win if some
// move wins (by the shortest such win found), a loss or a draw once every
// move is proven (by the best of them, a loss by the longest resistance). It
// reports whether the node is proven.
func (s *Searcher) tryProve(idx uint32) bool {
	nodes := s.pool.nodes
	n := &nodes[idx]
	meta := n.meta.Load()
	if metaOutcome(meta) != outcome.Unknown {
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
		switch p.Outcome {
		case outcome.Win:
			if win.Outcome == outcome.Unknown || p.Plies < win.Plies {
				win = p
			}
		case outcome.Draw:
			if draw.Outcome == outcome.Unknown || p.Plies < draw.Plies {
				draw = p
			}
		case outcome.Loss:
			if loss.Outcome == outcome.Unknown || p.Plies > loss.Plies {
				loss = p
			}
		default:
			open = true
		}
	}
	switch {
	case win.Outcome != outcome.Unknown:
		return n.setProof(win)
	case open:
		return false
	case draw.Outcome != outcome.Unknown:
		return n.setProof(draw)
	}
	return n.setProof(loss)
}
