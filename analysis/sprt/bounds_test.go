package sprt

import (
	"fmt"
	"math"
	"testing"
)

// TestBoundsAsymmetric: Wald's bounds are log(β/(1-α)) and log((1-β)/α). With α ≠ β the two
// error rates cannot be mixed up unseen: α = 0.05, β = 0.2 gives log(4/19) = -1.558145 and
// log 16 = 2.772589; α = 0.01, β = 0.1 gives log(10/99) = -2.292535 and log 90 = 4.499810.
func TestBoundsAsymmetric(t *testing.T) {
	for _, c := range []struct{ alpha, beta, lower, upper float64 }{
		{0.05, 0.2, -1.558145, 2.772589},
		{0.01, 0.1, -2.292535, 4.499810},
	} {
		t.Run(fmt.Sprintf("alpha=%g,beta=%g", c.alpha, c.beta), func(t *testing.T) {
			lo, hi := Test{Alpha: c.alpha, Beta: c.beta}.Bounds()
			if math.Abs(lo-c.lower) > 1e-6 || math.Abs(hi-c.upper) > 1e-6 {
				t.Errorf("α = %v, β = %v: bounds %.6f, %.6f; want %.6f, %.6f", c.alpha, c.beta, lo, hi, c.lower, c.upper)
			}
		})
	}
}

// TestSequenceOvershoot follows the overshoot correction through two updates by hand. A
// first pair won twice raises the LLR from 0 to ℓ1 > 0: one step up of ℓ1, whose second
// moment over twice the first is ℓ1/2, so the upper bound moves in to log 19 - ℓ1/2. A
// second pair lost twice brings the LLR to ℓ2 < 0: the lower bound moves in to
// -log 19 - ℓ2/2, and the upper one keeps its correction (no new high).
func TestSequenceOvershoot(t *testing.T) {
	const wald = 2.944439 // log 19: α = β = 0.05
	s := NewSequence(Test{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: Logistic})
	v1 := s.Update(Pentanomial{0, 0, 0, 0, 1})
	if !(v1.LLR > 0) || math.Abs(v1.Upper-(wald-v1.LLR/2)) > 1e-6 || math.Abs(v1.Lower+wald) > 1e-6 || v1.State != Continue {
		t.Fatalf("after a pair won twice: %+v; want LLR ℓ1 > 0, bounds -%v and %v - ℓ1/2, continue", v1, wald, wald)
	}
	v2 := s.Update(Pentanomial{1, 0, 0, 0, 1})
	if !(v2.LLR < 0) || math.Abs(v2.Lower-(-wald-v2.LLR/2)) > 1e-6 || math.Abs(v2.Upper-v1.Upper) > 1e-12 || v2.State != Continue {
		t.Fatalf("after a pair lost twice: %+v; want LLR ℓ2 < 0, bounds -%v - ℓ2/2 and %v, continue", v2, wald, v1.Upper)
	}
}

// TestSequenceVerdicts: a match where A scores 30% (ten pairs of 6 points in turn, every
// kind of pair among them: some 150 Elo weaker) ends accepting H0 (A does not gain elo1),
// and the mirror match, where A scores 70%, accepting H1, each within 400 pairs. (A
// whitewash would not do: with pairs of one kind the counts' regularization bounds the LLR,
// as Fishtest's does.)
func TestSequenceVerdicts(t *testing.T) {
	test := Test{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: Logistic}
	for _, c := range []struct {
		name   string
		points []float64 // A's points in the pairs, in turn
		want   State
	}{
		{"30%", []float64{0, 0.5, 1, 0, 0.5, 1.5, 0, 0.5, 1, 1}, H0},
		{"70%", []float64{2, 1.5, 1, 2, 1.5, 0.5, 2, 1.5, 1, 1}, H1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewSequence(test)
			var p Pentanomial
			var v Verdict
			for p.Pairs() < 400 && v.State != H0 && v.State != H1 {
				p.Add(c.points[p.Pairs()%len(c.points)])
				v = s.Update(p)
			}
			t.Logf("%s: %s after %d pairs", c.name, v.State, p.Pairs())
			if v.State != c.want {
				t.Errorf("%s: %s after %d pairs (LLR %.3f, bounds %.3f, %.3f); want %s", c.name, v.State, p.Pairs(), v.LLR, v.Lower, v.Upper, c.want)
			}
		})
	}
}
