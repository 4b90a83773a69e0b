package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// TestMovePriorTermsByHand: the terms of four moves worked out by hand from the rules and
// the default Board values. Gote: king 1a, silver 3c; Sente: king 5e, rook 3e, a gold in
// hand; Sente to move.
//   - 3e3c takes the silver (450: 4.5); 3c is not attacked (the king reaches 2a, 2b, 1b;
//     the silver 3d, 4d, 2d, 4b, 2b) and the rook gives no check.
//   - G*2b is next to the king (1), attacked by the king and the silver and defended by
//     nothing (the whole gold, 500: -5), and checks 1a from 2b (1).
//   - G*2c is two squares from the king (1/2), not attacked, no check.
//   - 3e3d puts the rook (650) where the silver takes it undefended (-6.5).
func TestMovePriorTermsByHand(t *testing.T) {
	pos, err := ms.ParseSFEN("4k/5/2s2/5/K1R2 b G 1")
	if err != nil {
		t.Fatal(err)
	}
	e := New(DefaultConfig())
	for _, c := range []struct {
		move string
		want PriorTerms // capture, promote, decline, check, drop near king, escape, hang
	}{
		{"3e3c", PriorTerms{4.5, 0, 0, 0, 0, 0, 0}},
		{"G*2b", PriorTerms{0, 0, 0, 1, 1, 0, -5}},
		{"G*2c", PriorTerms{0, 0, 0, 0, 0.5, 0, 0}},
		{"3e3d", PriorTerms{0, 0, 0, 0, 0, 0, -6.5}},
	} {
		t.Run(c.move, func(t *testing.T) {
			m, err := pos.ParseMove(c.move)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]PriorTerms, 1)
			e.MovePriorTerms(&pos, []ms.Move{m}, got)
			if got[0] != c.want {
				t.Errorf("%s: terms %v; want %v", c.move, got[0], c.want)
			}
		})
	}
}

// TestPriorTermsLinear: along random games, with random prior weights, the log-prior the
// search computes equals the terms (taken with the default weights) times the weights:
// the log-prior is linear in the prior weights, as fitting them assumes.
func TestPriorTermsLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := New(DefaultConfig())
	for game := 0; game < 20; game++ {
		pos := ms.StartPosition()
		for ply := 0; ply < 40; ply++ {
			moves := pos.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			terms := make([]PriorTerms, len(moves))
			base.MovePriorTerms(&pos, moves, terms)
			cfg := DefaultConfig()
			var v [NumPriorTerms]float32
			for k := range v {
				v[k] = float32(rng.NormFloat64())
			}
			cfg.Weights.SetPriorVector(v)
			e := New(cfg)
			var maps attackMaps
			maps.compute(&pos)
			logits := make([]float32, len(moves))
			mv := make([]mcts.Move, len(moves))
			for i, m := range moves {
				mv[i] = mcts.Move(m)
			}
			e.logPriors(&pos, &maps, mv, logits)
			for i := range moves {
				var want float64
				for k := range v {
					want += float64(terms[i][k]) * float64(v[k])
				}
				if math.Abs(float64(logits[i])-want) > 1e-4*(1+math.Abs(want)) {
					t.Fatalf("%s, %s: log-prior %v; terms %v times weights %v give %v", pos.SFEN(), moves[i], logits[i], terms[i], v, want)
				}
			}
			pos.MakeMove(moves[rng.IntN(len(moves))])
		}
	}
}
