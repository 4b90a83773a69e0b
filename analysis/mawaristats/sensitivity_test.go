package mawaristats

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/mawari"
)

func TestScaled(t *testing.T) {
	base := mawari.DefaultProbabilities()
	p, err := Scaled(base, mawari.Side, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Side doubles to 0.17; the rest, 0.915 before, share 0.83 in their old proportions.
	if math.Abs(p[mawari.Side]-0.17) > 1e-15 {
		t.Errorf("P(side) = %v; want 0.17", p[mawari.Side])
	}
	for _, o := range []mawari.Outcome{mawari.Back, mawari.Face, mawari.Upright, mawari.Point} {
		if want := base[o] * 0.83 / 0.915; math.Abs(p[o]-want) > 1e-15 {
			t.Errorf("P(%s) = %v; want %v", o, p[o], want)
		}
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
	if _, err := Scaled(base, mawari.Back, 3); err == nil || !strings.Contains(err.Error(), "cannot scale P(back) = 0.45 by 3") {
		t.Errorf("scale past one: %v", err)
	}
	if _, err := Scaled(mawari.Probabilities{mawari.Face: 1}, mawari.Face, 0.5); err == nil {
		t.Error("scaling the only possible outcome down succeeded")
	}
}

// Under the standard rules the mean turns to win is 56 for any probabilities whose moves
// reach every residue mod 8 (see TestMeanTurnsRenewal); every point of the study has a
// possible odd score (a face, or a side when faces are removed), so every point must show
// 56, and the scale-1 points must show the base analysis.
func TestProbabilitySensitivityStandard(t *testing.T) {
	r := preset(t, "standard")
	base := mawari.DefaultProbabilities()
	curves, err := ProbabilitySensitivity(r, base, DefaultScales)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(r, base)
	if err != nil {
		t.Fatal(err)
	}
	if len(curves) != mawari.NumOutcomes {
		t.Fatalf("%d curves; want one per outcome", len(curves))
	}
	for _, c := range curves {
		if len(c.Points) != len(DefaultScales) {
			t.Fatalf("%s: %d points; want %d", c.Outcome, len(c.Points), len(DefaultScales))
		}
		for _, pt := range c.Points {
			if math.Abs(pt.MeanTurns-56) > 1e-8 {
				t.Errorf("%s x%v: mean turns %v; want 56", c.Outcome, pt.Scale, pt.MeanTurns)
			}
			if pt.Scale == 1 && (math.Abs(pt.MeanRounds-a.MeanRounds()) > 1e-12 || math.Abs(pt.FirstPlayerAdvantage-a.FirstPlayerAdvantage()) > 1e-12) {
				t.Errorf("%s x1: %+v differs from the base analysis", c.Outcome, pt)
			}
		}
	}
}

func TestComparePresets(t *testing.T) {
	got, err := ComparePresets(mawari.Presets(), 3, mawari.DefaultProbabilities())
	if err != nil {
		t.Fatal(err)
	}
	for i, pa := range got {
		if pa.Name != mawari.Presets()[i].Name || pa.Rules.Players != 3 || len(pa.Race.WinProbability) != 3 {
			t.Errorf("preset %d: %s with %d players", i, pa.Name, pa.Rules.Players)
		}
	}
}

// With every piece face up, the face probability can only be scaled by one (by zero nothing
// would be left, by two it would pass one), while every other outcome, at zero, stays at
// zero under any of the three scales: five curves, of one point and of three.
func TestProbabilitySensitivitySkipsImpossibleScales(t *testing.T) {
	curves, err := ProbabilitySensitivity(preset(t, "standard"), mawari.Probabilities{mawari.Face: 1}, []float64{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(curves) != mawari.NumOutcomes {
		t.Fatalf("%d curves; want %d", len(curves), mawari.NumOutcomes)
	}
	for _, c := range curves {
		want := []float64{0, 1, 2}
		if c.Outcome == mawari.Face {
			want = []float64{1}
		}
		var scales []float64
		for _, pt := range c.Points {
			scales = append(scales, pt.Scale)
		}
		if !slices.Equal(scales, want) {
			t.Errorf("%s: scales %v; want %v", c.Outcome, scales, want)
		}
		for _, pt := range c.Points {
			if pt.Probabilities != (mawari.Probabilities{mawari.Face: 1}) || pt.MeanTurns != 14 {
				t.Errorf("%s x%v: %v, %v turns; want all faces and 14 turns", c.Outcome, pt.Scale, pt.Probabilities, pt.MeanTurns)
			}
		}
	}
}
