package gamestats

import (
	"testing"

	"gonum.org/v1/plot/cmpimg"
	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/analysis/score"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
)

// TestLengthsChart checks the outlines against the hand counts of
// small.jsonl: Sente wins at 1, 3, 4 plies; Gote wins at 1, 2, 3; a draw at 4.
func TestLengthsChart(t *testing.T) {
	c := LengthsChart(smallReport(t))
	if len(c.Series) != 3 {
		t.Fatalf("%d series; want 3", len(c.Series))
	}
	want := []struct {
		label  string
		counts []float64 // at 1, 2, 3, 4 plies
	}{{"Sente wins (3)", []float64{1, 0, 1, 1}}, {"Gote wins (3)", []float64{1, 1, 1, 0}}, {"draws (1)", []float64{0, 0, 0, 1}}}
	for i, w := range want {
		t.Run(w.label, func(t *testing.T) {
			s := c.Series[i]
			if s.Label != w.label || s.Kind != figure.Line {
				t.Errorf("series %d is %q; want %q", i, s.Label, w.label)
			}
			// An outline: down at 0.5, then each bin's top from edge to edge, down at 4.5.
			xys := plotter.XYs{{X: 0.5, Y: 0}}
			for k, n := range w.counts {
				xys = append(xys, plotter.XY{X: 0.5 + float64(k), Y: n}, plotter.XY{X: 1.5 + float64(k), Y: n})
			}
			xys = append(xys, plotter.XY{X: 4.5, Y: 0})
			if len(s.XYs) != len(xys) {
				t.Errorf("%s: %v; want %v", w.label, s.XYs, xys)
				return
			}
			for k := range xys {
				if s.XYs[k] != xys[k] {
					t.Errorf("%s: %v; want %v", w.label, s.XYs, xys)
					break
				}
			}
		})
	}
}

// TestLengthsChartBins checks that long games share bins: lengths 0..199
// make 40 bins of 5 plies.
func TestLengthsChartBins(t *testing.T) {
	var r Report
	for plies := range 200 {
		r.Histogram = append(r.Histogram, Bin{Plies: plies})
		r.Histogram[plies].SenteWins = 1
	}
	c := LengthsChart(r)
	if len(c.Series) != 1 || len(c.Series[0].XYs) != 2+2*40 {
		t.Fatalf("series %+v", c.Series)
	}
	if top := c.Series[0].XYs[1]; top.X != -0.5 || top.Y != 5 {
		t.Errorf("first bin %v; want 5 games from -0.5", top)
	}
}

func TestPlotGolden(t *testing.T) {
	r := smallReport(t)
	cmpimg.CheckPlot(func() {
		p, err := PlotLengths(r)
		if err != nil {
			t.Fatal(err)
		}
		figuretest.Check(t, "game-lengths", p)
		if _, err := p.Save("testdata", "game-lengths", figure.Screen()); err != nil {
			t.Fatal(err)
		}
	}, t, "game-lengths.png", "game-lengths.svg")
}

// TestPlotLengthsScale: the small file's bins are even (linear axis); 100
// draws at the play limit beside single wins switch to a log axis.
func TestPlotLengthsScale(t *testing.T) {
	p, err := PlotLengths(smallReport(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.YTicks == figure.Log || p.Y.Min != 0 {
		t.Errorf("small file: log scale or min %v", p.Y.Min)
	}
	var r Report
	for plies := 1; plies <= 10; plies++ {
		r.Histogram = append(r.Histogram, Bin{Plies: plies, Tally: score.Tally{SenteWins: 1}})
	}
	r.Histogram = append(r.Histogram, Bin{Plies: 40, Tally: score.Tally{Draws: 100}})
	if p, err = PlotLengths(r); err != nil {
		t.Fatal(err)
	}
	if p.YTicks != figure.Log || p.Y.Label.Text != "games (log scale)" {
		t.Errorf("a dwarfing bin: ticks %v, label %q", p.YTicks, p.Y.Label.Text)
	}
	figuretest.Check(t, "game-lengths, log scale", p)
}
