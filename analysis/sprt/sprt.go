package sprt

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/analysis/score"
)

// Model is the Elo scale of a test's hypotheses.
type Model string

const (
	// Logistic Elo: the score is 1/(1 + 10^(-elo/400)) (score.Expected).
	Logistic Model = "logistic"
	// Normalized Elo: (score - 1/2)/σ per game · 800/ln 10 (Van den Bergh).
	Normalized Model = "normalized"
)

// Test is an SPRT: H0 elo = Elo0 against H1 elo = Elo1, with the
// probability Alpha of accepting H1 when H0 holds and Beta of accepting H0
// when H1 holds.
type Test struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Model Model   `json:"model"`
}

// Parse reads a test as "elo0=0,elo1=5,alpha=0.05,beta=0.05" with an
// optional model=logistic (the default) or model=normalized; alpha and beta
// default to 0.05. Errors are one line naming what is wrong.
func Parse(text string) (Test, error) {
	t := Test{Alpha: 0.05, Beta: 0.05, Model: Logistic}
	seen := map[string]bool{}
	for _, f := range strings.Split(text, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(f), "=")
		if !ok {
			return Test{}, fmt.Errorf("sprt: %q is not key=value (want elo0=0,elo1=5,alpha=0.05,beta=0.05)", f)
		}
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		if seen[key] {
			return Test{}, fmt.Errorf("sprt: %s given twice", key)
		}
		seen[key] = true
		if key == "model" {
			t.Model = Model(strings.ToLower(value))
			continue
		}
		x, err := strconv.ParseFloat(value, 64)
		var dst *float64
		switch key {
		case "elo0":
			dst = &t.Elo0
		case "elo1":
			dst = &t.Elo1
		case "alpha":
			dst = &t.Alpha
		case "beta":
			dst = &t.Beta
		default:
			return Test{}, fmt.Errorf("sprt: unknown key %q (want elo0, elo1, alpha, beta, model)", key)
		}
		if err != nil {
			return Test{}, fmt.Errorf("sprt: %s=%q is not a number", key, value)
		}
		*dst = x
	}
	if !seen["elo0"] || !seen["elo1"] {
		return Test{}, fmt.Errorf("sprt: %q needs elo0 and elo1", text)
	}
	return t, t.Validate()
}

// Validate checks the hypotheses and error rates.
func (t Test) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case t.Model != Logistic && t.Model != Normalized:
		return fmt.Errorf("sprt: model %q is not %s or %s", t.Model, Logistic, Normalized)
	case !finite(t.Elo0) || !finite(t.Elo1) || math.Abs(t.Elo0) > 2000 || math.Abs(t.Elo1) > 2000:
		return fmt.Errorf("sprt: elo0=%v and elo1=%v must be numbers within ±2000", t.Elo0, t.Elo1)
	case !(t.Elo0 < t.Elo1):
		return fmt.Errorf("sprt: elo0=%v must be below elo1=%v", t.Elo0, t.Elo1)
	case !(t.Alpha > 0 && t.Alpha < 0.5) || !(t.Beta > 0 && t.Beta < 0.5):
		return fmt.Errorf("sprt: alpha=%v and beta=%v must be above 0 and below 0.5", t.Alpha, t.Beta)
	}
	return nil
}

// Bounds are Wald's: the test accepts H0 when the LLR falls to lower and H1
// when it reaches upper.
func (t Test) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// String writes the test as Parse reads it.
func (t Test) String() string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf("elo0=%s,elo1=%s,alpha=%s,beta=%s,model=%s", g(t.Elo0), g(t.Elo1), g(t.Alpha), g(t.Beta), t.Model)
}

// regularized is Fishtest's empirical distribution of pair counts: values
// i/4, probabilities counts/N, with a zero count replaced by 1/1000 so that
// every value has some mass; N is the regularized total.
func regularized(p Pentanomial) (values, probs []float64, n float64) {
	values, probs = make([]float64, 5), make([]float64, 5)
	for i, c := range p {
		x := float64(c)
		if c == 0 {
			x = 1e-3
		}
		probs[i] = x
		n += x
		values[i] = float64(i) / 4
	}
	for i := range probs {
		probs[i] /= n
	}
	return values, probs, n
}

// LLR is the generalized log-likelihood ratio of H1 against H0 for the pairs
// counted (see the package doc); 0 with no pairs.
func (t Test) LLR(p Pentanomial) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	values, probs, n := regularized(p)
	var q0, q1 []float64
	switch t.Model {
	case Logistic:
		q0 = mleMean(values, probs, score.Expected(t.Elo0))
		q1 = mleMean(values, probs, score.Expected(t.Elo1))
	case Normalized:
		// A pair's mean score has σ_game/√2, so its t-value is √2 times a game's.
		q0 = mleT(values, probs, 0.5, t.Elo0/nEloPerT*math.Sqrt2)
		q1 = mleT(values, probs, 0.5, t.Elo1/nEloPerT*math.Sqrt2)
	default:
		panic("sprt: LLR of an unvalidated test")
	}
	var llr float64
	for i, pi := range probs {
		llr += pi * (math.Log(q1[i]) - math.Log(q0[i]))
	}
	return n * llr
}

// mleMean is the distribution on values closest to the empirical probs in
// likelihood whose mean is s: q_i = p_i/(1 + x(a_i - s)), x the root of
// Σ p_i(a_i - s)/(1 + x(a_i - s)) = 0 (Van den Bergh, "Support of the MLE
// for a multinomial", proposition 1.1, as Fishtest's LLRcalc uses it).
func mleMean(values, probs []float64, s float64) []float64 {
	shifted := make([]float64, len(values))
	for i, a := range values {
		shifted[i] = a - s
	}
	x := secular(shifted, probs)
	q := make([]float64, len(values))
	for i, p := range probs {
		q[i] = p / (1 + x*shifted[i])
	}
	return q
}

// mleT is the distribution on values closest to probs in likelihood whose
// t-value (mean - ref)/σ is t. Linearizing the constraint at the current
// estimate gives the secular equation again, with
// b_i = a_i - ref - t·σ·(1 + ((a_i - μ)/σ)²)/2; the fixed point of that
// iteration is the MLE (Van den Bergh, "Normalized Elo: practical
// considerations", section 4.1).
func mleT(values, probs []float64, ref, t float64) []float64 {
	q := make([]float64, len(values))
	for i := range q {
		q[i] = 1 / float64(len(q))
	}
	b := make([]float64, len(values))
	for range 100 {
		mu, v := moments(values, q)
		sigma := math.Sqrt(v)
		for i, a := range values {
			d := (mu - a) / sigma
			b[i] = a - ref - t*sigma*(1+d*d)/2
		}
		x := secular(b, probs)
		change := 0.0
		for i, p := range probs {
			next := p / (1 + x*b[i])
			change = max(change, math.Abs(next-q[i]))
			q[i] = next
		}
		if change < 1e-12 {
			break
		}
	}
	return q
}

// moments are the mean and variance of the distribution probs on values.
func moments(values, probs []float64) (mean, variance float64) {
	for i, p := range probs {
		mean += p * values[i]
	}
	for i, p := range probs {
		d := values[i] - mean
		variance += p * d * d
	}
	return mean, variance
}

// secular solves Σ p_i·b_i/(1 + x·b_i) = 0 for x in (-1/max b, -1/min b),
// where every 1 + x·b_i stays positive. The b_i must take both signs. The
// left side falls strictly from +∞ to -∞ across that interval, so the root
// is unique; Newton's method kept inside a shrinking bracket finds it.
func secular(b, p []float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, v := range b {
		switch {
		case v > 0:
			lo = max(lo, -1/v)
		case v < 0:
			hi = min(hi, -1/v)
		}
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		panic("sprt: the secular equation needs values on both sides of 0")
	}
	f := func(x float64) (fx, dfx float64) {
		for i, v := range b {
			den := 1 + x*v
			fx += p[i] * v / den
			dfx -= p[i] * v * v / (den * den)
		}
		return fx, dfx
	}
	// Stay off the poles, where the sum is infinite.
	width := hi - lo
	lo, hi = lo+width*1e-15, hi-width*1e-15
	x := 0.0
	if x <= lo || x >= hi {
		x = (lo + hi) / 2
	}
	for range 200 {
		fx, dfx := f(x)
		switch {
		case fx == 0:
			return x
		case fx > 0:
			lo = x
		default:
			hi = x
		}
		next := x - fx/dfx
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		if math.Abs(next-x) <= 1e-15*max(1, math.Abs(x)) {
			return next
		}
		x = next
	}
	return x
}

// State is where a sequential test stands.
type State string

const (
	Continue State = "continue"
	H0       State = "H0" // H0 accepted: the change does not gain Elo1
	H1       State = "H1" // H1 accepted: the change gains
)

// Verdict is a test's state after an update.
type Verdict struct {
	State State   `json:"state"`
	LLR   float64 `json:"llr"`
	// Lower and Upper are the bounds the LLR was compared with: Wald's,
	// moved in by the overshoot estimate.
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
}

// Sequence runs a test as a match goes: Update is called with the counts
// after every pair. It keeps Fishtest's data for the overshoot correction,
// which assumes one pair per update.
type Sequence struct {
	Test          Test
	pairs         int
	ref0, m0, sq0 float64 // the LLR's successive minima and their steps
	ref1, m1, sq1 float64 // and maxima
}

// NewSequence starts a sequential test; t must be valid.
func NewSequence(t Test) *Sequence { return &Sequence{Test: t} }

// Update takes the counts of every pair so far, one more than at the last
// call, and returns the verdict. The LLR's new lows (and highs) step down
// (up) by amounts whose second moment over twice the first estimates how
// far a walk oversteps a bound (Siegmund, corollary 8.33, as Fishtest's
// update_SPRT applies it); the bounds are moved in by that much.
func (s *Sequence) Update(p Pentanomial) Verdict {
	t := s.Test
	if n := p.Pairs(); n != s.pairs+1 {
		panic(fmt.Sprintf("sprt: Sequence.Update with %d pairs after %d: one pair at a time", n, s.pairs))
	}
	s.pairs++
	llr := t.LLR(p)
	if llr < s.ref0 {
		d := llr - s.ref0
		s.m0 += d
		s.sq0 += d * d
		s.ref0 = llr
	}
	if llr > s.ref1 {
		d := llr - s.ref1
		s.m1 += d
		s.sq1 += d * d
		s.ref1 = llr
	}
	lower, upper := t.Bounds()
	if s.m0 != 0 {
		lower += -s.sq0 / s.m0 / 2
	}
	if s.m1 != 0 {
		upper -= s.sq1 / s.m1 / 2
	}
	v := Verdict{State: Continue, LLR: llr, Lower: lower, Upper: upper}
	switch {
	case llr < lower:
		v.State = H0
	case llr > upper:
		v.State = H1
	}
	return v
}
