package solver

import (
	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// Study describes the graph reachable from a root within Plies plies and its forced mates.
type Study struct {
	Plies int
	// Layers[d] counts the positions first reached after d plies; MatesByLayer[d] those of
	// them from which the attacker forces mate (found within the graph, so a lower bound for
	// the deep layers, whose mates may need positions beyond the bound).
	Layers, MatesByLayer []int
	// MatesByDistance[k] counts the positions, over the whole graph, whose label is a mate in
	// k plies against the longest defence (retro.Graph.SolveMate): the exact minimum for a
	// position at layer d when k <= Plies-d, otherwise a mate that stays within the graph and
	// may have a shorter one beyond it.
	MatesByDistance []int
}

// StudyGraph enumerates every position within plies plies of root and labels the forced
// mates of attacker.
func StudyGraph(root minishogi.Position, attacker minishogi.Color, plies int) *Study {
	gr := retro.Enumerate[minishogi.Code, minishogi.Code](codeRules{}, []minishogi.Code{root.Code()}, retro.Options{MaxPly: plies})
	sol := gr.SolveMate(attackerToMove(&root, attacker), nil)
	return studyOf(gr, sol, plies)
}

func studyOf(gr *retro.Graph[minishogi.Code, minishogi.Code], sol *retro.MateSolution, plies int) *Study {
	st := &Study{Plies: plies, Layers: gr.Layers()}
	st.MatesByLayer = make([]int, len(st.Layers))
	node := 0
	for d, n := range st.Layers {
		for range n {
			if k, ok := sol.Mated(node); ok {
				st.MatesByLayer[d]++
				for len(st.MatesByDistance) <= k {
					st.MatesByDistance = append(st.MatesByDistance, 0)
				}
				st.MatesByDistance[k]++
			}
			node++
		}
	}
	return st
}
