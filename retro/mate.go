package retro

import "github.com/shogilab/shogilab/outcome"

// MateSolution is the bounded mate labelling of a graph: for each node, the number of plies in
// which the attacker forces mate from it, or −1 where the defender escapes. Where the attacker
// mates, Dist is the minimal forced mate (the attacker hurries) against the longest defence
// (the defender delays).
type MateSolution struct {
	Dist []int32
	// AttackerToMove[i] tells the role of the side to move at node i.
	AttackerToMove []bool

	remaining []int32
	queue     []int32
}

// Mated reports whether the attacker forces mate from node i, and in how many plies.
func (ms *MateSolution) Mated(i int) (plies int, ok bool) { return int(ms.Dist[i]), ms.Dist[i] >= 0 }

// SolveMate labels the graph for a bounded mate search: the attacker must mate, the defender
// only needs to survive. attackerFirst gives the role of the side to move at the roots; roles
// then alternate with the BFS layer, since every move passes the turn (in an alternating game
// every path to a node has the parity of its layer).
//
// The rules of the labelling: a defender node that is terminal and lost for its mover, or
// expanded and without moves, is mated (distance 0); any other end at a defender node and
// every end at an attacker node is an escape, since the attacker must mate; so is every
// unexpanded node beyond the ply bound, since the defender may survive past the horizon.
// Propagation is the same first-in first-out backward induction as Solve, with roles
// instead of the symmetric win/loss: an attacker node is mated one ply after its fastest mated child, a defender node
// one ply after its slowest child once every child is mated. Cycles never yield a mate, so
// repetition needs no rule here: along a mating line chosen by these labels the distance falls
// by one each ply, so no position repeats and no repetition rule can fire.
//
// Every label is a real forced mate (its tree uses only moves of the graph), so it bounds
// the minimal mate from above; with Options.MaxPly = N it is exact for a node first reached at
// ply d whenever the minimal mate takes at most N − d plies, since that mate's whole tree is
// then in the graph. So at the root: a label L ≤ N is exact, −1 proves that there is no mate
// within N plies, and a label L > N leaves the minimum between N + 1 and L (of L's parity).
// This needs the game's Terminal to recognise positions without moves, since those at layer
// N are never expanded.
func (gr *Graph[S, K]) SolveMate(attackerFirst bool, sol *MateSolution) *MateSolution {
	if sol == nil {
		sol = new(MateSolution)
	}
	n := len(gr.states)
	sol.Dist = resize(sol.Dist, n)
	sol.remaining = resize(sol.remaining, n)
	if cap(sol.AttackerToMove) < n {
		sol.AttackerToMove = make([]bool, n)
	}
	sol.AttackerToMove = sol.AttackerToMove[:n]
	queue := sol.queue[:0]
	start := int32(0)
	for d, end := range gr.layerEnd {
		attacker := attackerFirst == (d%2 == 0)
		for i := start; i < end; i++ {
			sol.AttackerToMove[i] = attacker
		}
		start = end
	}
	for i := range n {
		sol.Dist[i] = -1
		sol.remaining[i] = gr.succAt[i+1] - gr.succAt[i]
		if sol.AttackerToMove[i] {
			continue
		}
		v := gr.terminal[i]
		if v == outcome.Loss || v == outcome.Unknown && int32(i) < gr.expanded && sol.remaining[i] == 0 {
			sol.Dist[i] = 0
			queue = append(queue, int32(i))
		}
	}
	for head := 0; head < len(queue); head++ {
		c := queue[head]
		for _, p := range gr.Parents(int(c)) {
			if sol.Dist[p] >= 0 {
				continue
			}
			if !sol.AttackerToMove[p] {
				if sol.remaining[p]--; sol.remaining[p] > 0 {
					continue
				}
			}
			sol.Dist[p] = sol.Dist[c] + 1
			queue = append(queue, p)
		}
	}
	sol.queue = queue
	return sol
}

// MateLine returns a principal variation of the mate from node i: the nodes visited, node i
// first. The attacker moves to a child with the least distance, the defender to one with the
// greatest (a longest defence); ties go to the earliest child. The line is empty if the
// attacker does not force mate from node i.
func (gr *Graph[S, K]) MateLine(sol *MateSolution, i int) []int {
	if sol.Dist[i] < 0 {
		return nil
	}
	line := []int{i}
	for sol.Dist[i] > 0 {
		slot := -1
		for k, c := range gr.Children(i) {
			if sol.Dist[c] != sol.Dist[i]-1 {
				continue
			}
			slot = k
			break
		}
		if slot < 0 {
			panic("retro: MateLine found no child one ply closer to mate; the labelling is inconsistent")
		}
		i = int(gr.Children(i)[slot])
		line = append(line, i)
	}
	return line
}
