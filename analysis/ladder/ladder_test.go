package ladder

import (
	"math"
	"testing"

	"github.com/shogilab/shogilab/record"
)

// games returns a player's games against an anchor: wins, draws and losses
// from the player's side, the player Sente in the even ones.
func games(player, anchor string, wins, draws, losses int) []*record.Game {
	var out []*record.Game
	add := func(n int, playerWins, draw bool) {
		for range n {
			id := len(out)
			g := &record.Game{ID: id, Players: record.Players{Sente: record.Player{Name: player}, Gote: record.Player{Name: anchor}}}
			sente := id%2 == 0
			if !sente {
				g.Players.Sente, g.Players.Gote = g.Players.Gote, g.Players.Sente
			}
			switch {
			case draw:
				g.Result = record.Draw
			case playerWins == sente:
				g.Result = record.Sente
			default:
				g.Result = record.Gote
			}
			out = append(out, g)
		}
	}
	add(wins, true, false)
	add(draws, false, true)
	add(losses, false, false)
	return out
}

func rate(t *testing.T, l *Ladder, player string, sets ...[]*record.Game) Rating {
	t.Helper()
	g := l.NewGauntlet(player)
	for _, set := range sets {
		for _, r := range set {
			if err := g.Add(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	r, err := g.Rate()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRateBinomial: without draws (ν = 0) Davidson's model is Bradley-Terry,
// and 3 wins in 4 games against an anchor at 0 are a score of 3/4, so the
// rating is 400·log10(3) = 190.85. The interval's ends are found here from
// the binomial likelihood 3·ln p + ln(1-p), p = 1/(1 + 10^(-r/400)), on a
// grid: where it is 1.92 below its maximum.
func TestRateBinomial(t *testing.T) {
	l := &Ladder{Anchors: []Anchor{{Name: "z", Elo: 0}, {Name: "y", Elo: 500}}}
	r := rate(t, l, "p", games("p", "z", 3, 0, 1))
	if want := 400 * math.Log10(3); math.Abs(r.Elo-want) > 0.01 {
		t.Errorf("rating %.3f, want %.3f", r.Elo, want)
	}
	binomial := func(e float64) float64 {
		p := 1 / (1 + math.Pow(10, -e/400))
		return 3*math.Log(p) + math.Log(1-p)
	}
	top := binomial(400 * math.Log10(3))
	var low, high float64
	for e := -1000.0; e <= 3000; e += 0.01 {
		if top-binomial(e) <= 1.920729410347062 {
			if low == 0 {
				low = e
			}
			high = e
		}
	}
	if math.Abs(r.Low-low) > 0.05 || math.Abs(r.High-high) > 0.05 {
		t.Errorf("interval [%.2f, %.2f], want [%.2f, %.2f]", r.Low, r.High, low, high)
	}
}

// TestRateSymmetric: results that mirror each other around 0 put the player
// at 0, by symmetry of the likelihood.
func TestRateSymmetric(t *testing.T) {
	l := &Ladder{DrawParameter: 1, Anchors: []Anchor{{Name: "a", Elo: -100}, {Name: "b", Elo: 100}}}
	for _, c := range []struct {
		name string
		sets [][]*record.Game
	}{
		{"one win and one loss each", [][]*record.Game{games("p", "a", 1, 0, 1), games("p", "b", 1, 0, 1)}},
		{"mirrored scores", [][]*record.Game{games("p", "a", 3, 1, 1), games("p", "b", 1, 1, 3)}},
		{"draws only", [][]*record.Game{games("p", "a", 0, 2, 0), games("p", "b", 0, 2, 0)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rate(t, l, "p", c.sets...)
			if math.Abs(r.Elo) > 0.01 || math.Abs(r.Low+r.High) > 0.05 {
				t.Errorf("rating %s, want 0 with a symmetric interval", r)
			}
		})
	}
}

// TestRateOpenEnds: a player that won every game has no finite rating and
// no upper bound, but a lower one; and the other way round.
func TestRateOpenEnds(t *testing.T) {
	l := &Ladder{Anchors: []Anchor{{Name: "z", Elo: 0}, {Name: "y", Elo: 200}}}
	r := rate(t, l, "p", games("p", "z", 4, 0, 0))
	if !math.IsInf(r.Elo, 1) || !math.IsInf(r.High, 1) || math.IsInf(r.Low, 0) || r.Low <= 0 {
		t.Errorf("all won: %s (low %v)", r, r.Low)
	}
	r = rate(t, l, "p", games("p", "y", 0, 0, 4))
	if !math.IsInf(r.Elo, -1) || !math.IsInf(r.Low, -1) || math.IsInf(r.High, 0) || r.High >= 200 {
		t.Errorf("all lost: %s", r)
	}
}

// TestRateOrder: a better planted player is rated above a worse one against
// the same anchors.
func TestRateOrder(t *testing.T) {
	l := &Ladder{DrawParameter: 0.2, Anchors: []Anchor{{Name: "a", Elo: 0}, {Name: "b", Elo: 150}, {Name: "c", Elo: 300}}}
	better := rate(t, l, "p", games("p", "a", 8, 1, 1), games("p", "b", 6, 1, 3), games("p", "c", 4, 1, 5))
	worse := rate(t, l, "p", games("p", "a", 6, 1, 3), games("p", "b", 4, 1, 5), games("p", "c", 2, 1, 7))
	if !(better.Elo > worse.Elo) || !(better.Elo > 150 && better.Elo < 300) || !(worse.Elo > 0 && worse.Elo < 150) {
		t.Errorf("better %s, worse %s", better, worse)
	}
}

// TestGauntletRejects names the game that is not the player's against an
// anchor.
func TestGauntletRejects(t *testing.T) {
	l := &Ladder{Anchors: []Anchor{{Name: "z", Elo: 0}, {Name: "y", Elo: 10}}}
	g := l.NewGauntlet("p")
	if err := g.Add(games("p", "x", 1, 0, 0)[0]); err == nil || err.Error() != "ladder: game 0: x is not an anchor of the ladder" {
		t.Errorf("a game against a stranger: %v", err)
	}
	if err := g.Add(games("q", "z", 1, 0, 0)[0]); err == nil || err.Error() != "ladder: game 0 is between q and z, not p" {
		t.Errorf("a game of another player: %v", err)
	}
	if _, err := g.Rate(); err != ErrNoGames {
		t.Errorf("no games: %v", err)
	}
}

// TestRateDrawWithoutDrawModel: against a ladder whose round robin had no
// draws (ν = 0), a draw counts as half a win and half a loss, so a win and a
// draw against an anchor at 0 are a score of 3/4: 400·log10(3) = 190.85, as
// three wins and a loss are (TestRateBinomial), and a win, a draw and a loss
// are an even score: 0.
func TestRateDrawWithoutDrawModel(t *testing.T) {
	l := &Ladder{Anchors: []Anchor{{Name: "z", Elo: 0}, {Name: "y", Elo: 500}}}
	for _, c := range []struct {
		name                string
		wins, draws, losses int
		want                float64
	}{
		{"a win and a draw", 1, 1, 0, 400 * math.Log10(3)},
		{"a win, a draw and a loss", 1, 1, 1, 0},
		{"draws only", 0, 3, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rate(t, l, "p", games("p", "z", c.wins, c.draws, c.losses))
			if math.Abs(r.Elo-c.want) > 0.01 || math.IsInf(r.Low, 0) || math.IsInf(r.High, 0) {
				t.Errorf("rating %s, want %.2f with a finite interval", r, c.want)
			}
		})
	}
}

// TestFit: the round robin's anchor zero is rated 0, a better anchor above
// it, and a game with a player who is no anchor is refused.
func TestFit(t *testing.T) {
	var all []*record.Game
	all = append(all, games("weak", "mid", 3, 0, 7)...)
	all = append(all, games("mid", "strong", 3, 0, 7)...)
	all = append(all, games("weak", "strong", 1, 0, 9)...)
	feed := func(set []*record.Game) func(func(*record.Game) error) error {
		return func(f func(*record.Game) error) error {
			for _, g := range set {
				if err := f(g); err != nil {
					return err
				}
			}
			return nil
		}
	}
	anchors := []Anchor{{Name: "weak", Spec: "s1"}, {Name: "mid", Spec: "s2"}, {Name: "strong", Spec: "s3"}}
	l, err := Fit(feed(all), anchors, "weak")
	if err != nil {
		t.Fatal(err)
	}
	if l.Anchors[0].Elo != 0 || !(l.Anchors[1].Elo > 0) || !(l.Anchors[2].Elo > l.Anchors[1].Elo) || l.Anchors[2].Spec != "s3" || l.Anchors[1].Games != 20 {
		t.Errorf("fit %+v", l.Anchors)
	}
	if _, err := Fit(feed(append(all, games("weak", "stranger", 1, 0, 0)...)), anchors, "weak"); err == nil {
		t.Error("a game with a stranger was fitted")
	}
}
