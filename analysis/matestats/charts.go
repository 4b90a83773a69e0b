// Package matestats draws a study of forced mates (solver.Study): the graph reachable from a
// position within a number of plies, with the positions first reached at each ply, those
// from which the attacker forces mate, and the positions by the length of that mate. The
// solver computes the study; the charts live here, beside the other analyses' plots, so that
// solve --out and the paper draw them alike.
package matestats

import (
	"fmt"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
)

// Study is what the charts show of a mate study. It has the fields of solver.Study, which
// converts to it (matestats.Study(*st)): the analyses do not import the solver
// (docs/architecture.md#import-rules).
type Study struct {
	Plies int
	// Layers[d] counts the positions first reached after d plies; MatesByLayer[d] those of
	// them from which the attacker forces mate within the graph.
	Layers, MatesByLayer []int
	// MatesByDistance[k] counts the positions of the graph with a forced mate in k plies.
	MatesByDistance []int
}

// Charts are the study's two figures, both with a logarithmic count axis since the counts
// grow geometrically with the ply: layers (positions per ply from the root, and those from
// which attacker, a name such as "Sente", forces mate within the graph) and distances (the
// positions of the graph by plies to mate, which run past the graph's bound: a position
// at its last ply may need as many plies again). Title names the position.
func Charts(st Study, title, attacker string) (layers, distances figure.Chart) {
	layers = figure.Chart{
		Title:  title + ": positions per ply",
		XLabel: "ply from the start", YLabel: "positions",
		XTicks: figure.Integer, YTicks: figure.Log,
		Series: []figure.Series{
			{Label: "reachable", Kind: figure.LinePoints, XYs: positive(st.Layers)},
			{Label: attacker + " forces mate (found in the graph)", Kind: figure.LinePoints, XYs: positive(st.MatesByLayer)},
		},
	}
	distances = figure.Chart{
		Title:  fmt.Sprintf("%s: forced mates from the positions within %d plies, by length", title, st.Plies),
		XLabel: "plies to mate from the position", YLabel: "positions",
		XTicks: figure.Integer, YTicks: figure.Log,
		Series: []figure.Series{{Kind: figure.LinePoints, XYs: positive(st.MatesByDistance)}}, // one series: no legend
	}
	return layers, distances
}

// positive returns the points (i, counts[i]) with counts[i] > 0: a log axis cannot show 0.
func positive(counts []int) plotter.XYs {
	var xys plotter.XYs
	for i, n := range counts {
		if n > 0 {
			xys = append(xys, plotter.XY{X: float64(i), Y: float64(n)})
		}
	}
	return xys
}
