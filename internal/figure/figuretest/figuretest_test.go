package figuretest

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/shogilab/shogilab/internal/figure"
)

// TestMeets checks the segment test on hand-drawn cases around the rectangle 0..10 × 0..10.
func TestMeets(t *testing.T) {
	r := vg.Rectangle{Max: vg.Point{X: 10, Y: 10}}
	p := func(x, y vg.Length) vg.Point { return vg.Point{X: x, Y: y} }
	for _, tc := range []struct {
		name string
		s    segment
		want bool
	}{
		{"inside", segment{p(2, 2), p(3, 3)}, true},
		{"one end inside", segment{p(5, 5), p(20, 5)}, true},
		{"straight through, ends outside", segment{p(-5, 5), p(15, 5)}, true},
		{"diagonal through the corners", segment{p(-1, -1), p(11, 11)}, true},
		{"across a corner", segment{p(-2, 7), p(2, 11)}, true},
		{"through a corner only", segment{p(-2, 8), p(2, 12)}, false},
		{"along an edge, outside", segment{p(-5, 10), p(15, 10)}, false},
		{"past a corner", segment{p(-2, 9), p(1, 12)}, false},
		{"above", segment{p(-5, 12), p(15, 11)}, false},
		{"a point outside", segment{p(12, 12), p(12, 12)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := meets(tc.s, r); got != tc.want {
				t.Errorf("%s: meets = %v; want %v", tc.name, got, tc.want)
			}
		})
	}
	if overlaps(r, vg.Rectangle{Min: p(10, 0), Max: p(20, 10)}) {
		t.Error("rectangles sharing an edge overlap")
	}
	if !overlaps(r, vg.Rectangle{Min: p(9, 9), Max: p(20, 20)}) {
		t.Error("rectangles sharing a corner square do not overlap")
	}
}

// errorsOf collects what a check reports instead of failing the test.
type errorsOf struct {
	testing.TB
	errs []string
}

func (e *errorsOf) Helper() {}
func (e *errorsOf) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

// TestPlantedFaults: the checks pass a sound bar chart and fail it with a fault planted in
// its drawing, each of the two the house style avoids: its y axis ended below the tallest
// bar, which the plot area then cuts (as gonum draws a range set by hand); and its y axis
// run on to 1.3 above bars of at most 1.0, with ticks at 1.1, 1.2 and 1.3 left unlabelled
// (as a band made above the data for the legend once was).
func TestPlantedFaults(t *testing.T) {
	p, err := figure.Chart{XLabel: "move", YLabel: "score", XTicks: figure.Integer, Series: []figure.Series{
		{Label: "score", Kind: figure.Bars, XYs: plotter.XYs{{X: 0, Y: 0.4}, {X: 1, Y: 1}, {X: 2, Y: 0.7}}},
	}}.Plot()
	if err != nil {
		t.Fatal(err)
	}
	o := figure.Paper()
	w, h := o.Size.Dimensions()
	draw1 := func() (figure.Layout, *recorder.Canvas) {
		rec := &recorder.Canvas{}
		lay, err := p.Draw(draw.NewCanvas(rec, w, h), o)
		if err != nil {
			t.Fatal(err)
		}
		return lay, rec
	}
	sound := &errorsOf{TB: t}
	lay, rec := draw1()
	checkDrawn(sound, "sound", p, lay, rec)
	if len(sound.errs) > 0 {
		t.Fatalf("the sound chart fails: %v", sound.errs)
	}

	for _, tc := range []struct {
		name  string
		plant func(*figure.Layout)
		want  []string
	}{
		{"clipped bar", func(l *figure.Layout) { l.Y.Max = 0.8 }, []string{"top edge"}},
		{"unlabelled top ticks", func(l *figure.Layout) {
			l.Y.Max = 1.3
			var ticks []plot.Tick
			for i := 0; i <= 13; i++ {
				tk := plot.Tick{Value: float64(i) / 10}
				if i%2 == 0 && i <= 10 {
					tk.Label = fmt.Sprintf("%.1f", tk.Value)
				}
				ticks = append(ticks, tk)
			}
			l.Y.Tick.Marker = plot.ConstantTicks(ticks)
		}, []string{"unlabelled tick at 1.1", "runs on from its last label \"1.0\""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			planted, rec := draw1()
			tc.plant(&planted)
			got := &errorsOf{TB: t}
			checkDrawn(got, tc.name, p, planted, rec)
			all := strings.Join(got.errs, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("the check does not report %q; it reports:\n%s", w, all)
				}
			}
		})
	}
}
