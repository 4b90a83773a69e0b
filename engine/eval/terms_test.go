package eval

import (
	"math"
	"testing"

	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// TestTermsByHand: the terms of a position counted by hand.
func TestTermsByHand(t *testing.T) {
	// Sente (to move): king 5e, gold 4e, pawn 5d, a silver in hand. Gote: king 1a, rook
	// 1c. Sente's king zone 4d 5d 4e: 5d and 4e hold its own pieces, 4d is free and not
	// attacked by the rook on 1c (the rook sees 2c 3c 4c 5c along the rank, 1b, 1d 1e
	// along the file). Gote's zone 2a 2b 1b: all free, none attacked by Sente.
	pos, err := ms.ParseSFEN("4k/5/4r/P4/KG3 b S 1")
	if err != nil {
		t.Fatal(err)
	}
	e := New(DefaultConfig())
	got := e.ValueTerms(&pos)
	var want Terms
	want.Board[ms.Gold], want.Board[ms.Pawn], want.Board[ms.Rook] = 1, 1, -1
	want.Hand[ms.Silver] = 1
	want.Escape = 1 - 3
	if got != want {
		t.Errorf("terms %+v, want %+v", got, want)
	}
}

// TestTermsGiveTheScore: the weights times the terms are the static score, on positions
// of random games.
func TestTermsGiveTheScore(t *testing.T) {
	e := New(DefaultConfig())
	w := DefaultWeights()
	pos := ms.StartPosition()
	var ml ms.MoveList
	for i := range 400 {
		pos.GenerateLegal(&ml)
		if ml.N == 0 {
			pos = ms.StartPosition()
			continue
		}
		pos.MakeMove(ml.Moves[(i*7919)%ml.N])
		tm := e.ValueTerms(&pos)
		s := float64(w.Tempo) + float64(w.KingEscape)*tm.Escape - float64(w.KingZoneAttacked)*tm.Attacked + float64(w.Threat)*tm.Capture
		for pt := range tm.Board {
			s += float64(w.Board[pt]) * tm.Board[pt]
		}
		for pt := range tm.Hand {
			s += float64(w.Hand[pt]) * tm.Hand[pt]
		}
		if cp := e.Centipawns(&pos); math.Abs(s-float64(cp)) > 0.5 {
			t.Fatalf("%s: terms give %.2f, Centipawns %d", pos.SFEN(), s, cp)
		}
	}
}
