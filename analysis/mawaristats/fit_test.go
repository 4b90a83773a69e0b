package mawaristats

import (
	"math"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/mawari"
)

// chiSquare1At95 is the 0.95 quantile of the chi-square law with one degree of freedom,
// 1.959964² (the two-sided 95% normal quantile, squared).
const chiSquare1At95 = 3.841458820694124

// binomialDeviance is twice the log-likelihood ratio of a binomial count n of N at its
// estimate n/N against c, written out in the test as a second implementation.
func binomialDeviance(n, total int, c float64) float64 {
	phat := float64(n) / float64(total)
	d := 0.0
	if n > 0 {
		d += float64(n) * math.Log(phat/c)
	}
	if n < total {
		d += float64(total-n) * math.Log((1-phat)/(1-c))
	}
	return 2 * d
}

func TestFitOutcomeCounts(t *testing.T) {
	counts := Counts{Kind: OutcomeCounts, Outcomes: [mawari.NumOutcomes]int{90, 88, 17, 5, 0}}
	const total = 200
	fit, err := FitCounts(counts, preset(t, "standard"), 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Observations != total || fit.Kind != OutcomeCounts {
		t.Errorf("fit of %d %s counts; want %d outcome counts", fit.Observations, fit.Kind, total)
	}
	for o, e := range fit.Estimates {
		n := counts.Outcomes[o]
		// The multinomial estimate is the observed share.
		if want := float64(n) / total; math.Abs(e.P-want) > 1e-15 {
			t.Errorf("%s: estimate %v; want %v", e.Outcome, e.P, want)
		}
		// Profile likelihood for one multinomial cell is the binomial one, so each interior
		// bound is where the binomial deviance reaches the chi-square quantile.
		if n > 0 {
			if d := binomialDeviance(n, total, e.Lower); math.Abs(d-chiSquare1At95) > 1e-6 {
				t.Errorf("%s: deviance at the lower bound %v is %v; want %v", e.Outcome, e.Lower, d, chiSquare1At95)
			}
		}
		if d := binomialDeviance(n, total, e.Upper); math.Abs(d-chiSquare1At95) > 1e-6 {
			t.Errorf("%s: deviance at the upper bound %v is %v; want %v", e.Outcome, e.Upper, d, chiSquare1At95)
		}
	}
	// An outcome never seen in N: the deviance is -2N·log(1-c), so the upper bound is
	// 1 - exp(-chi²/(2N)), about 1.92/N, and the lower bound is 0.
	point := fit.Estimates[mawari.Point]
	if want := 1 - math.Exp(-chiSquare1At95/(2*total)); point.Lower != 0 || math.Abs(point.Upper-want) > 1e-9 {
		t.Errorf("point never seen: [%v, %v]; want [0, %v]", point.Lower, point.Upper, want)
	}
}

// With counts exactly proportional to a known throw distribution the likelihood is
// maximized at the generating probabilities, whatever the rules, so the fit must recover
// them (up to the rounding of the counts and the optimizer's tolerance), with intervals
// that contain them.
func TestFitScoreCountsRecoversProbabilities(t *testing.T) {
	truth := mawari.Probabilities{0.4, 0.35, 0.15, 0.07, 0.03}
	for _, name := range []string{"standard", "jump"} {
		t.Run(name, func(t *testing.T) {
			r := preset(t, name)
			counts := Counts{Kind: ScoreCounts, Scores: map[string]int{}}
			for _, e := range r.ThrowDistribution(truth) {
				counts.Scores[e.Move.Key()] = int(math.Round(e.Probability * 1e6))
			}
			fit, err := FitCounts(counts, r, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			for o, e := range fit.Estimates {
				if math.Abs(e.P-truth[o]) > 1e-3 {
					t.Errorf("%s: %s estimated %v; want %v", name, e.Outcome, e.P, truth[o])
				}
				if !(e.Lower <= truth[o] && truth[o] <= e.Upper) || !(e.Lower < e.P && e.P < e.Upper) {
					t.Errorf("%s: %s interval [%v, %v] around %v misses %v", name, e.Outcome, e.Lower, e.Upper, e.P, truth[o])
				}
			}
		})
	}
}

// Under the standard rules a score of 8 is four backs or a side and three faces. Throws
// of pieces that only ever show back or face score 1 to 4 or 8, and four backs (8) is the
// only way to score 8 then, so observing 8 as often as four backs should happen must not
// be read as sides: the fit puts the side probability at zero.
func TestFitScoreCountsSeparatesEight(t *testing.T) {
	// Fair flat pieces: P(k faces) = C(4,k)/16, four backs scoring 8.
	counts := Counts{Kind: ScoreCounts, Scores: map[string]int{"1": 4000, "2": 6000, "3": 4000, "4": 1000, "8": 1000}}
	fit, err := FitCounts(counts, preset(t, "standard"), 0.95)
	if err != nil {
		t.Fatal(err)
	}
	want := mawari.Probabilities{0.5, 0.5, 0, 0, 0}
	for o, e := range fit.Estimates {
		if math.Abs(e.P-want[o]) > 2e-3 {
			t.Errorf("%s estimated %v; want %v", e.Outcome, e.P, want[o])
		}
	}
}

func TestFitErrors(t *testing.T) {
	r := preset(t, "standard")
	_, err := FitCounts(Counts{Kind: ScoreCounts, Scores: map[string]int{"400": 3, "2": 1}}, r, 0.95)
	if err == nil || !strings.HasPrefix(err.Error(), "mawaristats: score 400 cannot be thrown") {
		t.Errorf("impossible score: %v", err)
	}
	_, err = FitCounts(Counts{Kind: OutcomeCounts, Outcomes: [5]int{1}}, r, 1.5)
	if err == nil || !strings.Contains(err.Error(), "confidence level 1.5") {
		t.Errorf("bad level: %v", err)
	}
	_, err = FitCounts(Counts{Kind: OutcomeCounts}, r, 0.95)
	if err == nil || !strings.Contains(err.Error(), "no observations") {
		t.Errorf("no data: %v", err)
	}
}

func TestReadCounts(t *testing.T) {
	c, err := ReadCounts(strings.NewReader("outcome,count\n# a comment\nback,90\n Face , 88\nside,17\n"), "ok.csv")
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != OutcomeCounts || c.Outcomes != [5]int{90, 88, 17, 0, 0} {
		t.Errorf("read %+v", c)
	}
	c, err = ReadCounts(strings.NewReader("score,count\n12,3\njump,2\n8,0\n"), "scores.csv")
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != ScoreCounts || len(c.Scores) != 3 || c.Scores["12"] != 3 || c.Scores["jump"] != 2 {
		t.Errorf("read %+v", c)
	}
	bad := []struct{ in, want string }{
		{"", "mawaristats: f.csv is empty"},
		{"what,count\n", "mawaristats: f.csv line 1: header \"what,count\""},
		{"outcome,number\n", "mawaristats: f.csv line 1: second column \"number\""},
		{"outcome,count\nback,x\n", "mawaristats: f.csv line 2: count \"x\" is not a non-negative integer"},
		{"outcome,count\nback,-3\n", "line 2: count \"-3\""},
		{"outcome,count\nedge,3\n", "line 2: unknown outcome \"edge\""},
		{"outcome,count\nback,3\nface,1\nback,2\n", "line 4: outcome \"back\" listed twice"},
		{"outcome,count\nback,3,4\n", "mawaristats: f.csv line 2: wrong number of fields"},
		{"outcome,count\nback,0\n", "mawaristats: f.csv has no observations"},
		{"score,count\nlots,3\n", "line 2: score \"lots\" is not an integer or jump"},
	}
	for _, tc := range bad {
		t.Run(tc.want, func(t *testing.T) {
			_, err := ReadCounts(strings.NewReader(tc.in), "f.csv")
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("ReadCounts(%q) error %v; want one line containing %q", tc.in, err, tc.want)
			}
		})
	}
}

func FuzzReadCounts(f *testing.F) {
	for _, s := range []string{"outcome,count\nback,90\nface,88\n", "score,count\n12,3\njump,1\n", "outcome,count\n\"back\n", "score,count\n1,99999999999999999999\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ReadCounts(strings.NewReader(s), "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mawaristats: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			return
		}
		if c.Total() <= 0 {
			t.Errorf("accepted %q with %d observations", s, c.Total())
		}
	})
}
