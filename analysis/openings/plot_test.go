package openings

import (
	"testing"

	"gonum.org/v1/plot/cmpimg"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
)

// TestFirstMovesChart checks what the first-move figure shows, from the hand
// counts of small.jsonl: 2e3d scores 2/3 in 3 games, 3e2d 3/4 in 2, 5d5c 0 in 2.
func TestFirstMovesChart(t *testing.T) {
	var first []Line
	for _, l := range buildTree(t, 4, small).Lines(1) {
		if len(l.Moves) == 1 {
			first = append(first, l)
		}
	}
	c := FirstMovesChart(first, "the normal start")
	if len(c.Series) != 2 || c.Series[0].Kind != figure.Bars || c.Series[1].Label != "even (0.5)" {
		t.Fatalf("series %+v", c.Series)
	}
	want := []struct {
		name  string
		score float64
	}{{"2e3d (3)", 2.0 / 3}, {"3e2d (2)", 0.75}, {"5d5c (2)", 0}}
	for i, w := range want {
		t.Run(w.name, func(t *testing.T) {
			if c.XNames[i] != w.name || c.Series[0].XYs[i].X != float64(i) || c.Series[0].XYs[i].Y != w.score {
				t.Errorf("bar %d: %s at %v; want %s at %v", i, c.XNames[i], c.Series[0].XYs[i], w.name, w.score)
			}
		})
	}
	if c.Title == "" || c.XLabel == "" || c.YLabel == "" {
		t.Errorf("unlabelled chart %+v", c)
	}
}

func TestTopLinesChart(t *testing.T) {
	top := TopLines(buildTree(t, 4, small).Lines(1), 10)
	c, rows := TopLinesChart(top, "the normal start")
	// The two lines of four plies, one game each; the first (2e3d ..., a
	// Sente win) on the top row.
	if len(rows) != 2 || rows[1] != "2e3d 4a3b 3e2d 3a4b (1)" || rows[0] != "3e2d 4a3b 2e3d 1a2b (1)" {
		t.Fatalf("rows %q", rows)
	}
	if pts := c.Series[0].XYs; pts[1].X != 1 || pts[1].Y != 1 || pts[0].X != 0.5 || pts[0].Y != 0 {
		t.Errorf("points %v", pts)
	}
}

// TestPlotsGolden compares the drawn figures with golden images, as
// gonum/plot's tests do; go test -regen remakes them after a deliberate
// change, and they must then be looked at.
func TestPlotsGolden(t *testing.T) {
	lines := buildTree(t, 4, small).Lines(1)
	cmpimg.CheckPlot(func() {
		var first []Line
		for _, l := range lines {
			if len(l.Moves) == 1 {
				first = append(first, l)
			}
		}
		p, err := PlotFirstMoves(first, "the normal start")
		if err != nil {
			t.Fatal(err)
		}
		figuretest.Check(t, "first-moves", p)
		if _, err := p.Save("testdata", "first-moves", figure.Screen()); err != nil {
			t.Fatal(err)
		}
		p, err = PlotTopLines(TopLines(lines, 10), "the normal start")
		if err != nil {
			t.Fatal(err)
		}
		figuretest.Check(t, "top-lines", p)
		if _, err := p.Save("testdata", "top-lines", figure.Screen()); err != nil {
			t.Fatal(err)
		}
	}, t, "first-moves.png", "first-moves.svg", "top-lines.png", "top-lines.svg")
}
