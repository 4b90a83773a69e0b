// Package retrotest is, for tests, a second solver to hold package retro to: value
// iteration to a fixed point straight from the definitions, over a graph given as lists of
// children. It shares nothing with retro but its Value type, and is written for the reader,
// not for speed.
package retrotest

import "github.com/shogilab/shogilab/outcome"

// ValueIteration solves the game whose node s has the children children[s], a node in
// terminal being lost for the side to move there (terminal may be nil). It recomputes every
// node from its children until nothing changes: a terminal node or one without children is
// lost in 0; a node with a lost child is won one ply longer than the shortest such; a node
// whose children are all won is lost one ply longer than the longest; what never settles is
// a draw (distance −1).
func ValueIteration(children [][]int, terminal []bool) (val []outcome.Value, dist []int32) {
	n := len(children)
	val, dist = make([]outcome.Value, n), make([]int32, n)
	lost := func(s int) bool { return len(children[s]) == 0 || terminal != nil && terminal[s] }
	for s := range n {
		dist[s] = -1
		if lost(s) {
			val[s], dist[s] = outcome.Loss, 0
		}
	}
	for changed := true; changed; {
		changed = false
		for s, kids := range children {
			if lost(s) {
				continue
			}
			v, d := outcome.Unknown, int32(-1)
			allWon, longest := true, int32(0)
			for _, c := range kids {
				if val[c] == outcome.Loss && (v == outcome.Unknown || dist[c]+1 < d) {
					v, d = outcome.Win, dist[c]+1
				}
				allWon = allWon && val[c] == outcome.Win
				longest = max(longest, dist[c]+1)
			}
			if v == outcome.Unknown && allWon {
				v, d = outcome.Loss, longest
			}
			if v != val[s] || d != dist[s] {
				val[s], dist[s], changed = v, d, true
			}
		}
	}
	for s := range val {
		if val[s] == outcome.Unknown {
			val[s] = outcome.Draw
		}
	}
	return val, dist
}
