package retro

import "github.com/shogilab/shogilab/outcome"

// Solution holds each node's value for the side to move and its distance: the number of
// plies to the end of the game under optimal play, where the winner hurries and the loser
// delays. Draws and unknowns have distance −1.
type Solution struct {
	Value []outcome.Value
	Dist  []int32

	remaining []int32 // per node: children not yet known to be wins for their mover
	queue     []int32
}

// Solve labels every node of the graph by retrograde analysis and returns the solution,
// reusing sol's memory when sol is not nil.
//
// The method is the classical backward induction on a cyclic game graph (Ströhlein 1970;
// Thompson 1986; see also Gasser, "Solving Nine Men's Morris", 1996): terminal positions,
// and positions without moves (losses), seed a first-in first-out queue; a position with a
// child lost for its mover is a win, one more ply than the fastest such child; a position
// all of whose children are won for their movers is a loss, one more ply than the slowest.
// Because the queue releases nodes in order of distance, the first lost child found gives
// the shortest win and the last won child the longest loss. What the propagation never
// reaches is a draw: neither side can force an end. With a ply bound, an undecided node from
// which an unexpanded node is reachable through undecided nodes is outcome.Unknown instead, since
// its fate may lie beyond the horizon; every other label is exact.
func (gr *Graph[S, K]) Solve(sol *Solution) *Solution {
	if sol == nil {
		sol = new(Solution)
	}
	n := len(gr.states)
	sol.Value = resizeValues(sol.Value, n)
	sol.Dist = resize(sol.Dist, n)
	sol.remaining = resize(sol.remaining, n)
	queue := sol.queue[:0]
	for i := range n {
		sol.Value[i], sol.Dist[i] = outcome.Unknown, -1
		sol.remaining[i] = gr.succAt[i+1] - gr.succAt[i]
		switch v := gr.terminal[i]; {
		case v != outcome.Unknown:
			sol.Value[i], sol.Dist[i] = v, 0
			if v != outcome.Draw {
				queue = append(queue, int32(i))
			}
		case int32(i) < gr.expanded && sol.remaining[i] == 0:
			sol.Value[i], sol.Dist[i] = outcome.Loss, 0
			queue = append(queue, int32(i))
		}
	}
	for head := 0; head < len(queue); head++ {
		c := queue[head]
		won := sol.Value[c] == outcome.Win
		for _, p := range gr.Parents(int(c)) {
			if sol.Value[p] != outcome.Unknown {
				continue
			}
			if won {
				if sol.remaining[p]--; sol.remaining[p] > 0 {
					continue
				}
				sol.Value[p] = outcome.Loss
			} else {
				sol.Value[p] = outcome.Win
			}
			sol.Dist[p] = sol.Dist[c] + 1
			queue = append(queue, p)
		}
	}
	sol.queue = queue
	gr.markUndecided(sol)
	return sol
}

// markUndecided turns the nodes propagation left undecided into draws, except those that
// reach an unexpanded node through undecided nodes, which stay outcome.Unknown.
func (gr *Graph[S, K]) markUndecided(sol *Solution) {
	queue := sol.queue[:0]
	for i := gr.expanded; i < int32(len(gr.states)); i++ {
		if sol.Value[i] == outcome.Unknown {
			queue = append(queue, i)
		}
	}
	// Distance −2 marks, for the walk back from the horizon, "reaches an unexpanded node".
	for _, i := range queue {
		sol.Dist[i] = -2
	}
	for head := 0; head < len(queue); head++ {
		for _, p := range gr.Parents(int(queue[head])) {
			if sol.Value[p] == outcome.Unknown && sol.Dist[p] != -2 {
				sol.Dist[p] = -2
				queue = append(queue, p)
			}
		}
	}
	for i, v := range sol.Value {
		switch {
		case v != outcome.Unknown:
		case sol.Dist[i] == -2:
			sol.Dist[i] = -1
		default:
			sol.Value[i] = outcome.Draw
		}
	}
	sol.queue = queue
}

func resizeValues(s []outcome.Value, n int) []outcome.Value {
	if cap(s) < n {
		return make([]outcome.Value, n)
	}
	return s[:n]
}

// Best returns the position in Children(i) of an optimal move from node i, and false if
// node i has no children or an outcome.Unknown value. A win moves to the lost child with the least
// distance; a loss to the won child with the greatest distance (the longest resistance); a
// draw to a drawn child (never to a child won for the opponent). Ties go to the earliest
// child, so the choice is deterministic.
func (gr *Graph[S, K]) Best(sol *Solution, i int) (slot int, ok bool) {
	want := sol.Value[i].Negate()
	if want == outcome.Unknown {
		return 0, false
	}
	slot = -1
	for k, c := range gr.Children(i) {
		if sol.Value[c] != want {
			continue
		}
		better := slot < 0 ||
			want == outcome.Loss && sol.Dist[c] < sol.Dist[gr.Children(i)[slot]] ||
			want == outcome.Win && sol.Dist[c] > sol.Dist[gr.Children(i)[slot]]
		if better {
			slot = k
		}
	}
	return slot, slot >= 0
}

// Line returns an optimal line of play from node i: the nodes visited, node i first,
// following Best until the game ends, Best fails, or maxPlies moves were made (a drawn line
// would go on forever).
func (gr *Graph[S, K]) Line(sol *Solution, i, maxPlies int) []int {
	line := []int{i}
	for range maxPlies {
		slot, ok := gr.Best(sol, i)
		if !ok {
			break
		}
		i = int(gr.Children(i)[slot])
		line = append(line, i)
	}
	return line
}
