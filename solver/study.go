package solver

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
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
	gr := retro.Enumerate[minishogi.Code, minishogi.Code](codeGame{}, []minishogi.Code{root.Code()}, retro.Options{MaxPly: plies})
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

// Plot saves two figures in dir, each as PNG and SVG: name-layers (positions and forced
// mates per ply) and name-distances (positions per forced-mate distance), both on a log
// scale since the counts grow geometrically. It returns the paths written.
func (st *Study) Plot(dir, name, title string) ([]string, error) {
	layers := figure.Chart{
		Title:  title + ": positions per ply",
		XLabel: "ply from the start", YLabel: "positions (log scale)",
		Series: []figure.Series{
			{Label: "reachable", Kind: figure.Line, XYs: positive(st.Layers)},
			{Label: "attacker forces mate (found in the graph)", Kind: figure.Line, XYs: positive(st.MatesByLayer)},
		},
	}
	distances := figure.Chart{
		Title:  fmt.Sprintf("%s: forced mates found in the %d-ply graph", title, st.Plies),
		XLabel: "plies to mate", YLabel: "positions (log scale)",
		Series: []figure.Series{{Label: "positions", Kind: figure.Line, XYs: positive(st.MatesByDistance)}},
	}
	var paths []string
	for _, c := range []struct {
		chart  figure.Chart
		suffix string
	}{{layers, "-layers"}, {distances, "-distances"}} {
		p, err := c.chart.Plot()
		if err != nil {
			return nil, err
		}
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		more, err := figure.Save(p, dir, name+c.suffix)
		if err != nil {
			return nil, err
		}
		paths = append(paths, more...)
	}
	return paths, nil
}

// positive returns the points (i, counts[i]) with counts[i] > 0: a log scale cannot show 0.
func positive(counts []int) plotter.XYs {
	var xys plotter.XYs
	for i, n := range counts {
		if n > 0 {
			xys = append(xys, plotter.XY{X: float64(i), Y: float64(n)})
		}
	}
	return xys
}
