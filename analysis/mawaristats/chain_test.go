package mawaristats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/mawari"
)

func preset(t testing.TB, name string) mawari.Rules {
	t.Helper()
	r, err := mawari.LookupPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// randomProbabilities draws landing probabilities with every outcome possible.
func randomProbabilities(rng *rand.Rand) mawari.Probabilities {
	var p mawari.Probabilities
	sum := 0.0
	for o := range p {
		p[o] = 0.01 + rng.Float64()
		sum += p[o]
	}
	for o := range p {
		p[o] /= sum
	}
	return p
}

// TestMeanTurnsRenewal checks the exact mean against a value derived by hand.
//
// Under exact-corner promotion only the piece's residue r = position mod 8 matters (the
// corners are the squares with r = 0), and a turn moves it by the throw's move s:
// r -> r+s mod 8. That is a random walk on the group Z_8. Its transition matrix is doubly
// stochastic, so the uniform distribution pi(r) = 1/8 is stationary, and when the moves
// generate Z_8 (for instance when a score of 1, 5 or any odd number is possible) the walk
// is irreducible and pi is its only stationary law.
//
// A turn is a corner stop when s > 0 and r+s = 0 mod 8. Under pi its probability is
// sum_r (1/8)·P(s > 0, s = -r mod 8) = P(s > 0)/8: every forward move ends on a corner
// from exactly one residue of eight. By the ergodic theorem the long-run rate of corner
// stops is therefore P(s > 0)/8. After every stop the residue is 0 again, which is also
// where the piece starts, so the stops are renewals, and by the renewal-reward theorem the
// mean time between them (and to the first) is 8/P(s > 0).
//
// A pawn needs one stop for each of the six promotions to king and one for the king's
// winning stop: 7 stops, so E[turns] = 7·8/P(s > 0) = 56/P(s > 0). Under the standard
// rules four backs score 8, so every clean throw moves the piece and P(s > 0) = 1:
// E[turns] = 56, whatever the landing probabilities that make every residue reachable. A spoiled throw (probability q)
// scores 0 or moves back, never a stop, so E[turns] = 56/(1-q). The gold step adds a
// rung: 8 stops, 64 turns. The point and all-backs scores change only which residues a
// throw reaches, not the count.
//
// When the moves generate only a subgroup H of Z_8 the same argument runs on H, where the
// stationary law is uniform on |H| residues: E[turns] = 7·|H|/P(s > 0). With faces and
// sides only, every throw scores 4, 8, 12, 16 or 20, all 0 or 4 mod 8, so |H| = 2 and
// E[turns] = 14.
func TestMeanTurnsRenewal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	type probsCase struct {
		p        mawari.Probabilities
		subgroup float64 // |H|
	}
	probs := []probsCase{
		{mawari.DefaultProbabilities(), 8},
		{mawari.Probabilities{mawari.Back: 0.5, mawari.Face: 0.5}, 8},
		{mawari.Probabilities{mawari.Back: 0.3, mawari.Side: 0.7}, 8}, // 5 generates Z_8
		{mawari.Probabilities{mawari.Face: 0.2, mawari.Side: 0.8}, 2},
	}
	for range 4 {
		probs = append(probs, probsCase{randomProbabilities(rng), 8})
	}
	std := preset(t, "standard")
	with := func(change func(*mawari.Rules)) mawari.Rules { r := std; change(&r); return r }
	cases := []struct {
		name  string
		rules mawari.Rules
		// stopsPerMove is the number of corner stops to win over P(s > 0).
		stopsPerMove float64
	}{
		{"standard", std, 7},
		{"three players", with(func(r *mawari.Rules) { r.Players = 3 }), 7},
		{"point 100, all backs 20", preset(t, "generous"), 7},
		{"gold step", preset(t, "gold"), 8},
		{"spoil 0.2 scoring zero", with(func(r *mawari.Rules) { r.Spoil = 0.2 }), 7 / 0.8},
		{"spoil 0.05 moving back", preset(t, "table"), 7 / 0.95},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, pc := range probs {
				p := pc.p
				want := tc.stopsPerMove * pc.subgroup
				a, err := Analyze(tc.rules, p)
				if err != nil {
					t.Fatalf("%s, %v: %v", tc.name, p, err)
				}
				if math.Abs(a.MeanTurns-want) > 1e-9*want {
					t.Errorf("%s, %v: mean turns %.12g; want %.12g", tc.name, p, a.MeanTurns, want)
				}
				// The distribution, summed to its tail, must give the same mean.
				if m := a.Turns.Mean(); math.Abs(m-want) > 1e-6*want {
					t.Errorf("%s, %v: mean of the distribution %.12g; want %.12g", tc.name, p, m, want)
				}
			}
		})
	}
}

// Deterministic throws give deterministic games, counted by hand.
func TestDeterministicTurns(t *testing.T) {
	lap := preset(t, "lap")
	cases := []struct {
		name  string
		rules mawari.Rules
		probs mawari.Probabilities
		turns int
	}{
		// Always 4: a corner every second throw, 7 stops.
		{"all faces", preset(t, "standard"), mawari.Probabilities{mawari.Face: 1}, 14},
		// Always 20 = 4 mod 8: the same.
		{"all sides", preset(t, "standard"), mawari.Probabilities{mawari.Side: 1}, 14},
		// Always 8: a corner every throw.
		{"all backs", preset(t, "standard"), mawari.Probabilities{mawari.Back: 1}, 7},
		// Always 4 by laps: 7 laps of 32 squares at 4 a throw.
		{"all faces by laps", lap, mawari.Probabilities{mawari.Face: 1}, 56},
		// Always 20 by laps: 7 laps are 224 squares, reached on throw ceil(224/20) = 12.
		{"all sides by laps", lap, mawari.Probabilities{mawari.Side: 1}, 12},
		// Always a jump to the next corner, then the corner jump: two stops a throw, so
		// after three throws the pawn is king and the fourth wins.
		{"all backs with jumps", preset(t, "jump"), mawari.Probabilities{mawari.Back: 1}, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Analyze(tc.rules, tc.probs)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if a.MeanTurns != float64(tc.turns) && math.Abs(a.MeanTurns-float64(tc.turns)) > 1e-9 {
				t.Errorf("%s: mean %v; want %d", tc.name, a.MeanTurns, tc.turns)
			}
			if a.SDTurns > 1e-6 {
				t.Errorf("%s: sd %v; want 0", tc.name, a.SDTurns)
			}
			if len(a.Turns.PMF) != tc.turns+1 || a.Turns.PMF[tc.turns] != 1 {
				t.Errorf("%s: distribution %v; want all mass on %d", tc.name, a.Turns.PMF, tc.turns)
			}
			// Every player needs the same number of turns, so the first player always wins, in
			// that round.
			if a.Race.WinProbability[0] != 1 || a.MeanRounds() != float64(tc.turns) {
				t.Errorf("%s: race %+v; want seat 0 always winning in round %d", tc.name, a.Race, tc.turns)
			}
		})
	}
}

// residueDP is a plain second implementation of the standard rules' turn distribution: it
// tracks (stops made, residue mod 8) directly, without mawari.Rules.Advance or Chain.
func residueDP(r mawari.Rules, p mawari.Probabilities, maxTurns int) []float64 {
	stops := len(r.Ladder())
	dist := r.ThrowDistribution(p)
	cur := make([][8]float64, stops)
	cur[0][0] = 1
	pmf := make([]float64, maxTurns+1)
	for turn := 1; turn <= maxTurns; turn++ {
		next := make([][8]float64, stops)
		for k := range stops {
			for res := range 8 {
				mass := cur[k][res]
				if mass == 0 {
					continue
				}
				for _, e := range dist {
					s := e.Move.Steps
					newRes := ((res+s)%8 + 8) % 8
					if s > 0 && newRes == 0 {
						if k+1 == stops {
							pmf[turn] += mass * e.Probability
						} else {
							next[k+1][0] += mass * e.Probability
						}
						continue
					}
					next[k][newRes] += mass * e.Probability
				}
			}
		}
		cur = next
	}
	return pmf
}

func TestTurnDistributionMatchesResidueDP(t *testing.T) {
	for _, name := range []string{"standard", "gold", "table", "generous"} {
		t.Run(name, func(t *testing.T) {
			r := preset(t, name)
			p := mawari.DefaultProbabilities()
			a, err := Analyze(r, p)
			if err != nil {
				t.Fatal(err)
			}
			want := residueDP(r, p, 200)
			for turn := 1; turn <= 200; turn++ {
				got := 0.0
				if turn < len(a.Turns.PMF) {
					got = a.Turns.PMF[turn]
				}
				if math.Abs(got-want[turn]) > 1e-14 {
					t.Errorf("%s: P(T=%d) = %v; residue DP %v", name, turn, got, want[turn])
				}
			}
		})
	}
}

// For a geometric T with P(T = t) = q(1-q)^(t-1), seat i of n wins with probability
// q(1-q)^i / (1-(1-q)^n): the first success in a sequence of trials taken in turn. The
// game ends in round t with probability (1-(1-q)^n)·(1-q)^(n(t-1)), so its mean round is
// 1/(1-(1-q)^n).
func TestNewRaceGeometric(t *testing.T) {
	const q = 0.1
	var d Distribution
	d.PMF = []float64{0}
	left := 1.0
	for left > 1e-16 {
		d.PMF = append(d.PMF, left*q)
		left *= 1 - q
	}
	d.Tail = left
	for n := 2; n <= 4; n++ {
		race := NewRace(d, n)
		all := 1 - math.Pow(1-q, float64(n))
		for seat, got := range race.WinProbability {
			want := q * math.Pow(1-q, float64(seat)) / all
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("n=%d seat %d: P(win) %v; want %v", n, seat, got, want)
			}
		}
		if got, want := race.Rounds.Mean(), 1/all; math.Abs(got-want) > 1e-9 {
			t.Errorf("n=%d: mean round %v; want %v", n, got, want)
		}
	}
	// The median of a geometric law: the smallest t with 1-(1-q)^t >= 1/2, t = 7 for q = 0.1
	// (0.9^6 = 0.531, 0.9^7 = 0.478).
	if got := d.Quantile(0.5); got != 7 {
		t.Errorf("median %d; want 7", got)
	}
	if got := d.CDF(7); math.Abs(got-(1-math.Pow(0.9, 7))) > 1e-12 {
		t.Errorf("CDF(7) = %v; want %v", got, 1-math.Pow(0.9, 7))
	}
}

func TestWinProbabilitiesSumToOne(t *testing.T) {
	for _, pr := range mawari.Presets() {
		for players := 2; players <= 4; players++ {
			r := pr.Rules
			r.Players = players
			a, err := Analyze(r, mawari.DefaultProbabilities())
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for seat, p := range a.Race.WinProbability {
				sum += p
				if seat > 0 && p > a.Race.WinProbability[seat-1] {
					t.Errorf("%s, %d players: seat %d wins more often than seat %d", pr.Name, players, seat, seat-1)
				}
			}
			if math.Abs(sum-1) > 1e-10 {
				t.Errorf("%s, %d players: win probabilities sum to %v", pr.Name, players, sum)
			}
		}
	}
}

// TestExactAgreesWithSimulation compares the chain with mawari.Play. Each simulated
// quantity is a mean of n independent draws, so it lies within z standard errors of the
// exact value except with probability about 2·(1-Phi(z)); z = 4.5 makes a false alarm
// about one in 150,000 per comparison.
func TestExactAgreesWithSimulation(t *testing.T) {
	const games = 8_000
	const z = 4.5
	cases := []struct {
		preset  string
		players int
	}{{"standard", 3}, {"lap", 2}, {"jump", 4}, {"table", 2}}
	for i, tc := range cases {
		t.Run(fmt.Sprintf("%s/%d-players", tc.preset, tc.players), func(t *testing.T) {
			r := preset(t, tc.preset)
			r.Players = tc.players
			p := mawari.DefaultProbabilities()
			a, err := Analyze(r, p)
			if err != nil {
				t.Fatal(err)
			}
			sim, err := Simulate(r, p, games, uint64(1000*i), nil)
			if err != nil {
				t.Fatal(err)
			}
			for seat, f := range sim.WinFrequency() {
				pw := a.Race.WinProbability[seat]
				if tol := z * math.Sqrt(pw*(1-pw)/games); math.Abs(f-pw) > tol {
					t.Errorf("%s, %d players: seat %d won %.4f of games; exact %.4f ± %.4f", tc.preset, tc.players, seat, f, pw, tol)
				}
			}
			mean, _ := sim.MeanTurns()
			if tol := z * a.SDTurns / math.Sqrt(games); math.Abs(mean-a.MeanTurns) > tol {
				t.Errorf("%s: simulated mean turns %.3f; exact %.3f ± %.3f", tc.preset, mean, a.MeanTurns, tol)
			}
			rounds, se := sim.MeanRounds()
			if math.Abs(rounds-a.MeanRounds()) > z*se {
				t.Errorf("%s, %d players: simulated mean round %.3f ± %.3f; exact %.3f", tc.preset, tc.players, rounds, se, a.MeanRounds())
			}
		})
	}
}

func TestCheckWinReachable(t *testing.T) {
	// A hand-made chain whose second state loops on itself forever.
	c := &Chain{
		rules:  preset(t, "standard"),
		states: []mawari.Piece{{}, {Rung: 2, Progress: 3}},
		steps:  [][]transition{{{to: 1, probability: 0.5}}, {{to: 1, probability: 1}}},
		win:    []float64{0.5, 0},
	}
	err := c.checkWinReachable()
	if err == nil || !strings.Contains(err.Error(), "knight 3 squares from its corner can never win") {
		t.Errorf("checkWinReachable = %v", err)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	r := preset(t, "standard")
	if _, err := Analyze(r, mawari.Probabilities{mawari.Back: 0.5, mawari.Face: 0.6}); err == nil || !strings.HasPrefix(err.Error(), "mawari: probabilities sum to 1.1") {
		t.Errorf("bad probabilities: %v", err)
	}
	r.Players = 1
	if _, err := Analyze(r, mawari.DefaultProbabilities()); err == nil || !strings.Contains(err.Error(), "1 players") {
		t.Errorf("bad players: %v", err)
	}
	if _, err := Simulate(preset(t, "standard"), mawari.DefaultProbabilities(), 0, 1, nil); err == nil || !strings.HasPrefix(err.Error(), "mawaristats: 0 games") {
		t.Errorf("no games: %v", err)
	}
}

func BenchmarkAnalyze(b *testing.B) {
	for _, name := range []string{"standard", "lap"} {
		r := preset(b, name)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Analyze(r, mawari.DefaultProbabilities()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSimulateGame(b *testing.B) {
	r := preset(b, "standard")
	p := mawari.DefaultProbabilities()
	var throws int
	for b.Loop() {
		sim, err := Simulate(r, p, 100, uint64(throws), nil)
		if err != nil {
			b.Fatal(err)
		}
		throws += sim.GameThrows + sim.SoloThrows
	}
	b.ReportMetric(float64(throws)/b.Elapsed().Seconds(), "throws/s")
}

// TestStuckProbabilitiesRefused: probabilities under which a player can stay stuck for
// millions of throws (a face, the only way on from some states, once in a million) are
// refused after MaxTurns turns instead of running for minutes; the default estimates stay
// far within the bound.
func TestStuckProbabilitiesRefused(t *testing.T) {
	r := preset(t, "standard")
	p, err := mawari.ParseProbabilities("0.999999,0.000001,0,0,0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Analyze(r, p); err == nil || !strings.Contains(err.Error(), "stuck") {
		t.Errorf("0.999999,0.000001,0,0,0: %v", err)
	}
	a, err := Analyze(r, mawari.DefaultProbabilities())
	if err != nil || len(a.Turns.PMF) > MaxTurns/100 {
		t.Errorf("default probabilities: %d turns, %v", len(a.Turns.PMF), err)
	}
	t.Logf("default probabilities: %d turns to a tail of %g", len(a.Turns.PMF), DefaultTail)
}
