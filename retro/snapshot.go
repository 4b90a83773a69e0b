package retro

import (
	"errors"
	"hash/maphash"
	"iter"
)

// ErrNodeLimit is returned when a search reaches the node count set with SetNodeLimit.
var ErrNodeLimit = errors.New("retro: df-pn: the node limit was reached")

// ErrInterrupted is returned when the channel set with SetInterrupt is closed.
var ErrInterrupted = errors.New("retro: df-pn: interrupted")

// TableEntry is one stored node of a MateSearch's table, exported so that a long search can
// be saved to disk and resumed (All, Restore). Phi and Delta are from the side to move's
// view, as the table keeps them; Work is the size of the node's last search.
type TableEntry[K comparable] struct {
	Board      K
	Hash       uint64
	Hand       Hand
	Phi, Delta uint32
	Work       uint32
	Plies      int16
	Attacker   bool
}

// All yields every node in the table without copying it, so that a checkpoint of tens of
// millions of nodes is written as the table is read. It must not be used while a search
// runs.
func (ms *MateSearch[S, M, K]) All() iter.Seq[TableEntry[K]] {
	return func(yield func(TableEntry[K]) bool) {
		for i := range ms.tt.entries {
			e := &ms.tt.entries[i]
			if !e.used {
				continue
			}
			if !yield(TableEntry[K]{Board: e.board, Hash: e.hash, Hand: e.hand, Phi: e.phi,
				Delta: e.delta, Work: e.work, Plies: e.plies, Attacker: e.attacker}) {
				return
			}
		}
	}
}

// Restore stores the given entries (from All) in the table, and adds nodes to the node
// count, so that a search resumes where a saved one stopped. A game without HandRules hashes
// its codes with a seed of this process, so their hashes are computed again here; a
// HandRules's hashes are its own and kept. A table smaller than the saved one keeps the
// larger subtrees, as it does in a search.
func (ms *MateSearch[S, M, K]) Restore(entries []TableEntry[K], nodes int64) {
	t := ms.tt
	ms.Reserve(len(entries))
	for _, e := range entries {
		k := nodeKey[K]{board: e.Board, hash: e.Hash, hand: e.Hand, plies: e.Plies, attacker: e.Attacker}
		if ms.hands == nil {
			k.hash = maphash.Comparable(t.seed, e.Board)
		}
		phi, delta, work := e.Phi, e.Delta, e.Work
		t.update(&k, func(n *entry[K], _ bool) { n.phi, n.delta, n.work = phi, delta, work }, phi, delta)
	}
	ms.nodes += nodes
}

// Reserve grows the table, within its limit, to hold n entries at the load a search keeps, so
// that a table restored in parts (Restore, chunk by chunk) is not rehashed as it fills.
func (ms *MateSearch[S, M, K]) Reserve(n int) {
	t := ms.tt
	doublings := 0
	for size := len(t.entries); t.mayHold(2*size) && n > size/2; size *= 2 {
		doublings++
	}
	if doublings > 0 {
		t.resizeBy(doublings)
	}
}

// Clear empties the table and sets Nodes to 0, keeping the table's size: the search then
// goes as a new one of that size would, and one that runs on a clock (the engine's root mate
// search) neither allocates nor rehashes as its table fills again.
func (ms *MateSearch[S, M, K]) Clear() {
	ms.tt.clear()
	ms.nodes = 0
}

// SetNodeLimit makes searches stop with ErrNodeLimit once Nodes reaches n (0: no limit), so
// that a search can be stopped at a chosen point (with several workers, about there).
func (ms *MateSearch[S, M, K]) SetNodeLimit(n int64) { ms.nodeLimit = n }

// SetInterrupt makes searches stop with ErrInterrupted soon after c is closed (nil: never).
func (ms *MateSearch[S, M, K]) SetInterrupt(c <-chan struct{}) { ms.interrupt = c }

// interrupted reports whether the interrupt channel is closed.
func (ms *MateSearch[S, M, K]) interrupted() bool {
	if ms.interrupt == nil {
		return false
	}
	select {
	case <-ms.interrupt:
		return true
	default:
		return false
	}
}
