package retro

import (
	"fmt"

	"github.com/shogilab/shogilab/outcome"
)

// Options bound an enumeration.
type Options struct {
	// MaxPly, if positive, stops the enumeration at positions MaxPly plies from a root: they
	// are stored but not expanded, and positions whose value hinges on them stay outcome.Unknown.
	MaxPly int
}

// Graph is the game graph reachable from a set of roots: every position once (by exact code),
// numbered in breadth-first order so that the roots come first and each layer of equal
// distance from the roots is contiguous, with successor and predecessor lists in compressed
// form (one flat slice of node numbers and a start offset per node).
//
// A Graph can be rebuilt with Build, reusing its memory; solving many small games (Bushi
// shogi's 700,160 layouts) then allocates almost nothing.
type Graph[S any, K comparable] struct {
	game     Rules[S, K]
	dense    DenseRules[S] // game, if it numbers its positions densely; else nil
	states   []S
	terminal []outcome.Value // outcome.Unknown where not terminal
	layerEnd []int32         // layer d is nodes [layerEnd[d-1], layerEnd[d])
	expanded int32           // nodes [0, expanded) had their children generated
	succ     []int32
	succAt   []int32 // node i's children are succ[succAt[i]:succAt[i+1]]
	pred     []int32
	predAt   []int32
	index    map[K]int32
	denseIdx []int32 // code → node+1, 0 for absent
	scratch  []S
	fill     []int32
}

// Enumerate builds the graph of positions reachable from roots. See Graph.Build.
func Enumerate[S any, K comparable](g Rules[S, K], roots []S, opt Options) *Graph[S, K] {
	gr := new(Graph[S, K])
	gr.Build(g, roots, opt)
	return gr
}

// Build replaces the graph with the positions reachable from roots in g, walking breadth
// first and deduplicating by exact code. Terminal positions are not expanded. Roots that
// repeat a code are stored once.
func (gr *Graph[S, K]) Build(g Rules[S, K], roots []S, opt Options) {
	if opt.MaxPly < 0 {
		panic(fmt.Sprintf("retro: Options.MaxPly is %d, want 0 (no bound) or more", opt.MaxPly))
	}
	gr.reset(g)
	for _, r := range roots {
		gr.add(r)
	}
	gr.succAt = append(gr.succAt, 0)
	gr.layerEnd = append(gr.layerEnd, int32(len(gr.states)))
	for d := 0; ; d++ {
		start, end := gr.layerStart(d), gr.layerEnd[d]
		if start == end {
			gr.layerEnd = gr.layerEnd[:d] // the walk ran out of new positions
			break
		}
		if opt.MaxPly > 0 && d == opt.MaxPly {
			break // layer MaxPly is stored but not expanded
		}
		for i := start; i < end; i++ {
			if gr.terminal[i] == outcome.Unknown {
				gr.scratch = g.Children(gr.states[i], gr.scratch[:0])
				for _, c := range gr.scratch {
					gr.succ = append(gr.succ, gr.add(c))
				}
			}
			gr.succAt = append(gr.succAt, int32(len(gr.succ)))
		}
		gr.expanded = end
		gr.layerEnd = append(gr.layerEnd, int32(len(gr.states)))
	}
	for range int32(len(gr.states)) - gr.expanded {
		gr.succAt = append(gr.succAt, int32(len(gr.succ)))
	}
	gr.buildPredecessors()
}

func (gr *Graph[S, K]) layerStart(d int) int32 {
	if d == 0 {
		return 0
	}
	return gr.layerEnd[d-1]
}

func (gr *Graph[S, K]) reset(g Rules[S, K]) {
	gr.game = g
	gr.dense, _ = g.(DenseRules[S])
	gr.states = gr.states[:0]
	gr.terminal = gr.terminal[:0]
	gr.layerEnd = gr.layerEnd[:0]
	gr.expanded = 0
	gr.succ = gr.succ[:0]
	gr.succAt = gr.succAt[:0]
	if gr.dense != nil {
		n := gr.dense.CodeSpace()
		if cap(gr.denseIdx) < n {
			gr.denseIdx = make([]int32, n)
		}
		gr.denseIdx = gr.denseIdx[:n]
		clear(gr.denseIdx)
		return
	}
	if gr.index == nil {
		gr.index = make(map[K]int32)
	}
	clear(gr.index)
}

// add returns the node of s, storing s as a new node if its code is new.
func (gr *Graph[S, K]) add(s S) int32 {
	node := int32(len(gr.states))
	if gr.dense != nil {
		c := gr.dense.DenseCode(s)
		if n := gr.denseIdx[c]; n != 0 {
			return n - 1
		}
		gr.denseIdx[c] = node + 1
	} else {
		k := gr.game.Code(s)
		if n, ok := gr.index[k]; ok {
			return n
		}
		gr.index[k] = node
	}
	gr.states = append(gr.states, s)
	v, over := gr.game.Terminal(s)
	switch {
	case !over:
		v = outcome.Unknown
	case v == outcome.Unknown:
		panic(fmt.Sprintf("retro: Terminal reported the game over with value %v", v))
	}
	gr.terminal = append(gr.terminal, v)
	return node
}

// buildPredecessors inverts the successor lists by counting sort, keeping multiplicity: a
// node reached by two moves of one parent lists that parent twice, matching its two
// successor entries.
func (gr *Graph[S, K]) buildPredecessors() {
	n := len(gr.states)
	gr.predAt = resize(gr.predAt, n+1)
	clear(gr.predAt)
	for _, c := range gr.succ {
		gr.predAt[c+1]++
	}
	for i := range n {
		gr.predAt[i+1] += gr.predAt[i]
	}
	gr.pred = resize(gr.pred, len(gr.succ))
	gr.fill = resize(gr.fill, n)
	fill := gr.fill
	clear(fill)
	for p := range int32(n) {
		for _, c := range gr.succ[gr.succAt[p]:gr.succAt[p+1]] {
			gr.pred[gr.predAt[c]+fill[c]] = p
			fill[c]++
		}
	}
}

func resize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// Len returns the number of positions.
func (gr *Graph[S, K]) Len() int { return len(gr.states) }

// Edges returns the number of moves stored (successor entries).
func (gr *Graph[S, K]) Edges() int { return len(gr.succ) }

// State returns position number i.
func (gr *Graph[S, K]) State(i int) S { return gr.states[i] }

// Children returns the nodes after each move of node i, in the order the game's Children
// gave them; empty for terminal and unexpanded nodes. The slice aliases the graph.
func (gr *Graph[S, K]) Children(i int) []int32 { return gr.succ[gr.succAt[i]:gr.succAt[i+1]] }

// Parents returns the nodes with a move to node i, once per such move. The slice aliases the
// graph.
func (gr *Graph[S, K]) Parents(i int) []int32 { return gr.pred[gr.predAt[i]:gr.predAt[i+1]] }

// Expanded reports whether node i's children were generated (false beyond a ply bound).
func (gr *Graph[S, K]) Expanded(i int) bool { return int32(i) < gr.expanded }

// Terminal returns node i's value if the game is over there.
func (gr *Graph[S, K]) Terminal(i int) (outcome.Value, bool) {
	return gr.terminal[i], gr.terminal[i] != outcome.Unknown
}

// Layers returns the number of positions at each distance from the roots: element d counts
// the positions first reached after d plies.
func (gr *Graph[S, K]) Layers() []int {
	counts := make([]int, len(gr.layerEnd))
	start := int32(0)
	for d, end := range gr.layerEnd {
		counts[d] = int(end - start)
		start = end
	}
	return counts
}

// Find returns the node of position s, if the graph holds it.
func (gr *Graph[S, K]) Find(s S) (int, bool) {
	if gr.dense != nil {
		n := gr.denseIdx[gr.dense.DenseCode(s)]
		return int(n) - 1, n != 0
	}
	n, ok := gr.index[gr.game.Code(s)]
	return int(n), ok
}
