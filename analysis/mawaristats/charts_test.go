package mawaristats

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
	"github.com/shogilab/shogilab/rules/mawari"
)

// TestThrowChart: under the standard rules every move is a number of steps, so the bars
// stand at their scores on a number line; the moves rarer than the floor are left out.
func TestThrowChart(t *testing.T) {
	r := preset(t, "standard")
	exact := r.ThrowDistribution(mawari.DefaultProbabilities())
	simulated := map[string]float64{"1": 0.2, "80": 0.5}
	c := ThrowChart("title", exact, simulated, "sim")
	if len(c.Series) != 2 || c.Series[0].Kind != figure.Bars || c.Series[1].Kind != figure.Points || c.Series[1].Label != "sim" {
		t.Fatalf("series %+v; want exact bars and simulated points", c.Series)
	}
	if c.XNames != nil || c.XTicks != figure.Integer {
		t.Errorf("names %v, ticks %v; want scores on an integer axis", c.XNames, c.XTicks)
	}
	shown := 0
	for _, e := range exact {
		if e.Probability < ThrowChartFloor {
			continue
		}
		bar, pt := c.Series[0].XYs[shown], c.Series[1].XYs[shown]
		if bar.X != float64(e.Move.Steps) || bar.Y != e.Probability || pt.X != bar.X || pt.Y != simulated[e.Move.Key()] {
			t.Errorf("move %s: bar %v, point %v; want at %d: %v and %v", e.Move, bar, pt, e.Move.Steps, e.Probability, simulated[e.Move.Key()])
		}
		shown++
	}
	// Scores 45 and above are rarer than 1e-5 under the estimates of docs/rules.md: 45,
	// 46, 50, 51, 55, 60, 61, 65, 70 and 80.
	if shown != len(c.Series[0].XYs) || len(exact)-shown != 10 || !strings.Contains(c.Title, "10 moves rarer than 1e-05 not shown") {
		t.Errorf("%d of %d moves shown, title %q", shown, len(exact), c.Title)
	}
	p, err := c.Plot()
	if err != nil {
		t.Fatal(err)
	}
	figuretest.Check(t, "throw chart", p)
	if c := ThrowChart("t", exact, nil, ""); len(c.Series) != 1 {
		t.Errorf("without a simulation: %d series", len(c.Series))
	}
}

// TestThrowChartJump: a move to the next corner is not a number of steps, so the moves are
// named positions in the order given.
func TestThrowChartJump(t *testing.T) {
	exact := []mawari.MoveProbability{{Move: mawari.Move{Steps: 2}, Probability: 0.5}, {Move: mawari.Move{ToNextCorner: true}, Probability: 0.25}, {Move: mawari.Move{Steps: 7}, Probability: 0.25}}
	c := ThrowChart("t", exact, nil, "")
	if strings.Join(c.XNames, " ") != "2 jump 7" || c.Series[0].XYs[1] != (plotter.XY{X: 1, Y: 0.25}) {
		t.Errorf("names %v, bars %v; want 2 jump 7 at 0, 1, 2", c.XNames, c.Series[0].XYs)
	}
}

func TestGameLengthCharts(t *testing.T) {
	var curves []LengthCurve
	for _, name := range []string{"standard", "lap"} {
		a, err := Analyze(preset(t, name), mawari.DefaultProbabilities())
		if err != nil {
			t.Fatal(err)
		}
		curves = append(curves, LengthCurve{name, a.Race.Rounds})
	}
	sim := &Simulation{Games: 4, RoundCounts: []int{0, 1, 0, 3}}
	pmf, cdf := GameLengthCharts("t", curves, sim, "sim")
	for name, c := range map[string]figure.Chart{"pmf": pmf, "cdf": cdf} {
		p, err := c.Plot()
		if err != nil {
			t.Fatal(err)
		}
		figuretest.Check(t, name, p)
	}
	if len(pmf.Series) != 3 || len(cdf.Series) != 3 || pmf.Series[2].Kind != figure.Points {
		t.Fatalf("%d and %d series; want two lines and the points in each", len(pmf.Series), len(cdf.Series))
	}
	for i, c := range curves {
		xys := cdf.Series[i].XYs
		last := xys[len(xys)-1]
		// The x axis runs to the 99.9% quantile of the slower curve, so every CDF ends at
		// or above 0.999, and each point is the running sum of the PMF.
		if last.Y < 0.999 || last.Y > 1+1e-12 {
			t.Errorf("%s: CDF ends at %v", c.Label, last.Y)
		}
		sum := 0.0
		for j, xy := range pmf.Series[i].XYs {
			sum += xy.Y
			if xy.Y != c.Rounds.PMF[int(xy.X)] || math.Abs(cdf.Series[i].XYs[j].Y-sum) > 1e-12 {
				t.Fatalf("%s at %v: pmf %v, cdf %v", c.Label, xy.X, xy.Y, cdf.Series[i].XYs[j].Y)
			}
		}
	}
	// The simulated shares: one game in round 1, three in round 3.
	pts := cdf.Series[2].XYs
	if pmf.Series[2].XYs[0].Y != 0.25 || pmf.Series[2].XYs[2].Y != 0.75 || pts[1].Y != 0.25 || pts[2].Y != 1 {
		t.Errorf("simulated points %v / %v", pmf.Series[2].XYs[:3], pts[:3])
	}
}

func TestSensitivityCharts(t *testing.T) {
	curves := []SensitivityCurve{{Outcome: mawari.Side, Points: []SensitivityPoint{
		{Scale: 0, MeanRounds: 40, FirstPlayerAdvantage: 0.01},
		{Scale: 1, MeanRounds: 42, FirstPlayerAdvantage: 0.02},
	}}}
	length, adv := SensitivityCharts("t", curves)
	if len(length.Series) != 1 || length.Series[0].Label != "side" || length.Series[0].XYs[1].Y != 42 || adv.Series[0].XYs[0].Y != 0.01 {
		t.Errorf("charts %+v %+v", length, adv)
	}
	for name, c := range map[string]figure.Chart{"length": length, "advantage": adv} {
		p, err := c.Plot()
		if err != nil {
			t.Fatal(err)
		}
		figuretest.Check(t, name, p)
	}
}
