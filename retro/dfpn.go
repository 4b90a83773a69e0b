package retro

import (
	"errors"
	"fmt"
	"time"
)

// MoveGame is a game seen move by move, as a mate search and a proof checker need it. A
// position without legal moves is lost for the side to move (checkmate, and in shogi also
// stalemate); the game has no other end inside a mate search.
type MoveGame[S any, M comparable, K comparable] interface {
	// Code returns the position's exact code (see Game.Code).
	Code(s S) K
	// Moves appends the legal moves of s to dst and returns the extended slice.
	Moves(s S, dst []M) []M
	// Play returns the position after the legal move m.
	Play(s S, m M) S
}

// Knowledge is an optional extension of MoveGame: cheap knowledge of a position that df-pn+
// turns into initial proof and disproof numbers for a node not yet searched (Nagai and
// Kishimoto's df-pn+, as used by Kaneko et al. for shogi mating problems). The numbers are
// from the mover's view, as the search stores them: phi is how hard it is for the mover to
// reach its goal, delta how hard for the opponent. Both must be at least 1. Without it a
// node starts with phi 1 and delta its number of moves.
type Knowledge[S any, M comparable] interface {
	Initial(s S, moves []M, attackerToMove bool) (phi, delta uint32)
}

// ErrMemoryBudget is returned when the proofs a search must keep outgrow its table.
var ErrMemoryBudget = errors.New("retro: df-pn: the proofs alone outgrow the transposition table's budget")

// ErrDeadline is returned when a search passes the deadline set with SetDeadline.
var ErrDeadline = errors.New("retro: df-pn: the deadline passed")

// infinity is the proof or disproof number of a decided node. Sums of numbers saturate one
// below it, so that only a decided node ever reaches it.
const infinity = 1<<31 - 1

// ttKey is a node of the bounded search: a position, its role, and the plies left for the
// attacker to mate in. Keying by the plies left makes the searched graph acyclic (they fall by
// one per move), so df-pn's graph-history interaction cannot arise.
type ttKey[K comparable] struct {
	code     K
	plies    int16
	attacker bool
}

// ttEntry holds a node's numbers from the side to move's view (phi: how hard it is for the
// mover to reach its goal, delta: how hard for the opponent). phi = 0 means the mover
// succeeds (the attacker mates, or the defender escapes); delta = 0 means it fails.
type ttEntry struct{ phi, delta uint32 }

// frame is the scratch of one ply of the depth-first search.
type frame[S any, M comparable, K comparable] struct {
	moves       []M
	children    []S
	keys        []ttKey[K]
	phi, delta  []uint32
	childMoves  []M
	childStates []S
}

// MateSearch proves or disproves bounded forced mates with depth-first proof-number search
// (df-pn; Nagai, "Df-pn algorithm for searching AND/OR trees and its applications", PhD
// thesis, University of Tokyo, 2002; survey: Kishimoto, Winands, Müller and Saito,
// "Game-tree search using proof numbers: the first twenty years", ICGA Journal 35(3), 2012).
//
// The search works on nodes (position, role, plies left) and stores their proof and disproof
// numbers in a transposition table that is kept between calls, so iterative deepening on the
// mate length (MinimalMate) and the principal-variation and proof walks reuse earlier work.
// Children are initialised by mobility (df-pn+ style): a child whose mover has n moves starts
// with phi 1 and delta n, which orders the attacker towards replies that leave the defender
// few moves. A MateSearch is not safe for concurrent use.
type MateSearch[S any, M comparable, K comparable] struct {
	game       MoveGame[S, M, K]
	tt         map[ttKey[K]]ttEntry
	maxEntries int
	nodes      int64
	frames     []*frame[S, M, K]
	err        error
	deadline   time.Time
}

// SetDeadline makes searches stop with ErrDeadline once t has passed (the zero time: never).
// The table keeps what was decided, so a later search resumes the work.
func (ms *MateSearch[S, M, K]) SetDeadline(t time.Time) { ms.deadline = t }

// checkDeadlineEvery is how many generated nodes pass between looks at the clock: about a
// millisecond of search, so a deadline is met closely and the clock costs nothing.
const checkDeadlineEvery = 1 << 12

// NewMateSearch returns a search over g whose table holds at most maxEntries nodes (0: no
// limit). When the table is full, undecided nodes are forgotten first, then failed ones; the
// proofs are kept, since a proof is read back from them.
func NewMateSearch[S any, M comparable, K comparable](g MoveGame[S, M, K], maxEntries int) *MateSearch[S, M, K] {
	if maxEntries < 0 {
		panic(fmt.Sprintf("retro: NewMateSearch: maxEntries is %d, want 0 (no limit) or more", maxEntries))
	}
	return &MateSearch[S, M, K]{game: g, tt: make(map[ttKey[K]]ttEntry), maxEntries: maxEntries}
}

// Nodes returns the number of positions whose moves the search has generated so far.
func (ms *MateSearch[S, M, K]) Nodes() int64 { return ms.nodes }

// TableSize returns the number of nodes in the transposition table.
func (ms *MateSearch[S, M, K]) TableSize() int { return len(ms.tt) }

// key normalises the plies left by their parity: the attacker mates on its own move, so from
// an attacker node only an odd number of plies can end in mate, from a defender node an even
// one.
func (ms *MateSearch[S, M, K]) key(s S, plies int, attacker bool) ttKey[K] {
	if attacker == (plies%2 == 0) && plies > 0 {
		plies--
	}
	return ttKey[K]{ms.game.Code(s), int16(plies), attacker}
}

// Prove reports whether the attacker forces mate within plies plies from s; attacker tells
// whether the attacker is to move in s. The answer is exact: true comes with a proof in the
// table (see Proof), false means every attacker strategy lets the defender survive plies
// plies or end the game otherwise.
func (ms *MateSearch[S, M, K]) Prove(s S, attacker bool, plies int) (bool, error) {
	if plies < 0 || plies > 1<<15-1 {
		panic(fmt.Sprintf("retro: Prove: plies is %d, want 0..32767", plies))
	}
	ms.err = nil
	phi, _ := ms.mid(s, ms.key(s, plies, attacker), infinity, infinity, 0)
	if ms.err != nil {
		return false, ms.err
	}
	return (phi == 0) == attacker, nil
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
func (ms *MateSearch[S, M, K]) known(s S, plies int, attacker bool) (mates, decided bool) {
	k := ms.key(s, plies, attacker)
	e, ok := ms.tt[k]
	if !ok || e.phi != 0 && e.delta != 0 {
		return false, false
	}
	return isProof(k, e), true
}

// firstMove returns the first move of s, in the game's order, after which the attacker's
// mate within plies plies is as wanted (Prove(child, !attacker, plies) == want), looking
// first among the children the table has already decided and only then searching the others,
// so that the proof and line walks do not search moves the table knows.
func (ms *MateSearch[S, M, K]) firstMove(s S, attacker bool, plies int, want bool) (m M, found bool, err error) {
	moves := ms.game.Moves(s, nil)
	for _, m := range moves {
		if mates, decided := ms.known(ms.game.Play(s, m), plies, !attacker); decided && mates == want {
			return m, true, nil
		}
	}
	for _, m := range moves {
		mates, err := ms.Prove(ms.game.Play(s, m), !attacker, plies)
		if err != nil || mates == want {
			return m, err == nil, err
		}
	}
	return m, false, nil
}

func (ms *MateSearch[S, M, K]) frame(ply int) *frame[S, M, K] {
	for len(ms.frames) <= ply {
		ms.frames = append(ms.frames, new(frame[S, M, K]))
	}
	return ms.frames[ply]
}

// mid is Nagai's multiple iterative deepening step: it searches node k (position s) until
// its phi reaches thPhi or its delta reaches thDelta, stores and returns its numbers.
func (ms *MateSearch[S, M, K]) mid(s S, k ttKey[K], thPhi, thDelta uint32, ply int) (phi, delta uint32) {
	if e, ok := ms.tt[k]; ok && (e.phi >= thPhi || e.delta >= thDelta) {
		return e.phi, e.delta
	}
	f := ms.frame(ply)
	f.moves = ms.game.Moves(s, f.moves[:0])
	ms.nodes++
	if ms.nodes%checkDeadlineEvery == 0 && !ms.deadline.IsZero() && time.Now().After(ms.deadline) {
		ms.err = ErrDeadline
	}
	if e, decided := leaf(len(f.moves), k); decided {
		ms.store(k, e)
		return e.phi, e.delta
	}
	f.children, f.keys = f.children[:0], f.keys[:0]
	f.phi, f.delta = f.phi[:0], f.delta[:0]
	for _, m := range f.moves {
		c := ms.game.Play(s, m)
		ck := ms.key(c, int(k.plies)-1, !k.attacker)
		e := ms.evaluate(c, ck, ply+1)
		f.children = append(f.children, c)
		f.keys = append(f.keys, ck)
		f.phi = append(f.phi, e.phi)
		f.delta = append(f.delta, e.delta)
	}
	for ms.err == nil {
		// The node's phi is the least delta of its children (one child that fails for the
		// opponent suffices), its delta the sum of their phis (all must succeed for the
		// opponent).
		best, delta2 := -1, uint32(infinity)
		phi, delta = infinity, 0
		for i := range f.children {
			cd := f.delta[i]
			if best < 0 || cd < f.delta[best] {
				if best >= 0 {
					delta2 = min(delta2, f.delta[best])
				}
				best = i
			} else {
				delta2 = min(delta2, cd)
			}
			phi = min(phi, cd)
			delta = saturatingAdd(delta, f.phi[i])
		}
		if phi >= thPhi || delta >= thDelta {
			break
		}
		childThPhi := min(uint64(thDelta)+uint64(f.phi[best])-uint64(delta), infinity)
		// The 1+ε trick (Pawlewicz and Lew, "Improving depth-first PN-search: 1+ε trick",
		// Computers and Games 2006) lets the best child run until it is a quarter worse than
		// the second best, not just one worse, which cuts the switching between siblings:
		// 20% fewer nodes on the three-piece handicap to 12 plies.
		childThDelta := min(thPhi, uint32(min(uint64(delta2)+uint64(delta2)/4+1, infinity)))
		f.phi[best], f.delta[best] = ms.mid(f.children[best], f.keys[best], uint32(childThPhi), childThDelta, ply+1)
	}
	if ms.err != nil {
		return 1, 1 // the search is unwinding; store nothing half-done
	}
	ms.store(k, ttEntry{phi, delta})
	return phi, delta
}

// leaf decides the nodes that need no search: a mover without moves has lost; with no plies
// left, the defender has escaped and the attacker has failed.
func leaf[K comparable](moves int, k ttKey[K]) (ttEntry, bool) {
	switch {
	case moves == 0, k.plies == 0 && k.attacker:
		return ttEntry{infinity, 0}, true
	case k.plies == 0:
		return ttEntry{0, infinity}, true
	}
	return ttEntry{}, false
}

// evaluate returns a child's numbers: from the table if it is there, else decided at once if
// it is a leaf, else its mobility initialisation.
func (ms *MateSearch[S, M, K]) evaluate(c S, ck ttKey[K], ply int) ttEntry {
	if e, ok := ms.tt[ck]; ok {
		return e
	}
	f := ms.frame(ply)
	f.childMoves = ms.game.Moves(c, f.childMoves[:0])
	ms.nodes++
	if e, decided := leaf(len(f.childMoves), ck); decided {
		return e
	}
	if kn, ok := ms.game.(Knowledge[S, M]); ok {
		phi, delta := kn.Initial(c, f.childMoves, ck.attacker)
		return ttEntry{max(phi, 1), max(delta, 1)}
	}
	return ttEntry{1, uint32(len(f.childMoves))}
}

// store records a node's numbers. When the table is over budget it first forgets the
// undecided nodes, then, if that is not enough, the nodes where the attacker failed; proofs
// stay, and if they alone fill the budget the search stops with ErrMemoryBudget.
func (ms *MateSearch[S, M, K]) store(k ttKey[K], e ttEntry) {
	if ms.maxEntries > 0 && len(ms.tt) >= ms.maxEntries {
		if _, ok := ms.tt[k]; !ok {
			ms.collect()
		}
		if len(ms.tt) >= ms.maxEntries {
			ms.err = ErrMemoryBudget
			return
		}
	}
	ms.tt[k] = e
}

// collect frees at least a quarter of the table if it can.
func (ms *MateSearch[S, M, K]) collect() {
	for k, e := range ms.tt {
		if e.phi != 0 && e.delta != 0 {
			delete(ms.tt, k)
		}
	}
	if len(ms.tt) < ms.maxEntries*3/4 {
		return
	}
	for k, e := range ms.tt {
		if !isProof(k, e) {
			delete(ms.tt, k)
		}
	}
}

// isProof reports whether the entry says the attacker mates: phi 0 at an attacker node,
// delta 0 (the defender fails) at a defender node.
func isProof[K comparable](k ttKey[K], e ttEntry) bool {
	if k.attacker {
		return e.phi == 0
	}
	return e.delta == 0
}

// saturatingAdd adds proof numbers: a decided term (infinity) decides the sum, and a sum of
// undecided terms stays below infinity.
func saturatingAdd(a, b uint32) uint32 {
	if a == infinity || b == infinity {
		return infinity
	}
	return uint32(min(uint64(a)+uint64(b), infinity-1))
}
