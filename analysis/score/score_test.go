package score

import (
	"fmt"
	"math"
	"testing"

	"github.com/shogilab/shogilab/record"
)

// TestWilsonPublished checks values published for the Wilson interval at
// z = 1.96: 50/100 gives [0.4038, 0.5962] and 0/10 gives [0, 0.2775]
// (Newcombe, "Two-sided confidence intervals for the single proportion",
// Statistics in Medicine 17, 1998, table I, method 3).
func TestWilsonPublished(t *testing.T) {
	for _, c := range []struct {
		p      float64
		n      int
		lo, hi float64
	}{
		{0.5, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{1, 10, 0.7225, 1},
		{81.0 / 263, 263, 0.2553, 0.3662}, // Newcombe's 81/263
	} {
		t.Run(fmt.Sprintf("p=%g,n=%d", c.p, c.n), func(t *testing.T) {
			lo, hi := Wilson(c.p, c.n, 1.96)
			if math.Abs(lo-c.lo) > 5e-5 || math.Abs(hi-c.hi) > 5e-5 {
				t.Errorf("Wilson(%v, %d) = [%.4f, %.4f]; want [%.4f, %.4f]", c.p, c.n, lo, hi, c.lo, c.hi)
			}
		})
	}
}

// TestWilsonIsInvertedScoreTest checks the definition Wilson inverted: the
// bounds are the proportions q where the score test is at its critical
// value, (p - q)² = z² q(1-q)/n.
func TestWilsonIsInvertedScoreTest(t *testing.T) {
	for _, n := range []int{1, 7, 40, 1000} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			for _, p := range []float64{0.1, 0.37, 0.5, 0.9} {
				lo, hi := Wilson(p, n, Z95)
				for _, q := range []float64{lo, hi} {
					lhs := (p - q) * (p - q)
					rhs := Z95 * Z95 * q * (1 - q) / float64(n)
					if math.Abs(lhs-rhs) > 1e-12 {
						t.Errorf("n=%d p=%v bound %v: (p-q)² = %v but z²q(1-q)/n = %v", n, p, q, lhs, rhs)
					}
				}
				if !(lo < p && p < hi) {
					t.Errorf("n=%d: [%v, %v] does not contain %v", n, lo, hi, p)
				}
			}
		})
	}
}

// TestWilsonEnds: at p = 0 and p = 1 the bound on that side is exactly 0 or 1.
func TestWilsonEnds(t *testing.T) {
	for _, n := range []int{1, 3, 40, 1000} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			if lo, _ := Wilson(0, n, Z95); lo != 0 {
				t.Errorf("Wilson(0, %d) low %v", n, lo)
			}
			if _, hi := Wilson(1, n, Z95); hi != 1 {
				t.Errorf("Wilson(1, %d) high %v", n, hi)
			}
		})
	}
}

func TestZ95(t *testing.T) {
	if math.Abs(Z95-1.959963984540054) > 1e-12 {
		t.Errorf("Z95 = %v", Z95)
	}
}

func TestTally(t *testing.T) {
	var tl Tally
	for _, r := range []record.Result{record.Sente, record.Sente, record.Gote, record.Draw} {
		tl.Add(r)
	}
	if tl != (Tally{2, 1, 1}) || tl.Games() != 4 {
		t.Fatalf("tally %+v", tl)
	}
	// (2 + 1/2) / 4 by hand.
	if tl.Score() != 0.625 {
		t.Errorf("score %v; want 0.625", tl.Score())
	}
	lo, hi := tl.Interval()
	wlo, whi := Wilson(0.625, 4, Z95)
	if lo != wlo || hi != whi {
		t.Errorf("interval [%v, %v]; want [%v, %v]", lo, hi, wlo, whi)
	}
	share, slo, shi := tl.Share(tl.SenteWins)
	if share != 0.5 || slo >= 0.5 || shi <= 0.5 {
		t.Errorf("share %v [%v, %v]", share, slo, shi)
	}
	var u Tally
	u.Merge(tl)
	u.Merge(tl)
	if u != (Tally{4, 2, 2}) {
		t.Errorf("merge %+v", u)
	}
	var empty Tally
	if !math.IsNaN(empty.Score()) {
		t.Errorf("empty score %v", empty.Score())
	}
	if lo, hi := empty.Interval(); lo != 0 || hi != 1 {
		t.Errorf("empty interval [%v, %v]", lo, hi)
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"p>1":    func() { Wilson(1.5, 3, Z95) },
		"n<0":    func() { Wilson(0.5, -1, Z95) },
		"result": func() { var tl Tally; tl.Add("white") },
		"share":  func() { var tl Tally; tl.Share(1) },
		"elo":    func() { Elo(math.NaN()) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

// TestElo checks the logistic Elo against values worked by hand:
// -400·log10(1/0.75 - 1) = 400·log10(3) = 190.85, and 0.5 is 0;
// 1/(1 + 10^(-100/400)) = 1/(1 + 0.56234) = 0.64006.
func TestElo(t *testing.T) {
	for _, c := range []struct{ s, elo float64 }{{0.5, 0}, {0.75, 190.849}, {0.25, -190.849}, {0.64006, 100}} {
		t.Run(fmt.Sprintf("s=%g", c.s), func(t *testing.T) {
			if got := Elo(c.s); math.Abs(got-c.elo) > 0.01 {
				t.Errorf("Elo(%v) = %v, want %v", c.s, got, c.elo)
			}
			if got := Expected(c.elo); math.Abs(got-c.s) > 1e-5 {
				t.Errorf("Expected(%v) = %v, want %v", c.elo, got, c.s)
			}
		})
	}
	if !math.IsInf(Elo(0), -1) || !math.IsInf(Elo(1), 1) || math.Signbit(Elo(0.5)) {
		t.Errorf("Elo(0), Elo(1), Elo(0.5) = %v, %v, %v", Elo(0), Elo(1), Elo(0.5))
	}
}
