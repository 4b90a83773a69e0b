package sprt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/optimize"

	"github.com/shogilab/shogilab/analysis/score"
)

// fishtest are log-likelihood ratios computed by Fishtest's own code,
// server/fishtest/stats/LLRcalc.py of official-stockfish/fishtest at commit
// b8eecff220b562a0dc2c4e68d1fa02521e06d72c (LLR_logistic and LLR_normalized,
// Python 3.11 with SciPy 1.10.1), for pentanomial counts LL, LD, DD+WL, WD, WW.
var fishtest = []struct {
	counts               Pentanomial
	elo0, elo1           float64
	logistic, normalized float64
}{
	{Pentanomial{10, 20, 40, 20, 10}, 0, 5, -0.034506850952, -0.020709467030},
	{Pentanomial{3, 12, 30, 25, 9}, 0, 10, 1.202393007726, 0.905391950998},
	{Pentanomial{0, 2, 5, 3, 0}, -5, 5, 0.114872473578, 0.057515966049},
	{Pentanomial{1187, 7410, 13475, 7378, 1164}, -3, 1, 2.861527180595, 0.600266073485},
	{Pentanomial{40, 8, 2, 0, 0}, -100, 0, -12.347916458333, -14.889585317880},
}

func TestLLRAgainstFishtest(t *testing.T) {
	for _, c := range fishtest {
		t.Run(fmt.Sprintf("%v,elo0=%g,elo1=%g", c.counts, c.elo0, c.elo1), func(t *testing.T) {
			for _, m := range []struct {
				model Model
				want  float64
			}{{Logistic, c.logistic}, {Normalized, c.normalized}} {
				test := Test{Elo0: c.elo0, Elo1: c.elo1, Alpha: 0.05, Beta: 0.05, Model: m.model}
				if got := test.LLR(c.counts); math.Abs(got-m.want) > 1e-7*max(1, math.Abs(m.want)) {
					t.Errorf("%v [%v, %v] %s: LLR %.12f, Fishtest %.12f", c.counts, c.elo0, c.elo1, m.model, got, m.want)
				}
			}
		})
	}
}

// plainMaxLL is a second, plain implementation of the constrained maximum
// likelihood: it maximizes Σ p_i·log q_i over distributions q on the values
// 0, 1/4, 1/2, 3/4, 1 with a general-purpose optimizer (Nelder-Mead) over
// q1, q2, q3, solving the constraint for q4 (and normalization for q0). For
// logistic Elo the constraint is a mean of s; for normalized Elo a t-value
// (mean - 1/2)/σ of t, a quadratic in q4.
func plainMaxLL(t *testing.T, probs []float64, q4 func(q1, q2, q3 float64) (float64, bool)) float64 {
	t.Helper()
	dist := func(x []float64) ([]float64, bool) {
		y, ok := q4(x[0], x[1], x[2])
		q := []float64{1 - x[0] - x[1] - x[2] - y, x[0], x[1], x[2], y}
		for _, v := range q {
			ok = ok && v > 0
		}
		return q, ok
	}
	f := func(x []float64) float64 {
		q, ok := dist(x)
		if !ok {
			return math.Inf(1)
		}
		var ll float64
		for i, p := range probs {
			ll += p * math.Log(q[i])
		}
		return -ll
	}
	best := math.Inf(1)
	// Several starts, so a start outside the feasible set does not decide.
	for _, x0 := range [][]float64{{probs[1], probs[2], probs[3]}, {0.2, 0.2, 0.2}, {0.1, 0.3, 0.1}, {0.25, 0.25, 0.25}} {
		if math.IsInf(f(x0), 1) {
			continue
		}
		res, err := optimize.Minimize(optimize.Problem{Func: f}, x0,
			&optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-15, Iterations: 200}, MajorIterations: 20000},
			&optimize.NelderMead{})
		if err != nil {
			t.Fatal(err)
		}
		best = min(best, res.F)
	}
	if math.IsInf(best, 1) {
		t.Fatal("no feasible start")
	}
	return -best
}

func TestLLRAgainstPlainOptimizer(t *testing.T) {
	for _, c := range fishtest {
		t.Run(fmt.Sprintf("%v,elo0=%g,elo1=%g", c.counts, c.elo0, c.elo1), func(t *testing.T) {
			_, probs, n := regularized(c.counts)
			for _, model := range []Model{Logistic, Normalized} {
				ll := func(elo float64) float64 {
					if model == Logistic {
						s := score.Expected(elo)
						return plainMaxLL(t, probs, func(q1, q2, q3 float64) (float64, bool) {
							return s - q1/4 - q2/2 - 3*q3/4, true
						})
					}
					tv := elo / (800 / math.Ln10) * math.Sqrt2
					return plainMaxLL(t, probs, func(q1, q2, q3 float64) (float64, bool) {
						// mean = c1 + y, E[a²] = c2 + y with y = q4; solve
						// (c1 + y - 1/2)² = t²·(c2 + y - (c1 + y)²) with mean - 1/2 of t's sign.
						c1, c2 := q1/4+q2/2+3*q3/4, q1/16+q2/4+9*q3/16
						d := c1 - 0.5
						a := 1 + tv*tv
						b := 2*d - tv*tv + 2*tv*tv*c1
						cc := d*d - tv*tv*(c2-c1*c1)
						disc := b*b - 4*a*cc
						if disc < 0 {
							return 0, false
						}
						for _, y := range []float64{(-b + math.Sqrt(disc)) / (2 * a), (-b - math.Sqrt(disc)) / (2 * a)} {
							if (c1+y-0.5)*tv >= 0 && y > 0 {
								return y, true
							}
						}
						return 0, false
					})
				}
				want := n * (ll(c.elo1) - ll(c.elo0))
				test := Test{Elo0: c.elo0, Elo1: c.elo1, Alpha: 0.05, Beta: 0.05, Model: model}
				if got := test.LLR(c.counts); math.Abs(got-want) > 1e-6*max(1, math.Abs(want)) {
					t.Errorf("%v [%v, %v] %s: LLR %.9f, plain optimizer %.9f", c.counts, c.elo0, c.elo1, model, got, want)
				}
			}
		})
	}
}

// TestEstimateByHand: A won 2, drew 1 and lost 1 of 4 unpaired games.
// Score (2 + 1/2)/4 = 0.625; squared deviations 0.390625 + 0.015625 +
// 2·0.140625 = 0.6875, variance 0.6875/4 = 0.171875, standard error
// √(0.171875/4) = 0.207289; interval 0.625 ± 1.959964·0.207289 =
// 0.218719 .. 1 (clipped); LOS Φ(0.125/0.207289) = Φ(0.603024) = 0.726758;
// Elo -400·log10(1/0.625 - 1) = 88.7395.
func TestEstimateByHand(t *testing.T) {
	r := Estimate(Trinomial{Losses: 1, Draws: 1, Wins: 2}.Units())
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"score", r.Score, 0.625}, {"low", r.ScoreLow, 0.218719}, {"high", r.ScoreHigh, 1}, {"los", r.LOS, 0.726758},
		{"elo", r.Elo, 88.7395}, {"stddev", r.StdDev, math.Sqrt(0.171875)}} {
		t.Run(c.name, func(t *testing.T) {
			if math.Abs(c.got-c.want) > 1e-5 {
				t.Errorf("%s %.6f, want %.6f", c.name, c.got, c.want)
			}
		})
	}
	if r.Games != 4 || !math.IsInf(r.EloHigh, 1) {
		t.Errorf("%+v", r)
	}
}

// TestEstimateAgainstFishtest compares with Fishtest's stat_util.get_elo
// (same commit as above), which gives the Elo, half the 95% interval's width
// in Elo, and the LOS of pentanomial counts.
func TestEstimateAgainstFishtest(t *testing.T) {
	for _, c := range []struct {
		counts          Pentanomial
		elo, elo95, los float64
	}{
		{Pentanomial{10, 20, 40, 20, 10}, 0, 37.44205973535754, 0.5},
		{Pentanomial{3, 12, 30, 25, 9}, 55.43977950533744, 38.987631949620216, 0.9977959408136013},
	} {
		t.Run(fmt.Sprint(c.counts), func(t *testing.T) {
			r := Estimate(c.counts.Units())
			if math.Abs(r.Elo-c.elo) > 1e-9 || math.Abs((r.EloHigh-r.EloLow)/2-c.elo95) > 1e-9 || math.Abs(r.LOS-c.los) > 1e-12 {
				t.Errorf("%v: Elo %v ± %v LOS %v; Fishtest %v ± %v LOS %v", c.counts, r.Elo, (r.EloHigh-r.EloLow)/2, r.LOS, c.elo, c.elo95, c.los)
			}
			if r.Games != 2*c.counts.Pairs() {
				t.Errorf("%v: %d games", c.counts, r.Games)
			}
		})
	}
}

// TestEstimateWhitewash: 20 pairs won twice: the variance is 0 and the
// interval is Wilson's for 40 games of 40 won, by hand z² = 3.8415, centre
// (1 + 3.8415/80)/(1 + 3.8415/40) = 0.95620, half-width
// 1.96·√(3.8415/6400)/1.096036 = 0.04381: 0.91239 .. 1.
func TestEstimateWhitewash(t *testing.T) {
	r := Estimate(Pentanomial{0, 0, 0, 0, 20}.Units())
	if r.Score != 1 || math.Abs(r.ScoreLow-0.91239) > 5e-5 || r.ScoreHigh != 1 || r.LOS != 1 || !math.IsNaN(r.NElo) {
		t.Errorf("%+v", r)
	}
	if e := Estimate(Pentanomial{}.Units()); !math.IsNaN(e.Score) || e.Games != 0 {
		t.Errorf("no games: %+v", e)
	}
}

// TestNormalizedElo: pairs of one win and one loss (points 1) and of two
// draws (also 1) have no spread, but {1 point, 2 points} equally does: the
// pair mean is 1/2 or 1, σ_pair = 1/4, per game σ = √2/4; score 3/4;
// nElo = (3/4 - 1/2)/(√2/4) · 800/ln 10 = 245.67.
func TestNormalizedElo(t *testing.T) {
	r := Estimate(Pentanomial{0, 0, 10, 0, 10}.Units())
	if want := 0.25 / (math.Sqrt2 / 4) * 800 / math.Ln10; math.Abs(r.NElo-want) > 1e-9 || math.Abs(want-245.67) > 0.01 {
		t.Errorf("nElo %v, want %v", r.NElo, want)
	}
}

func TestParse(t *testing.T) {
	got, err := Parse("elo0=0, elo1=5,alpha=0.05,beta=0.1,model=Normalized")
	if err != nil || got != (Test{0, 5, 0.05, 0.1, Normalized}) {
		t.Errorf("%+v, %v", got, err)
	}
	if got, err := Parse("elo0=-1.5,elo1=3.5"); err != nil || got != (Test{-1.5, 3.5, 0.05, 0.05, Logistic}) || got.String() != "elo0=-1.5,elo1=3.5,alpha=0.05,beta=0.05,model=logistic" {
		t.Errorf("%+v, %v", got, err)
	}
	for _, c := range []struct{ text, want string }{
		{"elo0=5,elo1=0", "sprt: elo0=5 must be below elo1=0"},
		{"elo0=0,elo1=0", "sprt: elo0=0 must be below elo1=0"},
		{"elo0=0,elo1=5,alpha=0.7", "sprt: alpha=0.7 and beta=0.05 must be above 0 and below 0.5"},
		{"elo0=0,elo1=5,beta=0", "sprt: alpha=0.05 and beta=0 must be above 0 and below 0.5"},
		{"elo0=0", `sprt: "elo0=0" needs elo0 and elo1`},
		{"elo0=0,elo1=x", `sprt: elo1="x" is not a number`},
		{"elo0=0,elo1=5,model=bayes", `sprt: model "bayes" is not logistic or normalized`},
		{"elo0=0,elo1=5,gamma=1", `sprt: unknown key "gamma"`},
		{"elo0=0,elo0=1,elo1=5", "sprt: elo0 given twice"},
		{"elo0=0 elo1=5", `is not a number`},
		{"elo0=NaN,elo1=5", "must be numbers within ±2000"},
		{"", `sprt: "" is not key=value`},
	} {
		t.Run(c.text, func(t *testing.T) {
			_, err := Parse(c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Parse(%q): error %v, want one line with %q", c.text, err, c.want)
			}
		})
	}
}

// TestBounds: Wald's bounds for α = β = 0.05 are ±log 19 = ±2.944.
func TestBounds(t *testing.T) {
	lo, hi := Test{Alpha: 0.05, Beta: 0.05}.Bounds()
	if math.Abs(lo+2.944439) > 1e-6 || math.Abs(hi-2.944439) > 1e-6 {
		t.Errorf("bounds %v, %v", lo, hi)
	}
}

// simulate plays sequential tests on matches of game pairs drawn with a
// known true Elo (each game independently: win s - d/2, draw d, loss
// 1 - s - d/2, s = Expected(elo)) and returns how often each hypothesis was
// accepted and the mean number of pairs.
func simulate(test Test, elo, drawRate float64, runs int, seed uint64) (h0, h1 int, meanPairs float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := score.Expected(elo)
	win, loss := s-drawRate/2, 1-s-drawRate/2
	game := func() float64 {
		x := rng.Float64()
		switch {
		case x < win:
			return 1
		case x < win+loss:
			return 0
		}
		return 0.5
	}
	total := 0
	for range runs {
		seq := NewSequence(test)
		var p Pentanomial
		for {
			p.Add(game() + game())
			v := seq.Update(p)
			if v.State == H0 {
				h0++
				break
			}
			if v.State == H1 {
				h1++
				break
			}
		}
		total += p.Pairs()
	}
	return h0, h1, float64(total) / float64(runs)
}

// TestStoppingRule: with α = 0.05 and β = 0.2, a match whose true Elo is
// elo0 accepts H1 about 5% of the time, and one whose true Elo is elo1
// accepts H0 about 20% of the time. 400 simulated matches each: the
// windows are about four standard errors of a binomial proportion wide.
func TestStoppingRule(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 800 matches")
	}
	test := Test{Elo0: 0, Elo1: 30, Alpha: 0.05, Beta: 0.2, Model: Logistic}
	const runs = 400
	_, h1, pairs0 := simulate(test, test.Elo0, 0.3, runs, 1)
	if rate := float64(h1) / runs; rate < 0.02 || rate > 0.09 {
		t.Errorf("true Elo %v: H1 accepted in %.3f of matches, want about α = 0.05", test.Elo0, rate)
	}
	h0, _, pairs1 := simulate(test, test.Elo1, 0.3, runs, 2)
	if rate := float64(h0) / runs; rate < 0.14 || rate > 0.27 {
		t.Errorf("true Elo %v: H0 accepted in %.3f of matches, want about β = 0.2", test.Elo1, rate)
	}
	t.Logf("mean pairs: %.0f at elo0, %.0f at elo1", pairs0, pairs1)
	// Far from both hypotheses the test is sure and quick.
	h0, h1, _ = simulate(test, 100, 0.3, 50, 3)
	if h1 != 50 {
		t.Errorf("true Elo 100: H1 accepted %d times of 50, H0 %d", h1, h0)
	}
}

// TestStoppingRuleNormalized: the same with bounds in normalized Elo. A
// game's score has σ = √((1-d)/4) at score 1/2 with draw rate d, so a true
// normalized Elo of nElo is the score 1/2 + nElo/(800/ln 10)·σ.
func TestStoppingRuleNormalized(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 600 matches")
	}
	test := Test{Elo0: 0, Elo1: 40, Alpha: 0.1, Beta: 0.1, Model: Normalized}
	const runs = 300
	const draws = 0.3
	sigma := math.Sqrt((1 - draws) / 4)
	elo1 := score.Elo(0.5 + test.Elo1/(800/math.Ln10)*sigma)
	_, h1, _ := simulate(test, 0, draws, runs, 4)
	if rate := float64(h1) / runs; rate < 0.05 || rate > 0.16 {
		t.Errorf("true nElo 0: H1 accepted in %.3f of matches, want about 0.1", rate)
	}
	h0, _, _ := simulate(test, elo1, draws, runs, 5)
	if rate := float64(h0) / runs; rate < 0.05 || rate > 0.16 {
		t.Errorf("true nElo %v: H0 accepted in %.3f of matches, want about 0.1", test.Elo1, rate)
	}
}

func TestPentanomialAdd(t *testing.T) {
	var p Pentanomial
	for _, pts := range []float64{0, 0.5, 1, 1, 1.5, 2, 2} {
		p.Add(pts)
	}
	if p != (Pentanomial{1, 1, 2, 1, 2}) || p.Pairs() != 7 {
		t.Errorf("%v", p)
	}
	defer func() {
		if recover() == nil {
			t.Error("Add(0.75) did not panic")
		}
	}()
	p.Add(0.75)
}
