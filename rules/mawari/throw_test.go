package mawari

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func standardRules(t testing.TB) Rules {
	t.Helper()
	r, err := LookupPreset(DefaultPreset)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func distMap(d []MoveProbability) map[string]float64 {
	m := make(map[string]float64)
	for _, e := range d {
		m[e.Move.Key()] += e.Probability
	}
	return m
}

func checkDist(t *testing.T, got []MoveProbability, want map[string]float64) {
	t.Helper()
	gm := distMap(got)
	if len(gm) != len(want) {
		t.Errorf("distribution has moves %v; want %v", gm, want)
	}
	for k, w := range want {
		if math.Abs(gm[k]-w) > 1e-12 {
			t.Errorf("P(%s) = %v; want %v", k, gm[k], w)
		}
	}
}

func TestThrowDistributionHandDerived(t *testing.T) {
	std := standardRules(t)
	with := func(change func(*Rules)) Rules { r := std; change(&r); return r }
	tests := []struct {
		name  string
		rules Rules
		probs Probabilities
		want  map[string]float64
	}{
		// Every piece face up: four faces, 1 point each.
		{"all face", std, Probabilities{Face: 1}, map[string]float64{"4": 1}},
		// Every piece on its side: 4 x 5.
		{"all side", std, Probabilities{Side: 1}, map[string]float64{"20": 1}},
		// Four tips under the 100-point variant.
		{"all point 100", with(func(r *Rules) { r.PointScore = 100 }), Probabilities{Point: 1}, map[string]float64{"400": 1}},
		// All backs: the special score, not 0.
		{"all backs 8", std, Probabilities{Back: 1}, map[string]float64{"8": 1}},
		{"all backs 20", with(func(r *Rules) { r.AllBacksScore = 20 }), Probabilities{Back: 1}, map[string]float64{"20": 1}},
		{"all backs jump", with(func(r *Rules) { r.AllBacksJump = true }), Probabilities{Back: 1}, map[string]float64{"jump": 1}},
		// Fair flat pieces: k faces with probability C(4,k)/16, and no faces means four
		// backs, which score 8.
		{"fair flat", std, Probabilities{Back: 0.5, Face: 0.5},
			map[string]float64{"1": 4.0 / 16, "2": 6.0 / 16, "3": 4.0 / 16, "4": 1.0 / 16, "8": 1.0 / 16}},
		// A spoiled throw scores 0 for the whole throw.
		{"spoil zero", with(func(r *Rules) { r.Spoil = 0.25 }), Probabilities{Face: 1}, map[string]float64{"0": 0.25, "4": 0.75}},
		// ...or moves the piece back by what the pieces show.
		{"spoil back", with(func(r *Rules) { r.Spoil = 0.25; r.SpoilBack = true }), Probabilities{Face: 1}, map[string]float64{"-4": 0.25, "4": 0.75}},
		// Four spoiled backs move back by 0: the all-backs score is for a clean throw.
		{"spoil back all backs", with(func(r *Rules) { r.Spoil = 0.5; r.SpoilBack = true }), Probabilities{Back: 1}, map[string]float64{"0": 0.5, "8": 0.5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkDist(t, tc.rules.ThrowDistribution(tc.probs), tc.want)
		})
	}
}

// The score 8 has two causes under the standard rules: four backs, and one side with three
// faces (5+1+1+1). Its probability is p_b^4 + 4 p_s p_f^3.
func TestThrowScoreEightTwoWays(t *testing.T) {
	p := Probabilities{Back: 0.3, Face: 0.4, Side: 0.3}
	want := math.Pow(0.3, 4) + 4*0.3*math.Pow(0.4, 3)
	got := distMap(standardRules(t).ThrowDistribution(p))["8"]
	if math.Abs(got-want) > 1e-15 {
		t.Errorf("P(8) = %v; want %v", got, want)
	}
}

// bruteForceDistribution is a plain second implementation: every one of the 5^4 ordered
// landings of four distinguishable pieces, with its product probability, scored directly
// from the table of docs/rules.md#mawari-throw.
func bruteForceDistribution(r Rules, p Probabilities) map[string]float64 {
	points := [NumOutcomes]int{0, 1, 5, 10, r.PointScore}
	dist := make(map[string]float64)
	for a := range NumOutcomes {
		for b := range NumOutcomes {
			for c := range NumOutcomes {
				for d := range NumOutcomes {
					prob := p[a] * p[b] * p[c] * p[d]
					sum := points[a] + points[b] + points[c] + points[d]
					var key string
					switch {
					case a+b+c+d == 0 && r.AllBacksJump:
						key = "jump"
					case a+b+c+d == 0:
						key = strconv.Itoa(r.AllBacksScore)
					default:
						key = strconv.Itoa(sum)
					}
					dist[key] += prob * (1 - r.Spoil)
					if r.SpoilBack {
						dist[strconv.Itoa(-sum)] += prob * r.Spoil
					} else {
						dist["0"] += prob * r.Spoil
					}
				}
			}
		}
	}
	for k, v := range dist {
		if v == 0 {
			delete(dist, k)
		}
	}
	return dist
}

func TestThrowDistributionMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	presets := Presets()
	for trial := range 40 {
		var p Probabilities
		sum := 0.0
		for o := range p {
			p[o] = rng.Float64()
			if rng.IntN(4) == 0 {
				p[o] = 0 // exercise impossible outcomes too
			}
			sum += p[o]
		}
		if sum == 0 {
			p[Face], sum = 1, 1
		}
		for o := range p {
			p[o] /= sum
		}
		r := presets[trial%len(presets)].Rules
		r.PointScore = []int{20, 30, 50, 100}[trial%4]
		got := distMap(r.ThrowDistribution(p))
		want := bruteForceDistribution(r, p)
		total := 0.0
		for k, w := range want {
			if math.Abs(got[k]-w) > 1e-12 {
				t.Errorf("trial %d (%v, %v): P(%s) = %v; brute force %v", trial, r, p, k, got[k], w)
			}
		}
		for k, g := range got {
			total += g
			if _, ok := want[k]; !ok {
				t.Errorf("trial %d: move %s (P=%v) not possible by brute force", trial, k, g)
			}
		}
		if math.Abs(total-1) > 1e-12 {
			t.Errorf("trial %d: distribution sums to %v", trial, total)
		}
	}
}

func TestDefaultDistributionSumsToOne(t *testing.T) {
	for _, preset := range Presets() {
		total := 0.0
		for _, e := range preset.Rules.ThrowDistribution(DefaultProbabilities()) {
			if e.Probability <= 0 {
				t.Errorf("%s: move %s has probability %v", preset.Name, e.Move, e.Probability)
			}
			total += e.Probability
		}
		if math.Abs(total-1) > 1e-12 {
			t.Errorf("%s: distribution sums to %v", preset.Name, total)
		}
	}
}

func TestThrowerFrequencies(t *testing.T) {
	r := standardRules(t)
	r.Spoil = 0.1
	p := DefaultProbabilities()
	const n = 200_000
	th := NewThrower(p, r.Spoil, NewRand(7))
	counts := make(map[Move]int)
	for range n {
		counts[r.MoveOf(th.Throw())]++
	}
	for _, e := range r.ThrowDistribution(p) {
		// A binomial count has standard deviation sqrt(n p (1-p)); five of them is a
		// false alarm about once in two million moves checked.
		sd := math.Sqrt(n * e.Probability * (1 - e.Probability))
		if diff := math.Abs(float64(counts[e.Move]) - n*e.Probability); diff > 5*sd+1 {
			t.Errorf("move %s drawn %d times in %d; expected %.1f ± %.1f", e.Move, counts[e.Move], n, n*e.Probability, sd)
		}
		delete(counts, e.Move)
	}
	for m, c := range counts {
		t.Errorf("move %s drawn %d times but has probability 0", m, c)
	}
}

func TestThrowerNeverDrawsImpossible(t *testing.T) {
	// 0.1 + 0.2 + 0.7 is not exactly 1 in floating point; the point must still never appear.
	p := Probabilities{Back: 0.1, Face: 0.2, Side: 0.7}
	th := NewThrower(p, 0, NewRand(3))
	for range 100_000 {
		for _, o := range th.Throw().Faces {
			if o == Upright || o == Point {
				t.Fatalf("drew %s, which has probability 0", o)
			}
		}
	}
}

func TestProbabilitiesErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"0.5,0.5,0,0", "have 4 fields"},
		{"0.5,0.5,0,0,0,0", "have 6 fields"},
		{"0.5,x,0,0,0", `probability of face: "x" is not a number`},
		{"0.6,0.6,0,0,-0.2", "probability of point is -0.2"},
		{"0.5,0.4,0,0,0", "sum to 0.9"},
		{"NaN,1,0,0,0", "probability of back is NaN"},
		{"", "have 1 fields"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := ParseProbabilities(tc.in)
			if err == nil || !strings.HasPrefix(err.Error(), "mawari: ") || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseProbabilities(%q) error %v; want one line starting mawari: containing %q", tc.in, err, tc.want)
			}
		})
	}
	p, err := ParseProbabilities(" 0.45, 0.45,0.085,0.012,0.003")
	if err != nil || p != DefaultProbabilities() {
		t.Errorf("ParseProbabilities(defaults) = %v, %v", p, err)
	}
}

func FuzzParseProbabilities(f *testing.F) {
	for _, s := range []string{"0.45,0.45,0.085,0.012,0.003", "1,0,0,0,0", "0.2,0.2,0.2,0.2,0.2", ",,,,", "1e308,1e308,0,0,0", "-0,1,0,0,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseProbabilities(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mawari: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			return
		}
		sum := 0.0
		for _, v := range p {
			if v < 0 || v > 1+probabilityTolerance {
				t.Errorf("accepted %q with entry %v", s, v)
			}
			sum += v
		}
		if math.Abs(sum-1) > probabilityTolerance {
			t.Errorf("accepted %q summing to %v", s, sum)
		}
		// A valid distribution must give a valid throw distribution.
		total := 0.0
		for _, e := range standardRules(t).ThrowDistribution(p) {
			total += e.Probability
		}
		if math.Abs(total-1) > 1e-5 {
			t.Errorf("throw distribution for %q sums to %v", s, total)
		}
	})
}
