package matestats

import (
	"slices"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
)

// TestCharts checks the charts of a study made up by hand: the counts of zero, which a log
// axis cannot show, are left out, and the rest stand at their ply or distance.
func TestCharts(t *testing.T) {
	st := Study{Plies: 3, Layers: []int{1, 2, 32, 79}, MatesByLayer: []int{1, 0, 25, 60}, MatesByDistance: []int{3, 0, 5, 40, 7, 1}}
	layers, distances := Charts(st, "Test", "Sente")
	want := []struct {
		chart  figure.Chart
		series int
		label  string
		xys    plotter.XYs
	}{
		{layers, 0, "reachable", plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 2}, {X: 2, Y: 32}, {X: 3, Y: 79}}},
		{layers, 1, "Sente forces mate (found in the graph)", plotter.XYs{{X: 0, Y: 1}, {X: 2, Y: 25}, {X: 3, Y: 60}}},
		{distances, 0, "", plotter.XYs{{X: 0, Y: 3}, {X: 2, Y: 5}, {X: 3, Y: 40}, {X: 4, Y: 7}, {X: 5, Y: 1}}},
	}
	for _, w := range want {
		t.Run(w.label, func(t *testing.T) {
			s := w.chart.Series[w.series]
			if s.Label != w.label || !slices.Equal(s.XYs, w.xys) {
				t.Errorf("%s, series %d: %q %v; want %q %v", w.chart.Title, w.series, s.Label, s.XYs, w.label, w.xys)
			}
			if w.chart.YTicks != figure.Log || w.chart.XTicks != figure.Integer {
				t.Errorf("%s: ticks %v, %v; want integer plies and a log count", w.chart.Title, w.chart.XTicks, w.chart.YTicks)
			}
		})
	}
	for _, c := range []figure.Chart{layers, distances} {
		p, err := c.Plot()
		if err != nil {
			t.Fatal(err)
		}
		figuretest.Check(t, c.Title, p)
	}
}
