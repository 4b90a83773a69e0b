package mawari

import (
	"strings"
	"testing"
)

// With every piece face up each throw scores 4, so a piece stands on a corner after every
// second throw: 7 corner stops (6 promotions and the king's) take 14 throws. Seat 0, moving
// first, makes its 14th throw as the 2*13+1 = 27th throw of a two-player game.
func TestPlayAllFaces(t *testing.T) {
	r := standardRules(t)
	p := Probabilities{Face: 1}
	res, err := Play(r, p, 99)
	if err != nil {
		t.Fatal(err)
	}
	if res.Winner != 0 || res.Turns != 27 || res.Rounds(2) != 14 {
		t.Errorf("all faces: %+v (rounds %d); want seat 0 winning on throw 27, round 14", res, res.Rounds(2))
	}
	if got := TurnsToWin(r, NewThrower(p, 0, NewRand(1))); got != 14 {
		t.Errorf("all faces alone: %d throws; want 14", got)
	}
	// With four players seat 0 wins in round 14 too, on throw 4*13+1.
	r.Players = 4
	if res, _ := Play(r, p, 5); res.Winner != 0 || res.Turns != 53 {
		t.Errorf("all faces, four players: %+v; want seat 0 on throw 53", res)
	}
}

func TestGameTurnOrderAndReplay(t *testing.T) {
	r := standardRules(t)
	r.Players = 3
	p := DefaultProbabilities()
	play := func(seed uint64) []Turn {
		g, err := NewGame(r, p, seed)
		if err != nil {
			t.Fatal(err)
		}
		var turns []Turn
		for g.Winner() < 0 {
			turns = append(turns, g.Next())
		}
		return turns
	}
	a, b, c := play(11), play(11), play(12)
	if len(a) != len(b) {
		t.Fatalf("seed 11 replayed to %d turns, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("seed 11 replay differs at turn %d: %+v vs %+v", i, a[i], b[i])
		}
		if a[i].Seat != i%3 {
			t.Errorf("turn %d was seat %d's; want %d", i, a[i].Seat, i%3)
		}
		if a[i].Won != (i == len(a)-1) {
			t.Errorf("turn %d: won=%t", i, a[i].Won)
		}
	}
	same := len(a) == len(c)
	for i := 0; same && i < len(a); i++ {
		same = a[i].Throw == c[i].Throw
	}
	if same {
		t.Error("seeds 11 and 12 played the same game")
	}
}

func TestNewGameErrors(t *testing.T) {
	r := standardRules(t)
	if _, err := NewGame(r, Probabilities{Face: 0.5}, 1); err == nil || !strings.Contains(err.Error(), "sum to 0.5") {
		t.Errorf("bad probabilities: %v", err)
	}
	r.Players = 9
	if _, err := Play(r, DefaultProbabilities(), 1); err == nil || !strings.Contains(err.Error(), "9 players") {
		t.Errorf("bad players: %v", err)
	}
}

func BenchmarkThrow(b *testing.B) {
	r := standardRules(b)
	th := NewThrower(DefaultProbabilities(), r.Spoil, NewRand(1))
	var sum int
	for b.Loop() {
		sum += r.MoveOf(th.Throw()).Steps
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "throws/s")
}

func BenchmarkPlayGame(b *testing.B) {
	r := standardRules(b)
	p := DefaultProbabilities()
	throws := 0
	seed := uint64(0)
	for b.Loop() {
		res, err := Play(r, p, seed)
		if err != nil {
			b.Fatal(err)
		}
		throws += res.Turns
		seed++
	}
	b.ReportMetric(float64(throws)/b.Elapsed().Seconds(), "throws/s")
}
