package ratings

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/shogilab/shogilab/analysis/internal/synthetic"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/record"
)

var natToElo = 400 / math.Log(10)

func game(sente, gote string, r record.Result) *record.Game {
	return &record.Game{Result: r, Players: record.Players{
		Sente: record.Player{Name: sente, Kind: record.KindMCTS},
		Gote:  record.Player{Name: gote, Kind: record.KindMCTS}}}
}

// match plays a against b: wins, draws, losses from a's side, colours
// alternating.
func match(c *Collector, a, b string, wins, draws, losses int) {
	i := 0
	add := func(n int, aResult record.Result) {
		for range n {
			if i%2 == 0 {
				c.Add(game(a, b, aResult))
			} else {
				c.Add(game(b, a, map[record.Result]record.Result{record.Sente: record.Gote, record.Gote: record.Sente, record.Draw: record.Draw}[aResult]))
			}
			i++
		}
	}
	add(wins, record.Sente)
	add(draws, record.Draw)
	add(losses, record.Gote)
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.9g; want %.9g", what, got, want)
	}
}

func fit(t *testing.T, c *Collector, opts Options) *Fit {
	t.Helper()
	res, err := c.Fit(opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestTwoPlayersNoDraws: with no draws every model is Bradley-Terry and the
// difference is -400·log10(1/s - 1) from the score alone; the standard
// error of the difference is that of a log-odds, sqrt(1/(N s (1-s))) nats.
func TestTwoPlayersNoDraws(t *testing.T) {
	c := NewCollector()
	match(c, "A", "B", 7, 0, 3)
	s := 0.7
	diff := -400 * math.Log10(1/s-1)
	se := natToElo / math.Sqrt(10*s*(1-s))
	for _, m := range []Model{Davidson, HalfPoint} {
		t.Run(string(m), func(t *testing.T) {
			res := fit(t, c, Options{Model: m})
			a, b := res.Players[0], res.Players[1]
			if a.Name != "A" || b.Name != "B" {
				t.Fatalf("%s: order %s, %s", m, a.Name, b.Name)
			}
			near(t, string(m)+" A", a.Elo, diff/2, 1e-6)
			near(t, string(m)+" B", b.Elo, -diff/2, 1e-6)
			// Mean anchored: each rating is ±d/2, so its error is half the difference's.
			near(t, string(m)+" se", a.StdErr, se/2, 1e-6)
			near(t, string(m)+" interval", a.Interval[1]-a.Interval[0], 2*1.959963984540054*se/2, 1e-5)
			near(t, string(m)+" LOS", res.LOS[0][1], distuv.UnitNormal.CDF(diff/se), 1e-9)
			near(t, string(m)+" LOS sym", res.LOS[0][1]+res.LOS[1][0], 1, 1e-12)
			if a.Wins != 7 || a.Losses != 3 || a.Games != 10 || a.Score != s {
				t.Errorf("%s: counts %+v", m, a)
			}
		})
	}
}

// TestSmallFileTwoPlayers uses ../testdata/small.jsonl, where alpha scores
// 4 wins, 1 draw, 2 losses against beta (counted by hand in its README).
func TestSmallFileTwoPlayers(t *testing.T) {
	c := NewCollector()
	if _, err := selection.Stream([]string{"../testdata/small.jsonl"}, selection.Filter{}, selection.Options{},
		func(g *record.Game) error { c.Add(g); return nil }); err != nil {
		t.Fatal(err)
	}
	// Davidson with two players is saturated: it reproduces the three
	// frequencies, so π_a/π_b = W/L and ν = D/sqrt(W·L); the difference's
	// variance is that of the log-odds ln(W/L), 1/W + 1/L.
	res := fit(t, c, Options{})
	diff := 400 * math.Log10(4.0/2)
	near(t, "Davidson alpha", res.Players[0].Elo, diff/2, 1e-6)
	near(t, "Davidson nu", res.DrawParameter, 1/math.Sqrt(8), 1e-7)
	near(t, "Davidson se", res.Players[0].StdErr, natToElo*math.Sqrt(1.0/4+1.0/2)/2, 1e-6)
	if res.Players[0].Name != "alpha" || res.Players[0].Draws != 1 || res.Players[1].Wins != 2 {
		t.Errorf("players %+v", res.Players)
	}
	// Half points: s = 4.5/7 and the difference is -400·log10(1/s - 1).
	res = fit(t, c, Options{Model: HalfPoint})
	s := 4.5 / 7
	near(t, "half-point alpha", res.Players[0].Elo, -400*math.Log10(1/s-1)/2, 1e-6)
	near(t, "half-point se", res.Players[0].StdErr, natToElo/math.Sqrt(7*s*(1-s))/2, 1e-6)
	// Anchored on alpha: alpha is 0 exactly, beta is the whole difference.
	res = fit(t, c, Options{Model: HalfPoint, Anchor: "alpha"})
	near(t, "anchored alpha", res.Players[0].Elo, 0, 1e-12)
	near(t, "anchored alpha se", res.Players[0].StdErr, 0, 1e-9)
	near(t, "anchored beta", res.Players[1].Elo, 400*math.Log10(1/s-1), 1e-6)
	near(t, "anchored beta se", res.Players[1].StdErr, natToElo/math.Sqrt(7*s*(1-s)), 1e-6)
}

// TestScoreEquations checks a five-player fit against the conditions that
// define the maximum, written out here from the models: each player's
// expected score against the field equals its actual score (both models),
// and for Davidson the expected number of draws equals the observed.
func TestScoreEquations(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	names := []string{"p0", "p1", "p2", "p3", "p4"}
	c := NewCollector()
	for range 2000 {
		i, j := rng.IntN(5), rng.IntN(5)
		if i == j {
			continue
		}
		// Stronger players have larger indices; a fifth of games drawn.
		u := rng.Float64()
		switch {
		case u < 0.2:
			c.Add(game(names[i], names[j], record.Draw))
		case u < 0.2+0.8/(1+math.Pow(10, float64(j-i)*0.3)):
			c.Add(game(names[i], names[j], record.Sente))
		default:
			c.Add(game(names[i], names[j], record.Gote))
		}
	}
	for _, m := range []Model{Davidson, HalfPoint} {
		t.Run(string(m), func(t *testing.T) {
			res := fit(t, c, Options{Model: m})
			elo := map[string]float64{}
			for _, p := range res.Players {
				elo[p.Name] = p.Elo
			}
			expected := map[string]float64{}
			actual := map[string]float64{}
			var expDraws, draws float64
			for ij, p := range c.pairs {
				a, b := c.players[ij[0]].name, c.players[ij[1]].name
				n := p.wins + p.draws + p.losses
				pa, pb := math.Pow(10, elo[a]/400), math.Pow(10, elo[b]/400)
				var ea, pd float64
				if m == Davidson {
					den := pa + pb + res.DrawParameter*math.Sqrt(pa*pb)
					pd = res.DrawParameter * math.Sqrt(pa*pb) / den
					ea = pa/den + pd/2
				} else {
					ea = pa / (pa + pb)
				}
				expected[a] += n * ea
				expected[b] += n * (1 - ea)
				actual[a] += p.wins + p.draws/2
				actual[b] += p.losses + p.draws/2
				expDraws += n * pd
				draws += p.draws
			}
			for _, name := range names {
				near(t, string(m)+" expected score of "+name, expected[name], actual[name], 1e-6)
			}
			if m == Davidson {
				near(t, "expected draws", expDraws, draws, 1e-6)
			}
			if res.Players[0].Name != "p4" || res.Players[4].Name != "p0" {
				t.Errorf("%s: order %v", m, res.Players)
			}
			var mean float64
			for _, p := range res.Players {
				mean += p.Elo / 5
			}
			near(t, string(m)+" mean", mean, 0, 1e-9)
		})
	}
}

func TestNoMaximum(t *testing.T) {
	c := NewCollector()
	match(c, "A", "B", 3, 1, 2)
	match(c, "C", "A", 2, 0, 0) // C never dropped a point
	_, err := c.Fit(Options{})
	if !errors.Is(err, ErrNoMaximum) || !strings.Contains(err.Error(), `"C"`) || !strings.Contains(err.Error(), "infinitely high") {
		t.Errorf("unbeaten player: %v", err)
	}
	c = NewCollector()
	match(c, "A", "B", 0, 4, 0)
	if _, err := c.Fit(Options{}); !errors.Is(err, ErrNoMaximum) {
		t.Errorf("all draws under Davidson: %v", err)
	}
	res := fit(t, c, Options{Model: HalfPoint})
	near(t, "all draws half-point", res.Players[0].Elo, 0, 1e-9)
}

func TestBadOptions(t *testing.T) {
	c := NewCollector()
	if _, err := c.Fit(Options{}); err == nil || !strings.HasPrefix(err.Error(), "ratings: 0 player") {
		t.Errorf("no players: %v", err)
	}
	match(c, "A", "B", 1, 0, 1)
	if _, err := c.Fit(Options{Anchor: "Z"}); err == nil || !strings.Contains(err.Error(), `anchor "Z"`) {
		t.Errorf("bad anchor: %v", err)
	}
	if _, err := c.Fit(Options{Model: "glicko"}); err == nil || !strings.Contains(err.Error(), `model "glicko"`) {
		t.Errorf("bad model: %v", err)
	}
}

func TestConfigurationsAreDistinct(t *testing.T) {
	c := NewCollector()
	strong := record.Player{Name: "mcts", Kind: record.KindMCTS, Config: map[string]any{"playouts": 800.0}}
	weak := record.Player{Name: "mcts", Kind: record.KindMCTS, Config: map[string]any{"playouts": 100.0}}
	for i := range 10 {
		r := record.Sente
		if i < 3 {
			r = record.Gote
		}
		c.Add(&record.Game{Result: r, Players: record.Players{Sente: strong, Gote: weak}})
	}
	c.Add(&record.Game{Result: record.Sente, Players: record.Players{Sente: strong, Gote: strong}}) // ignored
	res := fit(t, c, Options{})
	if res.Players[0].Name != `mcts mcts {"playouts":800}` || res.Players[1].Name != `mcts mcts {"playouts":100}` {
		t.Errorf("names %q, %q", res.Players[0].Name, res.Players[1].Name)
	}
	if res.Players[0].Games != 10 {
		t.Errorf("self-play counted: %+v", res.Players[0])
	}
}

// TestRecoversSyntheticElo fits the synthetic records, whose winners were
// drawn with the Elo probability for players 100 and 200 Elo apart: the
// fitted differences must land within 3 standard errors of the truth.
func TestRecoversSyntheticElo(t *testing.T) {
	var buf bytes.Buffer
	if err := synthetic.Write(&buf, 10_000, 7); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "games.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c := NewCollector()
	if _, err := selection.Stream([]string{path}, selection.Filter{}, selection.Options{}, func(g *record.Game) error { c.Add(g); return nil }); err != nil {
		t.Fatal(err)
	}
	for _, m := range []Model{Davidson, HalfPoint} {
		t.Run(string(m), func(t *testing.T) {
			res := fit(t, c, Options{Model: m, Anchor: "weak"})
			for _, p := range res.Players {
				var truth float64
				for _, sp := range synthetic.Players {
					if sp.Name == p.Name {
						truth = sp.Elo
					}
				}
				// Draws (max_plies games) are spread evenly, which only the
				// Davidson model keeps apart from the decisive games; the
				// half-point model shrinks the differences by the draw share.
				if m == Davidson && math.Abs(p.Elo-truth) > 3*p.StdErr+1e-9 {
					t.Errorf("%s: %s rated %.1f ± %.1f; true %v", m, p.Name, p.Elo, p.StdErr, truth)
				}
				if m == HalfPoint && !(math.Abs(p.Elo) <= math.Abs(truth)+3*p.StdErr) {
					t.Errorf("%s: %s rated %.1f ± %.1f beyond true %v", m, p.Name, p.Elo, p.StdErr, truth)
				}
			}
		})
	}
}
