package figure_test

import (
	"math"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
)

// TestLegendPlacement checks where the legend goes on data whose free space is known:
// figuretest.Check then checks, independently, that it covers nothing.
func TestLegendPlacement(t *testing.T) {
	top := func(lay figure.Layout) bool { return math.Abs(float64(lay.Legend.Max.Y-lay.Data.Max.Y)) < 5 }
	left := func(lay figure.Layout) bool { return lay.Legend.Min.X-lay.Data.Min.X < 5 }
	for _, tc := range []struct {
		name  string
		chart figure.Chart
		// where the legend must be, for a paper (one column)
		want    func(figure.Layout) bool
		outside bool
	}{
		{
			// A rising line leaves the top-left corner empty; the top right is taken.
			name:  "rising",
			chart: figure.Chart{Series: []figure.Series{{Label: "rising", Kind: figure.Line, XYs: plotter.XYs{{X: 0, Y: 0}, {X: 10, Y: 10}}}}},
			want:  func(l figure.Layout) bool { return top(l) && left(l) },
		},
		{
			// Lines along the top, the middle and the bottom, and up the middle: no corner
			// or edge is free, so the legend goes above the plot area rather than into a
			// band made by stretching the axis above the data.
			name: "no room inside",
			chart: figure.Chart{Series: []figure.Series{
				{Label: "top", Kind: figure.Line, XYs: plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 1}}},
				{Label: "bottom", Kind: figure.Line, XYs: plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}}},
				{Label: "middle", Kind: figure.Line, XYs: plotter.XYs{{X: 0.5, Y: 0}, {X: 0.5, Y: 1}}},
				{Label: "half", Kind: figure.Line, XYs: plotter.XYs{{X: 0, Y: 0.5}, {X: 1, Y: 0.5}}},
			}},
			want:    func(l figure.Layout) bool { return l.Legend.Min.Y >= l.Data.Max.Y && l.Y.Max < 1.1 },
			outside: true,
		},
		{
			// Four lines of seven entries fill the plot: the legend goes above it.
			name: "crowded",
			chart: figure.Chart{Series: []figure.Series{
				{Label: "one", Kind: figure.Line, XYs: plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}},
				{Label: "two", Kind: figure.Line, XYs: plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 0}}},
				{Label: "three", Kind: figure.Line, XYs: plotter.XYs{{X: 0, Y: 0.5}, {X: 1, Y: 0.5}}},
				{Label: "four", Kind: figure.Line, XYs: plotter.XYs{{X: 0.5, Y: 0}, {X: 0.5, Y: 1}}},
				{Label: "five", Kind: figure.Points, XYs: plotter.XYs{{X: 0.05, Y: 0.95}, {X: 0.95, Y: 0.95}, {X: 0.05, Y: 0.05}, {X: 0.95, Y: 0.05}}},
				{Label: "six", Kind: figure.Points, XYs: plotter.XYs{{X: 0.25, Y: 0.9}, {X: 0.75, Y: 0.9}}},
				{Label: "seven", Kind: figure.Points, XYs: plotter.XYs{{X: 0.25, Y: 0.1}, {X: 0.75, Y: 0.1}}},
			}},
			want:    func(l figure.Layout) bool { return l.Legend.Min.Y >= l.Data.Max.Y },
			outside: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.chart.Plot()
			if err != nil {
				t.Fatal(err)
			}
			lay, err := p.Layout(figure.Paper())
			if err != nil {
				t.Fatal(err)
			}
			if !tc.want(lay) || lay.LegendOutside != tc.outside {
				t.Errorf("%s: legend at %v (outside %v) of the plot area %v, y up to %v", tc.name, lay.Legend, lay.LegendOutside, lay.Data, lay.Y.Max)
			}
			figuretest.Check(t, tc.name, p)
		})
	}
}

// TestFrameGap: the axes reach past the data so that no mark comes within FrameGap of the
// plot area's edges. A bar of height 1 from zero may stand on the bottom edge; the points at
// (0, 0) and (4, 1), each drawn as a circle of radius 2.2 pt (the first series' glyph), keep
// 3 pt from the edges they are nearest (measured here on the canvas from the axes as drawn).
func TestFrameGap(t *testing.T) {
	p, err := figure.Chart{XTicks: figure.Integer, Series: []figure.Series{
		{Label: "points", Kind: figure.Points, XYs: plotter.XYs{{X: 0, Y: 0}, {X: 4, Y: 1}}}, // circles
		{Label: "bars", Kind: figure.Bars, XYs: plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 0.5}}},
	}}.Plot()
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []figure.Size{figure.Column, figure.Full} {
		t.Run(size.String(), func(t *testing.T) {
			lay, err := p.Layout(figure.Options{Size: size})
			if err != nil {
				t.Fatal(err)
			}
			d := lay.Data
			at := func(a plot.Axis, v float64, lo, hi vg.Length) vg.Length { return lo + vg.Length(a.Norm(v))*(hi-lo) }
			const r, gap = 2.2, figure.FrameGap
			if x := at(lay.X, 0, d.Min.X, d.Max.X); x-r < d.Min.X+gap-0.02 {
				t.Errorf("%s: the point at x=0 is drawn %.2f pt from the left edge", size, x-r-d.Min.X)
			}
			if y := at(lay.Y, 0, d.Min.Y, d.Max.Y); y-r < d.Min.Y+gap-0.02 {
				t.Errorf("%s: the point at y=0 is drawn %.2f pt from the bottom edge", size, y-r-d.Min.Y)
			}
			if x := at(lay.X, 4, d.Min.X, d.Max.X); x+r > d.Max.X-gap+0.02 {
				t.Errorf("%s: the point at x=4 is drawn %.2f pt from the right edge", size, d.Max.X-x-r)
			}
			if y := at(lay.Y, 1, d.Min.Y, d.Max.Y); y+r > d.Max.Y-gap+0.02 {
				t.Errorf("%s: the bar and the point at y=1 reach %.2f pt from the top edge", size, d.Max.Y-y-r)
			}
			figuretest.Check(t, "frame gap", p)
		})
	}
}

// TestSampleChecks runs the figuretest checks on the golden sample, and on a log chart.
func TestSampleChecks(t *testing.T) {
	var counts plotter.XYs
	for ply := 0; ply <= 8; ply++ {
		counts = append(counts, plotter.XY{X: float64(ply), Y: math.Pow(6, float64(ply))})
	}
	for name, c := range map[string]figure.Chart{
		"log": {XLabel: "ply", YLabel: "positions", XTicks: figure.Integer, YTicks: figure.Log,
			Series: []figure.Series{{Label: "reachable", Kind: figure.LinePoints, XYs: counts}}},
		"bars": {XLabel: "score", YLabel: "probability", XTicks: figure.Integer, Series: []figure.Series{
			{Label: "exact", Kind: figure.Bars, XYs: plotter.XYs{{X: 1, Y: 0.2}, {X: 2, Y: 0.5}, {X: 5, Y: 0.3}}},
			{Label: "simulated", Kind: figure.Points, XYs: plotter.XYs{{X: 1, Y: 0.21}, {X: 2, Y: 0.48}, {X: 5, Y: 0.31}}},
		}},
	} {
		p, err := c.Plot()
		if err != nil {
			t.Fatal(err)
		}
		figuretest.Check(t, name, p)
	}
}

// TestPDFText: text beyond ASCII but within Windows-1252 (±, the en dash of negative
// ticks, ², é) comes out of the PDF as written, the fonts are embedded, and the page has
// the column size.
func TestPDFText(t *testing.T) {
	c := figure.Chart{XLabel: "score ± error", YLabel: "mean n² (café)", Series: []figure.Series{
		{Label: "naïve – fit", Kind: figure.Line, XYs: plotter.XYs{{X: -2, Y: -1}, {X: 2, Y: 3}}},
	}}
	p, err := c.Plot()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := p.Save(t.TempDir(), "text", figure.Paper())
	if err != nil {
		t.Fatal(err)
	}
	figuretest.CheckPDF(t, paths[0], figure.Column, "score ± error", "mean n² (café)", "naïve – fit", "–1.0")
}
