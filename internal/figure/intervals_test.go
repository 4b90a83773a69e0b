package figure

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// TestAddIntervals: each bar reaches from the point to its interval's ends, an open end is
// drawn clip long, and a point that is not a number has no bar (values worked by hand).
func TestAddIntervals(t *testing.T) {
	p := New("t", "x", "y")
	err := p.AddIntervals([]Interval{
		{X: 1, Y: 10, Low: 0, High: 30},             // 10 below, 20 above
		{X: 2, Y: math.NaN(), Low: 0, High: 1},      // no bar
		{X: 3, Y: 0, Low: math.Inf(-1), High: 500},  // both ends beyond 400
		{X: 4, Y: -50, Low: -60, High: math.Inf(1)}, // 10 below, open above
	}, 400)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Data()) != 1 {
		t.Fatalf("%d plotters, want the one of error bars", len(p.Data()))
	}
	eb, ok := p.Data()[0].(*plotter.YErrorBars)
	if !ok {
		t.Fatalf("a %T, want *plotter.YErrorBars", p.Data()[0])
	}
	want := []struct{ x, y, below, above float64 }{{1, 10, 10, 20}, {3, 0, 400, 400}, {4, -50, 10, 400}}
	if len(eb.XYs) != len(want) {
		t.Fatalf("%d bars, want %d", len(eb.XYs), len(want))
	}
	for i, w := range want {
		t.Run(fmt.Sprintf("x=%g", w.x), func(t *testing.T) {
			if eb.XYs[i].X != w.x || eb.XYs[i].Y != w.y || eb.YErrors[i].Low != w.below || eb.YErrors[i].High != w.above {
				t.Errorf("bar %d: at (%g, %g) %g below, %g above; want (%g, %g) %g, %g", i,
					eb.XYs[i].X, eb.XYs[i].Y, eb.YErrors[i].Low, eb.YErrors[i].High, w.x, w.y, w.below, w.above)
			}
		})
	}
	if got := p.LegendLabels(); len(got) != 1 || got[0] != "95% interval" {
		t.Errorf("legend %q, want one entry, 95%% interval", got)
	}
	if err := New("t", "x", "y").AddIntervals(nil, 400); err != nil {
		t.Errorf("no intervals: %v", err)
	}
}
