package retro

import (
	"cmp"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// MoveRules is a game seen move by move, as a mate search and a proof checker need it. A
// position without legal moves is lost for the side to move (checkmate, and in shogi also
// stalemate); the game has no other end inside a mate search.
type MoveRules[S any, M comparable, K comparable] interface {
	// Code returns the position's exact code (see Rules.Code).
	Code(s S) K
	// Moves appends the legal moves of s to dst and returns the extended slice.
	Moves(s S, dst []M) []M
	// Play returns the position after the legal move m.
	Play(s S, m M) S
}

// Knowledge is an optional extension of MoveRules: cheap knowledge of a position that df-pn+
// turns into initial proof and disproof numbers for a node not yet searched (Nagai and
// Kishimoto's df-pn+, as used by Kaneko et al. for shogi mating problems). The numbers are
// from the mover's view, as the search stores them: phi is how hard it is for the mover to
// reach its goal, delta how hard for the opponent. Both must be at least 1. Without it a
// node starts with phi 1 and delta its number of moves.
type Knowledge[S any, M comparable] interface {
	Initial(s S, moves []M, attackerToMove bool) (phi, delta uint32)
}

// MoveTester is an optional extension of MoveRules: whether a position has any legal move,
// which the search asks of every node with no plies left (most of a search's nodes: each
// attacker move one ply before the bound), where the answer alone decides the node (none: the
// mover is mated; some: the defender has escaped). It must agree with Moves; telling it is
// far cheaper than listing the moves, since the first one found suffices.
type MoveTester[S any] interface {
	HasMoves(s S) bool
}

// ErrDeadline is returned when a search passes the deadline set with SetDeadline.
var ErrDeadline = errors.New("retro: df-pn: the deadline passed")

// infinity is the proof or disproof number of a decided node. Sums of numbers saturate one
// below it, so that only a decided node ever reaches it.
const infinity = 1<<31 - 1

// ttKey names a node of a proof walk by its exact code.
type ttKey[K comparable] struct {
	code     K
	plies    int16
	attacker bool
}

// frame is the scratch of one ply of the depth-first search.
type frame[S any, M comparable, K comparable] struct {
	moves      []M
	children   []S
	keys       []nodeKey[K]
	phi, delta []uint32
	childMoves []M
}

// worker is one goroutine of a search: its own frames, node count and error; the table is
// shared.
type worker[S any, M comparable, K comparable] struct {
	ms     *MateSearch[S, M, K]
	frames []*frame[S, M, K]
	nodes  int64
	err    error
}

// MateSearch proves or disproves bounded forced mates with depth-first proof-number search
// (df-pn; Nagai, "Df-pn algorithm for searching AND/OR trees and its applications", PhD
// thesis, University of Tokyo, 2002; survey: Kishimoto, Winands, Müller and Saito,
// "Game-tree search using proof numbers: the first twenty years", ICGA Journal 35(3), 2012).
//
// The search works on nodes (position, role, plies left) and stores their proof and disproof
// numbers in a transposition table of fixed size that is kept between calls, so iterative
// deepening on the mate length (MinimalMate) and the principal-variation and proof walks
// reuse earlier work. The table applies depth superiority (a mate within p plies is one
// within more, an escape over p plies one over fewer) and, for a HandRules, hand superiority.
// Children start from the game's Knowledge (df-pn+) or by mobility: a child whose mover has n
// moves starts with phi 1 and delta n. With SetWorkers(n > 1) the search runs n goroutines on
// the shared table, each steered away from the attacker moves the others are in by virtual
// proof numbers (Kaneko, "Parallel depth first proof number search", AAAI 2010; see mid for
// why at attacker nodes only). A MateSearch is not itself safe for concurrent calls.
type MateSearch[S any, M comparable, K comparable] struct {
	game     MoveRules[S, M, K]
	hands    HandRules[S, M, K] // game, when it is one
	know     Knowledge[S, M]    // game, when it has it
	tester   MoveTester[S]      // game, when it is one
	tt       *table[K]
	workers  []*worker[S, M, K]
	deadline time.Time
	stop     atomic.Bool
	nodes    int64
	// nodeLimit and interrupt stop a search early (SetNodeLimit, SetInterrupt).
	nodeLimit int64
	interrupt <-chan struct{}
}

// SetDeadline makes searches stop with ErrDeadline once t has passed (the zero time: never).
// The table keeps what was decided, so a later search resumes the work.
func (ms *MateSearch[S, M, K]) SetDeadline(t time.Time) { ms.deadline = t }

// checkDeadlineEvery is how many generated nodes pass between looks at the clock: about a
// millisecond of search, so a deadline is met closely and the clock costs nothing.
const checkDeadlineEvery = 1 << 12

// NewMateSearch returns a search over g whose table holds at most maxEntries nodes (0: a
// table that grows as needed). A full table gives up the nodes of the smallest subtrees, so a
// search within a budget runs as long as it must: a proof walk searches again what the table
// forgot.
func NewMateSearch[S any, M comparable, K comparable](g MoveRules[S, M, K], maxEntries int) *MateSearch[S, M, K] {
	if maxEntries < 0 {
		panic(fmt.Sprintf("retro: NewMateSearch: maxEntries is %d, want 0 (no limit) or more", maxEntries))
	}
	ms := &MateSearch[S, M, K]{game: g, tt: newTable[K](maxEntries)}
	ms.hands, _ = g.(HandRules[S, M, K])
	ms.know, _ = g.(Knowledge[S, M])
	ms.tester, _ = g.(MoveTester[S])
	ms.SetWorkers(1)
	return ms
}

// SetWorkers sets the number of goroutines each search runs (at least 1). With more than
// one, the table takes its full size at once (a million entries when it has no limit) and
// stops growing.
func (ms *MateSearch[S, M, K]) SetWorkers(n int) {
	if n < 1 {
		panic(fmt.Sprintf("retro: SetWorkers: %d workers, want 1 or more", n))
	}
	if n > 1 {
		full := ms.tt.limit // the table's full size, or a million entries without a limit
		if full == 0 {
			full = 1 << 20
		}
		ms.Reserve(full / 2)
	}
	ms.tt.parallel(n > 1)
	ms.workers = ms.workers[:0]
	for range n {
		ms.workers = append(ms.workers, &worker[S, M, K]{ms: ms})
	}
}

// Nodes returns the number of positions whose moves the search has generated so far.
func (ms *MateSearch[S, M, K]) Nodes() int64 { return ms.nodes }

// TableSize returns the number of nodes in the transposition table.
func (ms *MateSearch[S, M, K]) TableSize() int { return ms.tt.size() }

// TableCapacity returns the number of nodes the table holds at most at its present size.
func (ms *MateSearch[S, M, K]) TableCapacity() int { return len(ms.tt.entries) }

// key returns node s's key. It normalises the plies left by their parity: the attacker
// mates on its own move, so from an attacker node only an odd number of plies can end in
// mate, from a defender node an even one.
func (ms *MateSearch[S, M, K]) key(s S, plies int, attacker bool) nodeKey[K] {
	if attacker == (plies%2 == 0) && plies > 0 {
		plies--
	}
	k := nodeKey[K]{plies: int16(plies), attacker: attacker}
	if ms.hands != nil {
		k.board, k.hash, k.hand = ms.hands.Split(s, attacker)
	} else {
		k.board = ms.game.Code(s)
		k.hash = maphash.Comparable(ms.tt.seed, k.board)
	}
	return k
}

// Prove reports whether the attacker forces mate within plies plies from s; attacker tells
// whether the attacker is to move in s. The answer is exact: true comes with a proof in the
// table (see Proof), false means every attacker strategy lets the defender survive plies
// plies or end the game otherwise.
func (ms *MateSearch[S, M, K]) Prove(s S, attacker bool, plies int) (bool, error) {
	if plies < 0 || plies > 1<<15-1 {
		panic(fmt.Sprintf("retro: Prove: plies is %d, want 0..32767", plies))
	}
	k := ms.key(s, plies, attacker)
	ms.stop.Store(false)
	var phi, delta uint32
	if len(ms.workers) == 1 {
		w := ms.workers[0]
		w.err, w.nodes = nil, 0
		phi, delta = w.mid(s, k, infinity, infinity, 0)
		ms.nodes += w.nodes
		if w.err != nil {
			return false, w.err
		}
	} else {
		var wg sync.WaitGroup
		answers := make([][2]uint32, len(ms.workers))
		for i, w := range ms.workers {
			w.err, w.nodes = nil, 0
			wg.Go(func() {
				p, d := w.mid(s, k, infinity, infinity, 0)
				answers[i] = [2]uint32{p, d}
				if p == 0 || d == 0 {
					ms.stop.Store(true) // the others unwind
				}
			})
		}
		wg.Wait()
		var err error
		phi, delta = 1, 1
		for i, w := range ms.workers {
			ms.nodes += w.nodes
			if a := answers[i]; a[0] == 0 || a[1] == 0 {
				phi, delta = a[0], a[1]
			}
			if w.err != nil {
				err = w.err
			}
		}
		if phi != 0 && delta != 0 {
			return false, err
		}
	}
	m, _ := mates(attacker, phi, delta)
	return m, nil
}

// MinimalMate returns the length in plies of the shortest forced mate from s, trying the
// lengths of the right parity in increasing order up to maxPlies (iterative deepening on the
// mate length). Since each length is decided exactly, the first one proved is the minimum.
// found is false when there is no forced mate within maxPlies plies.
func (ms *MateSearch[S, M, K]) MinimalMate(s S, attacker bool, maxPlies int) (plies int, found bool, err error) {
	return ms.MinimalMateFrom(s, attacker, 0, maxPlies, nil)
}

// MinimalMateFrom is MinimalMate starting at minPlies (the caller knows there is no shorter
// mate), calling progress, if not nil, after each length is decided. On an error (such as
// ErrDeadline) the lengths already reported to progress stay decided.
func (ms *MateSearch[S, M, K]) MinimalMateFrom(s S, attacker bool, minPlies, maxPlies int, progress func(plies int, mate bool)) (plies int, found bool, err error) {
	first := minPlies
	if attacker == (first%2 == 0) {
		first++
	}
	for n := first; n <= maxPlies; n += 2 {
		if !ms.deadline.IsZero() && time.Now().After(ms.deadline) {
			return 0, false, ErrDeadline
		}
		ok, err := ms.Prove(s, attacker, n)
		if err != nil {
			return 0, false, err
		}
		if progress != nil {
			progress(n, ok)
		}
		if ok {
			return n, true, nil
		}
	}
	return 0, false, nil
}

// known returns what the table already says about a node: whether the attacker mates, and
// whether that is decided there at all.
func (ms *MateSearch[S, M, K]) known(s S, plies int, attacker bool) (mates_, decided bool) {
	k := ms.key(s, plies, attacker)
	phi, delta, ok := ms.tt.lookup(&k)
	if !ok {
		return false, false
	}
	return mates(attacker, phi, delta)
}

// firstMove returns the first move of s, in the game's order, after which the attacker's
// mate within plies plies is as wanted (Prove(child, !attacker, plies) == want), looking
// first among the children the table has already decided and only then searching the others,
// so that the proof and line walks do not search moves the table knows.
func (ms *MateSearch[S, M, K]) firstMove(s S, attacker bool, plies int, want bool) (m M, found bool, err error) {
	moves := ms.game.Moves(s, nil)
	// The undecided children are tried in the order of the table's numbers for the wanted
	// outcome (the least work first), so that a walk seldom disproves a child in vain.
	type candidate struct {
		m    M
		cost uint32
	}
	var rest []candidate
	for _, m := range moves {
		c := ms.game.Play(s, m)
		k := ms.key(c, plies, !attacker)
		phi, delta, ok := ms.tt.lookup(&k)
		if ok {
			if mates, decided := mates(!attacker, phi, delta); decided {
				if mates == want {
					return m, true, nil
				}
				continue
			}
		}
		cost := uint32(infinity)
		if ok {
			// The child's mover is the defender when the attacker moves here: the attacker's
			// work is its delta; and the mirror.
			if (!attacker) == want {
				cost = phi
			} else {
				cost = delta
			}
		}
		rest = append(rest, candidate{m, cost})
	}
	slices.SortStableFunc(rest, func(a, b candidate) int { return cmp.Compare(a.cost, b.cost) })
	for _, c := range rest {
		mates, err := ms.Prove(ms.game.Play(s, c.m), !attacker, plies)
		if err != nil || mates == want {
			return c.m, err == nil, err
		}
	}
	return m, false, nil
}

func (w *worker[S, M, K]) frame(ply int) *frame[S, M, K] {
	for len(w.frames) <= ply {
		w.frames = append(w.frames, new(frame[S, M, K]))
	}
	return w.frames[ply]
}

// halt tells whether the worker must unwind: an error, or another worker's answer.
func (w *worker[S, M, K]) halt() bool { return w.err != nil || w.ms.stop.Load() }

// mid is Nagai's multiple iterative deepening step: it searches node k (position s) until
// its phi reaches thPhi or its delta reaches thDelta, stores and returns its numbers.
func (w *worker[S, M, K]) mid(s S, k nodeKey[K], thPhi, thDelta uint32, ply int) (phi, delta uint32) {
	ms := w.ms
	tt := ms.tt
	if p, d, ok := tt.lookup(&k); ok && (p >= thPhi || d >= thDelta) {
		return p, d
	}
	f := w.frame(ply)
	f.moves = ms.game.Moves(s, f.moves[:0])
	w.nodes++
	// Counted over the searches of this MateSearch, not this one alone: a run of short
	// searches (MinimalMate's lengths, a few thousand nodes each) looks at the clock too.
	if (ms.nodes+w.nodes)%checkDeadlineEvery == 0 {
		if !ms.deadline.IsZero() && time.Now().After(ms.deadline) {
			w.err = ErrDeadline
		} else if ms.interrupted() {
			w.err = ErrInterrupted
		}
	}
	if ms.nodeLimit > 0 && ms.nodes+w.nodes >= ms.nodeLimit && w.err == nil {
		w.err = ErrNodeLimit
	}
	if p, d, ok := leaf(len(f.moves), &k); ok {
		tt.store(&k, p, d, 1)
		return p, d
	}
	start := w.nodes
	f.children, f.keys = f.children[:0], f.keys[:0]
	f.phi, f.delta = f.phi[:0], f.delta[:0]
	// With no plies left below, whether a child has a move decides it (see MoveTester). An
	// escape, the usual case, is neither stored nor ever searched again: it needs no key. A
	// mate goes on to evaluate, which stores it.
	lastPly := k.plies == 1 && ms.tester != nil
	for _, m := range f.moves {
		c := ms.game.Play(s, m)
		var ck nodeKey[K]
		var cp, cd uint32
		if lastPly && ms.tester.HasMoves(c) {
			w.nodes++
			ck.attacker = !k.attacker
			cp, cd, _ = leaf(1, &ck)
		} else {
			ck = ms.key(c, int(k.plies)-1, !k.attacker)
			cp, cd = w.evaluate(c, &ck, ply+1)
		}
		f.children = append(f.children, c)
		f.keys = append(f.keys, ck)
		f.phi = append(f.phi, cp)
		f.delta = append(f.delta, cd)
		if cd == 0 {
			break // a child lost for its mover decides this node: no need to see the others
		}
	}
	parallel := len(ms.workers) > 1
	if parallel {
		tt.enter(&k)
	}
	done := false
	for !w.halt() {
		// The node's phi is the least delta of its children (one child that fails for the
		// opponent suffices), its delta the sum of their phis (all must succeed for the
		// opponent). In a parallel search, at an attacker node a child that n other workers
		// are in looks n halves of its delta worse for the choice of the best (virtual
		// numbers), so that the workers spread over the attacker's moves. Only there: most of
		// a minimal-mate search disproves the lengths below the minimum, and a disproof needs
		// every attacker move refuted but one defence per defender node, so a second worker
		// sent to another defence mostly searches what no one needs. At a defender node the
		// workers follow the same best defence and part at the attacker node below it. On the
		// three-piece search to 12 plies two workers visited 16.8 to 17.6 million nodes so,
		// against 20.4 to 22.2 million with virtual numbers at every node and 16.4 million
		// for one worker (datasets/handicap/README.md, Two workers).
		//
		// The children's own numbers are not read again from the table at each step, though
		// the other workers may have moved them: the search of a child that has moved starts
		// from the table (mid's first lookup) and returns at once if the move crossed its
		// thresholds, so a stale number costs one step. Reading all of them again at every
		// step cost more than it saved: the full three-piece search took 34-39 s with two
		// workers so, 30-34 s without (back to back, quiet machine).
		best, best2, least := -1, -1, -1
		var bestEff, eff2 uint32 = infinity, infinity
		phi, delta = infinity, 0
		for i := range f.children {
			cd := f.delta[i]
			eff := cd
			if parallel && k.attacker && cd != 0 && cd < infinity && f.phi[i] != 0 {
				if in := tt.workersIn(&f.keys[i]); in > 0 {
					eff = uint32(min(uint64(cd)+uint64(in)*(uint64(cd)/2+1), infinity-1))
				}
			}
			if best < 0 || eff < bestEff {
				best2, eff2 = best, bestEff
				best, bestEff = i, eff
			} else if eff < eff2 {
				best2, eff2 = i, eff
			}
			if least < 0 || cd < phi {
				least = i
			}
			phi = min(phi, cd)
			delta = saturatingAdd(delta, f.phi[i])
		}
		if phi >= thPhi || delta >= thDelta {
			done = true
			break
		}
		if f.delta[best] >= thPhi {
			// The others are inside every child that can still fall below the threshold;
			// searching the best by the virtual numbers would return at once, again and again
			// (two workers can wait on each other so), so search the least by its own numbers.
			best = least
		}
		delta2 := uint32(infinity)
		if best2 >= 0 {
			delta2 = eff2
		}
		childThPhi := min(uint64(thDelta)+uint64(f.phi[best])-uint64(delta), infinity)
		// The 1+ε trick (Pawlewicz and Lew, "Improving depth-first PN-search: 1+ε trick",
		// Computers and Games 2006) lets the best child run until it is a quarter worse than
		// the second best, not just one worse, which cuts the switching between siblings:
		// 20% fewer nodes on the three-piece handicap to 12 plies.
		childThDelta := min(thPhi, uint32(min(uint64(delta2)+uint64(delta2)/4+1, infinity)))
		if parallel && bestEff != f.delta[best] {
			// The best child by the virtual numbers is not the least by its own: let it run
			// until its real delta passes the second best's too.
			childThDelta = min(thPhi, max(childThDelta, f.delta[best]+1))
		}
		f.phi[best], f.delta[best] = w.mid(f.children[best], f.keys[best], uint32(childThPhi), childThDelta, ply+1)
	}
	if parallel {
		tt.leave(&k)
	}
	if !done {
		return 1, 1 // the search is unwinding; store nothing half-done
	}
	tt.store(&k, phi, delta, uint32(min(w.nodes-start, 1<<32-1)))
	return phi, delta
}

// leaf decides the nodes that need no search: a mover without moves has lost; with no plies
// left, the defender has escaped and the attacker has failed.
func leaf[K comparable](moves int, k *nodeKey[K]) (phi, delta uint32, ok bool) {
	switch {
	case moves == 0, k.plies == 0 && k.attacker:
		return infinity, 0, true
	case k.plies == 0:
		return 0, infinity, true
	}
	return 0, 0, false
}

// evaluate returns a child's numbers: from the table if it is there, else decided at once if
// it is a leaf, else its initial numbers (df-pn+).
func (w *worker[S, M, K]) evaluate(c S, ck *nodeKey[K], ply int) (phi, delta uint32) {
	ms := w.ms
	if p, d, ok := ms.tt.lookup(ck); ok {
		return p, d
	}
	f := w.frame(ply)
	w.nodes++
	f.childMoves = ms.game.Moves(c, f.childMoves[:0])
	if p, d, ok := leaf(len(f.childMoves), ck); ok {
		if len(f.childMoves) == 0 {
			// A mover without moves (a mate) is stored: proof walks look for it. The far
			// more numerous nodes without plies left are not.
			ms.tt.store(ck, p, d, 1)
		}
		return p, d
	}
	if ms.know != nil {
		p, d := ms.know.Initial(c, f.childMoves, ck.attacker)
		return max(p, 1), max(d, 1)
	}
	return 1, uint32(len(f.childMoves))
}

// saturatingAdd adds proof numbers: a decided term (infinity) decides the sum, and a sum of
// undecided terms stays below infinity.
func saturatingAdd(a, b uint32) uint32 {
	if a == infinity || b == infinity {
		return infinity
	}
	return uint32(min(uint64(a)+uint64(b), infinity-1))
}

// EntryBytes returns the memory of one table entry: a memory budget divided by it gives the
// maxEntries of NewMateSearch.
func (ms *MateSearch[S, M, K]) EntryBytes() int { return EntryBytes[K]() }
