package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shogilab/shogilab/outcome"
)

// Limits bounds one search. With no playout or time limit the search runs
// until its context is cancelled, Stop is called, the root is proven or the
// pool is full.
type Limits struct {
	// Playouts is the number of playouts this search adds; 0 means no limit.
	// Visits kept from earlier searches by tree reuse do not count.
	Playouts int64
	// Time is the longest the search runs; 0 means no limit. With MaxTime it is the
	// time the search aims at instead (timeman.go).
	Time time.Duration
	// MaxTime, if above Time, lets the time manager (timeman.go) stop the search before
	// Time when the best move is settled and run on past Time, up to MaxTime, while it is
	// not. 0 means Time is the longest the search runs.
	MaxTime time.Duration
	// Start is the moment Time and MaxTime count from: for an engine, when its `go`
	// arrived. The zero value means when Search is called. Everything the search does
	// from then on, tree reuse and the root's expansion included, is charged to its time.
	Start time.Time
	// Ply is the number of plies played in the game before the root; it
	// decides whether Config.Temperature applies.
	Ply int
	// NoNoise searches without root noise: no Dirichlet noise (nor the forced playouts
	// that go with it) and, with a Gumbel root, Gumbels of 0, so that the candidates are
	// the moves of highest prior. A playout cap's fast search is one (KataGo).
	NoNoise bool
	// OnInfo, if set, is called every InfoInterval (default one second)
	// from a separate goroutine, and once more when the search ends.
	OnInfo       func(Info)
	InfoInterval time.Duration
}

// StopReason says why a search ended.
type StopReason uint8

const (
	StopPlayouts  StopReason = iota + 1 // Limits.Playouts were done
	StopTime                            // Limits.Time ran out
	StopCancelled                       // the context was cancelled or Stop was called
	StopProven                          // the root's result was proven
	StopPoolFull                        // the node pool was full
	StopSettled                         // the time manager found the best move settled (timeman.go)
)

func (r StopReason) String() string {
	switch r {
	case StopPlayouts:
		return "playouts"
	case StopTime:
		return "time"
	case StopCancelled:
		return "cancelled"
	case StopProven:
		return "proven"
	case StopPoolFull:
		return "pool full"
	case StopSettled:
		return "settled"
	}
	return fmt.Sprintf("StopReason(%d)", uint8(r))
}

// Info is a snapshot of a search, enough for a USI info line.
type Info struct {
	Playouts   int64         // playouts completed by this search
	RootVisits int64         // visits of the root, including those kept by tree reuse
	Nodes      int           // nodes in use in the pool
	Collisions int64         // playouts retried because another goroutine was expanding their leaf
	Twins      int64         // playouts that were the twin of another in one descent (Config.Twins)
	Elapsed    time.Duration // since the search started (Limits.Start)
	Depth      int           // mean depth of this search's playouts, rounded
	SelDepth   int           // depth of the deepest playout
	Value      float32       // the root's value for the side to move, in [-1, 1]
	Proof      Proof         // the root's proven result for the side to move
	PV         []Move        // principal variation: the best move, the best reply, ...
}

// PlayoutsPerSecond is Playouts over Elapsed.
func (i Info) PlayoutsPerSecond() float64 {
	if i.Elapsed <= 0 {
		return 0
	}
	return float64(i.Playouts) / i.Elapsed.Seconds()
}

// ChildStats describes one root move after a search.
type ChildStats struct {
	Move   Move
	Visits uint32
	Q      float32 // mean value for the side to move at the root after playing Move
	Prior  float32 // the prior the search used, root noise included
	Proof  Proof   // the proven result of playing Move, for the side to move at the root
}

// SearchResult is the outcome of a search.
type SearchResult struct {
	Info
	Best Move         // the move to play
	Root []ChildStats // every legal root move, in the game's LegalMoves order
	// Target is the search's policy target, a probability for each move of Root in its
	// order (target.go): with a Gumbel root the improved policy of the completed
	// Q-values, else the visit distribution, pruned of forced playouts when there were
	// any. All zero when no root move was visited.
	Target []float32
	Stop   StopReason
}

// Searcher runs Monte Carlo tree searches with PUCT selection, tree
// parallelism and the MCTS-solver, keeping its tree between searches.
// Search and Advance must not be called concurrently; Stop may be called
// from any goroutine.
type Searcher struct {
	cfg     Config
	pool    pool
	workers []*worker
	rng     *rand.Rand // root noise and temperature
	rootSrc *rand.PCG  // rng's source, reseeded by Reseed

	root       Game      // the position of pool node 0, or nil before the first search
	rootHash   uint64    // root.Hash()
	rootPriors []float32 // the root children's priors before noise, once saved

	// gumbel is the running search's Gumbel root, when it has one (Config.GumbelMoves);
	// forced says that it forces playouts at the root (Config.ForcedPlayouts).
	gumbel     gumbelRoot
	forced     bool
	drawGumbel func() float64 // gumbelDraw

	// Sharing one tree costs most where the workers' paths meet: a node's
	// cache line moves between the cores whenever one worker writes what
	// the other has read. Besides giving each worker a chunk of the pool
	// of its own (worker.alloc), two measures cut that traffic; with the
	// default settings one worker searches exactly as it always did.
	//
	// deferFrom is the visit count from which a node is heavy, 0 for none
	// (one worker). Every playout passes through the few heavy nodes at the
	// top of the tree. Workers add no virtual loss to a heavy node and
	// batch its visits, adding them every flushEvery descents; so few
	// visits hardly move a heavy node's statistics. (Lc0 likewise gathers a
	// batch of leaves against statistics that the batch's own visits update
	// only at its end.)
	//
	// twins (Config.Twins) makes a descent that expands a leaf also expand
	// the leaf's twin, the sibling the next descent would choose (see
	// worker.twin): two leaves for one walk down the shared top of the tree.
	deferFrom uint32
	twins     bool

	running  atomic.Bool
	stop     atomic.Bool   // read by every playout; written once a search
	reason   atomic.Uint32 // the first StopReason of the running search
	budget   int64         // Limits.Playouts of the running search
	started  time.Time     // Limits.Start of the running search
	hardTime time.Duration // its time from started, at the latest; 0 without a time limit
	yield    bool          // more workers than GOMAXPROCS: they yield between playouts

	// playouts is written by every worker's claims; on a cache line of its
	// own it does not make the workers' reads of stop, budget and the pool
	// miss in cache (false sharing).
	_        cacheLinePad
	playouts atomic.Int64 // playouts claimed in the running search
	_        cacheLinePad
}

// cacheLinePad separates fields that different goroutines write often from
// fields they read. 128 bytes rather than one 64-byte line, because x86
// processors since Sandy Bridge prefetch lines in pairs (the size Rust's
// crossbeam CachePadded and folly's hardware_destructive_interference_size
// use on x86-64).
type cacheLinePad [128]byte

// heavyVisits is the visit count from which a node's statistics are
// batched when several workers search (see Searcher.deferFrom): a batch of
// at most 2·flushEvery visits per worker is then at most 6% of them.
const heavyVisits = 256

// NewSearcher allocates the node pool and the search goroutines' state.
// newEvaluator is called once per goroutine (Config.Threads times).
func NewSearcher(cfg Config, newEvaluator func() Evaluator) (*Searcher, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if newEvaluator == nil {
		panic("mcts: NewSearcher: nil evaluator factory")
	}
	s := &Searcher{cfg: cfg, rootSrc: rand.NewPCG(cfg.Seed, 0)}
	s.rng = rand.New(s.rootSrc)
	s.drawGumbel = s.gumbelDraw
	if cfg.MinimaxWeight > 0 {
		s.pool.minimax = make([]atomic.Uint32, cfg.MaxNodes)
	}
	s.pool.allocate(cfg.MaxNodes)
	if cfg.Threads > 1 {
		s.deferFrom = heavyVisits
	}
	s.twins = cfg.Twins == TwinsOn || cfg.Twins == TwinsAuto && cfg.Threads > 1
	for i := range cfg.Threads {
		// Stream i+1 of the seed: independent of the root's stream 0.
		src := rand.NewPCG(cfg.Seed, uint64(i)+1)
		w := &worker{s: s, eval: newEvaluator(), src: src, rng: rand.New(src)}
		if cfg.DeepenVisits > 0 {
			w.deepener, _ = w.eval.(Deepener)
		}
		s.workers = append(s.workers, w)
	}
	return s, nil
}

// Config returns the searcher's configuration.
func (s *Searcher) Config() Config { return s.cfg }

// Nodes is the number of pool nodes in use: the tree's, and those of earlier trees that
// tree reuse left in place until the pool is compacted (descend).
func (s *Searcher) Nodes() int { return int(s.pool.used.Load()) }

// Reset drops the tree.
func (s *Searcher) Reset() {
	s.pool.reset()
	s.root = nil
	s.rootPriors = nil
}

// Reseed drops the tree and restarts every random choice from seed, as if
// the searcher had just been made by NewSearcher with Config.Seed = seed,
// but keeps the node pool: a new game costs no allocation. It must not be
// called while a search runs.
func (s *Searcher) Reseed(seed uint64) {
	if s.running.Load() {
		panic("mcts: Reseed called while a search runs")
	}
	s.Reset()
	s.cfg.Seed = seed
	s.rootSrc.Seed(seed, 0)
	for i, w := range s.workers {
		w.src.Seed(seed, uint64(i)+1)
	}
}

// Stop ends the running search, which returns StopCancelled; without a
// running search it does nothing.
func (s *Searcher) Stop() {
	if s.running.Load() {
		s.halt(StopCancelled)
	}
}

func (s *Searcher) halt(r StopReason) {
	s.reason.CompareAndSwap(0, uint32(r))
	s.stop.Store(true)
}

// Advance plays m at the root and keeps the subtree below it for the next
// search. It returns an error if there is no root yet (no search so far) or
// m is not legal there.
func (s *Searcher) Advance(m Move) error {
	if s.root == nil {
		return errors.New("mcts: advance: no root position; search once first")
	}
	legal := false
	for _, l := range s.root.LegalMoves(nil) {
		legal = legal || l == m
	}
	if !legal {
		return fmt.Errorf("mcts: advance: move %s is not legal at the root", s.root.MoveString(m))
	}
	s.descend([]Move{m})
	return nil
}

// descend plays the legal moves path from the root and keeps the subtree of the node they
// lead to, if the tree has it. The pool is compacted only when more than half of it is in
// use: compaction walks and moves the whole kept tree, a sixth of the time of games at
// 10,000 playouts a move (docs/tactics.md, "Tree reuse without compaction"), while a roomy
// pool only needs the new root in node 0. Either way the tree is the same, so the
// search is too, as long as the pool does not fill: a search then starts with at least half
// the pool free.
func (s *Searcher) descend(path []Move) {
	node, inTree := uint32(0), true
	for _, m := range path {
		s.root.Play(m)
		if inTree {
			node, inTree = s.childWithMove(node, m)
		}
	}
	s.rootHash = s.root.Hash()
	s.rootPriors = nil
	switch {
	case inTree && s.pool.roomy():
		s.pool.moveRoot(node)
	case inTree:
		s.pool.keepSubtree(node)
	default:
		s.pool.reset()
	}
}

func (s *Searcher) childWithMove(parent uint32, m Move) (uint32, bool) {
	meta := s.pool.nodes[parent].meta.Load()
	if metaState(meta) != expanded {
		return 0, false
	}
	first := s.pool.nodes[parent].children
	for c := first; c < first+metaChildren(meta); c++ {
		if s.pool.nodes[c].move == m {
			return c, true
		}
	}
	return 0, false
}

// attach makes g the root, keeping the tree if g is the root's position or
// one reached from it by one or two moves in the tree (our move and the
// reply), found by Hash.
func (s *Searcher) attach(g Game) {
	h := g.Hash()
	if s.root != nil && h != s.rootHash {
		if path, ok := s.findDescendant(h); ok {
			s.descend(path) // legal: the moves come from the tree
		}
	}
	if s.root == nil || h != s.rootHash {
		s.pool.reset()
		s.rootPriors = nil
	}
	s.root = g.Clone()
	s.rootHash = h
}

// findDescendant looks for hash among the root's children and grandchildren
// in the tree and returns the moves to it.
func (s *Searcher) findDescendant(hash uint64) ([]Move, bool) {
	nodes := s.pool.nodes
	g := s.root
	var found []Move
	var walk func(idx uint32, depth int) bool
	walk = func(idx uint32, depth int) bool {
		meta := nodes[idx].meta.Load()
		if depth == 2 || metaState(meta) != expanded {
			return false
		}
		first := nodes[idx].children
		for c := first; c < first+metaChildren(meta); c++ {
			g.Play(nodes[c].move)
			hit := g.Hash() == hash || walk(c, depth+1)
			g.Undo()
			if hit {
				found = append(found, nodes[c].move)
				return true
			}
		}
		return false
	}
	if !walk(0, 0) {
		return nil, false
	}
	for i, j := 0, len(found)-1; i < j; i, j = i+1, j-1 {
		found[i], found[j] = found[j], found[i]
	}
	return found, true
}

// Search searches g within lim and returns the move to play with the root's
// statistics. It reuses the tree when g is the position of the last search
// or is reached from it by moves in the tree (see Advance). It returns an
// error if g is over or the pool cannot hold the root's moves.
//
// With Threads = 1, a fixed Seed and a playout budget, the same sequence of
// calls gives the same results every time.
func (s *Searcher) Search(ctx context.Context, g Game, lim Limits) (SearchResult, error) {
	// Clear the stop flag before the search counts as running, so that a
	// Stop from now on is not lost.
	s.stop.Store(false)
	s.reason.Store(0)
	if !s.running.CompareAndSwap(false, true) {
		panic("mcts: Search called while another search runs on the same Searcher")
	}
	defer s.running.Store(false)
	defer s.releaseChunks()
	if over, _ := g.Outcome(); over {
		return SearchResult{}, errors.New("mcts: search: the game is already over")
	}
	if lim.Playouts < 0 || lim.Time < 0 || lim.MaxTime < 0 {
		return SearchResult{}, fmt.Errorf("mcts: search: negative limit (playouts %d, time %v, max time %v)", lim.Playouts, lim.Time, lim.MaxTime)
	}
	if lim.MaxTime > 0 && lim.Time == 0 {
		return SearchResult{}, fmt.Errorf("mcts: search: max time %v without a time to aim at", lim.MaxTime)
	}
	s.started = lim.Start
	if s.started.IsZero() {
		s.started = time.Now()
	}
	// The time limit runs from here, before any work of the search: tree reuse and the
	// root's expansion take time that the clock of whoever asked is already counting. The
	// workers read the clock themselves (worker.search).
	s.hardTime = max(lim.Time, lim.MaxTime)
	s.yield = len(s.workers) > runtime.GOMAXPROCS(0)
	s.playouts.Store(0)
	s.budget = lim.Playouts
	for _, w := range s.workers {
		w.resetStats()
		w.game = nil
	}

	gumbel := s.cfg.GumbelMoves > 0 && lim.Playouts > 0
	if gumbel {
		s.Reset() // the halving counts this search's visits only
	}
	s.gumbel = gumbelRoot{}
	s.attach(g)
	if err := s.prepareRoot(!gumbel && !lim.NoNoise); err != nil {
		return SearchResult{}, err
	}
	s.forced = !gumbel && !lim.NoNoise && s.cfg.DirichletEpsilon > 0 && s.cfg.ForcedPlayouts > 0
	if gumbel {
		s.prepareGumbel(lim.Playouts, !lim.NoNoise)
	}
	if s.proven(0) {
		s.halt(StopProven)
	} else {
		s.run(ctx, lim)
	}
	res := s.result(lim.Ply)
	if lim.OnInfo != nil {
		lim.OnInfo(res.Info)
	}
	return res, nil
}

// prepareRoot expands the root if it is new, clears any proof an evaluator
// gave it (the root needs a proven move, which only its children give),
// finds the moves that end the game at once, proves the root from its
// children if they allow, and mixes in root noise if noise says so.
func (s *Searcher) prepareRoot(noise bool) error {
	root := &s.pool.nodes[0]
	if m := root.meta.Load(); metaState(m) == expanded && metaChildren(m) == 0 && metaOutcome(m) == outcome.Unknown {
		// A repetition leaf of the last search, now the root: it is searched afresh.
		root.counts.Store(0)
		root.valueSum.Store(0)
		root.meta.Store(unexpanded)
	}
	if metaState(root.meta.Load()) != expanded {
		w := s.workers[0]
		w.game = s.root.Clone()
		root.meta.Store(expanding)
		value, ok := w.expand(0)
		if !ok {
			s.pool.reset()
			return fmt.Errorf("mcts: search: the node pool of %d nodes cannot hold the root's moves", len(s.pool.nodes))
		}
		root.valueSum.Add(int64(-value * valueScale))
		root.counts.Add(oneVisit)
	}
	root.meta.Store(root.meta.Load() &^ proofMask)
	s.endingMoves()
	s.tryProve(0)
	if s.cfg.DirichletEpsilon > 0 && noise {
		s.addRootNoise()
	} else if s.rootPriors != nil {
		// A search without noise after one with it on the same root: the clean priors.
		first := root.children
		for i, p := range s.rootPriors {
			s.pool.nodes[first+uint32(i)].prior = p
		}
	}
	return nil
}

// endingMoves expands the root's children that end the game, so that they are
// proven before anything else is. The root then knows its shortest win: a
// move that wins at once ranks above the first move of a longer proven win,
// which the search may prove first (an evaluator's mate search proves deep
// wins at a child's first visit), and the proof the root reports is the
// shortest. It costs one Play and Outcome per root move, once per search.
func (s *Searcher) endingMoves() {
	root := &s.pool.nodes[0]
	first, count := root.children, metaChildren(root.meta.Load())
	w := s.workers[0]
	if w.game == nil {
		w.game = s.root.Clone()
	}
	for c := first; c < first+count; c++ {
		n := &s.pool.nodes[c]
		if n.meta.Load() != unexpanded {
			continue
		}
		w.game.Play(n.move)
		if over, _ := w.game.Outcome(); over {
			n.meta.Store(expanding)
			w.expand(c) // a finished game: proven, no children, no node taken
		}
		w.game.Undo()
	}
}

// run starts the workers and the limit watchers and waits for the workers.
func (s *Searcher) run(ctx context.Context, lim Limits) {
	done := make(chan struct{})
	var watchers sync.WaitGroup
	watchers.Go(func() {
		select {
		case <-ctx.Done():
			s.halt(StopCancelled)
		case <-done:
		}
	})
	if lim.MaxTime > lim.Time {
		watchers.Go(func() { s.manageTime(lim, done) })
	}
	if lim.OnInfo != nil {
		every := lim.InfoInterval
		if every <= 0 {
			every = time.Second
		}
		watchers.Go(func() {
			tick := time.NewTicker(every)
			defer tick.Stop()
			for {
				select {
				case <-tick.C:
					lim.OnInfo(s.info())
				case <-done:
					return
				}
			}
		})
	}
	if s.hardTime > 0 && time.Since(s.started) >= s.hardTime {
		// The time went on work before the workers: tree reuse, the root's expansion.
		s.halt(StopTime)
	}
	var workers sync.WaitGroup
	for _, w := range s.workers {
		workers.Go(w.search)
	}
	workers.Wait()
	s.releaseChunks() // before the result counts the nodes in use
	if s.budget > 0 && s.playouts.Load() >= s.budget {
		// The workers stop on their own when the budget is spent, so that
		// none abandons playouts it has claimed.
		s.halt(StopPlayouts)
	}
	close(done)
	watchers.Wait()
}

// info takes a snapshot of the running or finished search.
func (s *Searcher) info() Info {
	root := &s.pool.nodes[0]
	in := Info{
		RootVisits: int64(root.visits()),
		Nodes:      s.Nodes(),
		Elapsed:    time.Since(s.started),
		Value:      -root.q(),
		Proof:      metaProof(root.meta.Load()),
		PV:         s.pv(),
	}
	var depthSum int64
	for _, w := range s.workers {
		in.Playouts += w.stats.playouts.Load()
		in.Collisions += w.stats.collisions.Load()
		in.Twins += w.stats.twins.Load()
		depthSum += w.stats.depthSum.Load()
		in.SelDepth = max(in.SelDepth, int(w.stats.selDepth.Load()))
	}
	if in.Playouts > 0 {
		in.Depth = int(math.Round(float64(depthSum) / float64(in.Playouts)))
	}
	if in.Proof.Outcome != outcome.Unknown {
		in.Value = in.Proof.Value()
	}
	return in
}

func (s *Searcher) result(ply int) SearchResult {
	res := SearchResult{Info: s.info(), Stop: StopReason(s.reason.Load())}
	root := &s.pool.nodes[0]
	first, count := root.children, metaChildren(root.meta.Load())
	for c := first; c < first+count; c++ {
		n := &s.pool.nodes[c]
		res.Root = append(res.Root, ChildStats{
			Move:   n.move,
			Visits: n.visits(),
			Q:      n.q(),
			Prior:  n.prior,
			Proof:  metaProof(n.meta.Load()).parent(),
		})
	}
	res.Target = make([]float32, len(res.Root))
	var best uint32
	switch {
	case s.gumbel.on:
		best = s.gumbelBest()
		s.gumbelTarget(res.Target)
	case s.cfg.TemperaturePlies > ply:
		best = s.sampleChild(0, s.cfg.Temperature)
		s.visitTarget(res.Target)
	default:
		best = s.bestChild(0)
		s.visitTarget(res.Target)
	}
	res.Best = s.pool.nodes[best].move
	return res
}
