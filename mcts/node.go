package mcts

import (
	"cmp"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/shogilab/shogilab/outcome"
)

// node is one position of the tree. The children of a node lie side by side
// in the pool, so a node needs only the index of the first; the move and the
// prior that lead to a node are kept in the node itself.
//
// counts, valueSum and meta are shared between search goroutines and touched
// only atomically. children, move and prior are written by the one goroutine
// that expands the parent, before it publishes the expansion with meta's
// Store; readers load meta first (KataGo's cpp/search/searchnode.h publishes
// children the same way).
type node struct {
	counts   atomic.Uint64 // completed visits << 32 | playouts in flight (virtual losses)
	valueSum atomic.Int64  // sum of backed-up values × valueScale, for the player who moved into this node
	meta     atomic.Uint32 // expansion state, proof and child count; see packMeta
	children uint32        // pool index of the first child
	move     Move          // the move from the parent to this node
	prior    float32       // the parent's prior of move
}

// NodeBytes is the size of one tree node; MaxNodes × NodeBytes is the memory
// the node pool takes (an engine's hash-size option converts with it).
const NodeBytes = int(unsafe.Sizeof(node{}))

// valueScale turns values in [-1, 1] into fixed point, so that backing up is
// one atomic add and sums are exact and independent of the order of adds.
// 2^24 keeps float32 values exact and 2^32 visits × 2^24 within int64.
const valueScale = 1 << 24

const (
	oneVisit  = 1 << 32 // counts: one completed visit
	inFlight  = 1       // counts: one playout in flight
	countMask = 1<<32 - 1
)

// Expansion states. They only move forward, unexpanded → expanding →
// expanded, except that a goroutine that finds the pool full steps its node
// back to unexpanded (and the search then stops).
const (
	unexpanded = 0
	expanding  = 1
	expanded   = 2
)

// meta layout: bits 0-1 expansion state, 2-3 proof status, 4-15 proof plies,
// 16-31 number of children.
const (
	stateMask      = 3
	outcomeShift   = 2
	pliesShift     = 4
	proofPliesBits = 12
	proofMask      = (1<<(2+proofPliesBits) - 1) << outcomeShift
	childShift     = 16
)

// MaxChildren is the most legal moves a position may have (the child count
// has 16 bits of a node's meta word); the search panics on more.
const MaxChildren = 1<<16 - 1

func packMeta(state uint32, p Proof, children int) uint32 {
	return state | packProof(p) | uint32(children)<<childShift
}

func packProof(p Proof) uint32 {
	plies := min(max(p.Plies, 0), MaxProofPlies)
	return uint32(p.Outcome)<<outcomeShift | uint32(plies)<<pliesShift
}

func metaState(m uint32) uint32          { return m & stateMask }
func metaOutcome(m uint32) outcome.Value { return outcome.Value(m >> outcomeShift & 3) }
func metaChildren(m uint32) uint32 {
	return m >> childShift
}
func metaProof(m uint32) Proof {
	return Proof{Outcome: metaOutcome(m), Plies: int(m >> pliesShift & MaxProofPlies)}
}

// setProof records p unless the node is already proven; it reports whether
// the node is proven afterwards. Proofs never change once set.
func (n *node) setProof(p Proof) bool {
	for {
		m := n.meta.Load()
		if metaOutcome(m) != outcome.Unknown {
			return true
		}
		if n.meta.CompareAndSwap(m, m&^proofMask|packProof(p)) {
			return true
		}
	}
}

// init makes n a fresh leaf reached by move with the given prior. Plain
// writes suffice (atomic stores cost a full barrier each): no other
// goroutine sees n before its parent's expansion is published.
func (n *node) init(move Move, prior float32) {
	*n = node{move: move, prior: prior}
}

// copyFrom copies src into n; used only while no search runs.
func (n *node) copyFrom(src *node) {
	n.counts.Store(src.counts.Load())
	n.valueSum.Store(src.valueSum.Load())
	n.meta.Store(src.meta.Load())
	n.children = src.children
	n.move = src.move
	n.prior = src.prior
}

// visits is the number of completed playouts through n.
func (n *node) visits() uint32 { return uint32(n.counts.Load() >> 32) }

// q is the mean value of n for the player who moved into it (0 if unvisited).
func (n *node) q() float32 {
	v := n.visits()
	if v == 0 {
		return 0
	}
	return float32(float64(n.valueSum.Load()) / valueScale / float64(v))
}

// pool is a fixed arena of nodes. Node 0 is the root; children are handed
// out in blocks from a bump pointer. Nothing is freed during a search; tree
// reuse makes the kept subtree's root node 0 (moveRoot) and, once the pool is
// more than half full, compacts the subtree to the front (keepSubtree).
type pool struct {
	nodes []node
	// minimax[i], when kept (Config.MinimaxWeight), is node i's implicit minimax value
	// for the player who moved into it, as float32 bits; unknownMinimax before any
	// leaf below the node, or the node itself, was evaluated. It lies beside the nodes
	// rather than in them so that a node stays 32 bytes when it is not kept.
	minimax []atomic.Uint32
	// used is written by every expansion; on a line of its own it does not
	// evict the nodes slice header that every playout reads.
	_    cacheLinePad
	used atomic.Uint32
	_    cacheLinePad
}

// allocate gives the pool room for size nodes and a fresh root.
func (p *pool) allocate(size int) {
	p.nodes = make([]node, size)
	p.reset()
}

// reset empties the pool, leaving a fresh root.
func (p *pool) reset() {
	p.nodes[0].init(0, 1)
	if p.minimax != nil {
		p.minimax[0].Store(unknownMinimax)
	}
	p.used.Store(1)
}

// unknownMinimax is the minimax value of a node below which nothing was evaluated: a NaN,
// which every comparison skips.
const unknownMinimax = 0x7FC00001

// alloc reserves n consecutive nodes, or reports false when they do not fit.
func (p *pool) alloc(n int) (first uint32, ok bool) {
	for {
		used := p.used.Load()
		if int(used)+n > len(p.nodes) {
			return 0, false
		}
		if p.used.CompareAndSwap(used, used+uint32(n)) {
			return used, true
		}
	}
}

// moveRoot makes node r the root without moving anything else: node r is copied into
// node 0 and its children stay where they are. Everything outside r's subtree stays in the
// pool too, unreachable, until a later move compacts it (descend). The tree is the same as
// after keepSubtree, node for node in the same order; only the indices differ.
func (p *pool) moveRoot(r uint32) {
	var root node
	root.copyFrom(&p.nodes[r])
	p.nodes[0].copyFrom(&root)
	if p.minimax != nil {
		p.minimax[0].Store(p.minimax[r].Load())
	}
	p.nodes[0].move, p.nodes[0].prior = 0, 1
}

// roomy reports whether at least half the pool is free: then a move's tree reuse need not
// compact it (descend).
func (p *pool) roomy() bool { return int(p.used.Load()) <= len(p.nodes)/2 }

// keepSubtree makes node r the root and drops everything outside its
// subtree, moving the kept child blocks to the front of the pool. The blocks
// are disjoint, so sliding them down in order of position never overwrites a
// block not yet moved.
//
// Tree reuse runs on the clock of the search that follows (Limits.Start), so
// it is kept to a walk and a few memory moves: a block moves with one copy,
// which no search reads meanwhile, and a child index is translated by a
// binary search of the sorted blocks rather than through a map.
func (p *pool) keepSubtree(r uint32) {
	type block struct{ start, count, to uint32 }
	var blocks []block
	// A walk over whole child blocks: each is scanned in order (one cache miss where it
	// starts), and only the children with children of their own are visited.
	children := func(i uint32) (block, bool) {
		m := p.nodes[i].meta.Load()
		return block{start: p.nodes[i].children, count: metaChildren(m)}, metaState(m) == expanded && metaChildren(m) > 0
	}
	if b, ok := children(r); ok {
		blocks = append(blocks, b)
	}
	for k := 0; k < len(blocks); k++ {
		b := blocks[k]
		for c := b.start; c < b.start+b.count; c++ {
			if cb, ok := children(c); ok {
				blocks = append(blocks, cb)
			}
		}
	}
	slices.SortFunc(blocks, func(a, b block) int { return cmp.Compare(a.start, b.start) })

	// Node 0 first, while node r is where it was; no block moves into node 0, and its
	// children index is translated below with every other node's.
	p.moveRoot(r)
	next := uint32(1)
	for i := range blocks {
		b := &blocks[i]
		b.to = next
		copy(p.nodes[b.to:b.to+b.count], p.nodes[b.start:b.start+b.count])
		if p.minimax != nil {
			copy(p.minimax[b.to:b.to+b.count], p.minimax[b.start:b.start+b.count])
		}
		next += b.count
	}
	for i := range next {
		n := &p.nodes[i]
		if m := n.meta.Load(); metaState(m) == expanded && metaChildren(m) > 0 {
			j, _ := slices.BinarySearchFunc(blocks, n.children, func(b block, start uint32) int { return cmp.Compare(b.start, start) })
			n.children = blocks[j].to
		}
	}
	p.used.Store(next)
}
