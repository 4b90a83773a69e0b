package ratings

import (
	"math"
	"testing"

	"gonum.org/v1/plot/cmpimg"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
)

func TestChart(t *testing.T) {
	c := NewCollector()
	match(c, "A", "B", 7, 0, 3)
	res := fit(t, c, Options{Anchor: "B"})
	ch, rows := Chart(res)
	if len(rows) != 2 || rows[1] != "A (10)" || rows[0] != "B (10)" {
		t.Fatalf("rows %q", rows)
	}
	pts := ch.Series[0].XYs
	if math.Abs(pts[1].X-400*math.Log10(7.0/3)) > 1e-6 || pts[1].Y != 1 || pts[0].X != 0 {
		t.Errorf("points %v; want A at 400·log10(7/3) on top, B at 0", pts)
	}
	if ch.XLabel != "Elo (B rated 0)" || ch.Series[0].Kind != figure.Points {
		t.Errorf("chart %+v", ch)
	}
}

func TestPlotGolden(t *testing.T) {
	c := NewCollector()
	match(c, "alpha", "beta", 4, 1, 2)
	match(c, "beta", "gamma", 5, 2, 3)
	match(c, "gamma", "alpha", 1, 1, 6)
	res := fit(t, c, Options{})
	cmpimg.CheckPlot(func() {
		p, err := Plot(res)
		if err != nil {
			t.Fatal(err)
		}
		figuretest.Check(t, "ratings", p)
		if _, err := p.Save("testdata", "ratings", figure.Screen()); err != nil {
			t.Fatal(err)
		}
	}, t, "ratings.png", "ratings.svg")
}
