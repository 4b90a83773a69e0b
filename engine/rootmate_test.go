package engine

import (
	"context"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestRootMate plays the suite's mates in 7 (datasets/tactics: fairy-stockfish 11.1 scores
// each one mate in 7, see TestTacticsSuiteIsRight) with the leaf mate search off, so that only
// the root's df-pn can prove them: with RootMate 7 each must be played as a mate in 7 whose
// move leaves the defender mated within 6 plies (checked by a fresh df-pn), without a tree
// search; with RootMate 5 none may be claimed by the root search.
func TestRootMate(t *testing.T) {
	suite := tacticsSuite(t)[7][:20]
	for _, plies := range []int{7, 5} {
		cfg := DefaultPlayerConfig()
		cfg.Eval.MateDepth = 0
		cfg.RootMate = plies
		p, err := NewPlayer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, pos := range suite {
			p.NewGame(1)
			g := minishogi.NewGame(pos, minishogi.GameOptions{})
			d, err := p.Think(context.Background(), g, mcts.Limits{Playouts: 20000})
			if err != nil {
				t.Fatal(err)
			}
			if plies == 5 {
				if d.Playouts == 0 {
					t.Errorf("RootMate 5, %s: no tree search (score %s)", pos.SFEN(), d.Score)
				}
				continue
			}
			if !d.Score.Proven || d.Score.Mate != 7 || d.Playouts != 0 {
				t.Errorf("RootMate 7, %s: score %s after %d playouts, want mate 7 from the root search", pos.SFEN(), d.Score, d.Playouts)
				continue
			}
			after := pos
			after.MakeMove(d.Move)
			ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](minishogi.Tsume{Attacker: pos.SideToMove()}, 1<<20)
			if mated, err := ms.Prove(after, false, 6); err != nil || !mated {
				t.Errorf("%s: after %s the defender is not mated within 6 plies (%v)", pos.SFEN(), d.Move, err)
			}
		}
	}
}

// TestRootMateReproducible plays a game against itself twice from a seed with RootMate on
// and a playout budget: the node limit, not the clock, bounds the root search, so the two
// games must be the same move for move.
func TestRootMateReproducible(t *testing.T) {
	play := func() []minishogi.Move {
		cfg := DefaultPlayerConfig()
		cfg.RootMate = 15
		cfg.Search.MaxNodes = 1 << 17
		p, err := NewPlayer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		p.NewGame(7)
		g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{MaxPlies: 80})
		var moves []minishogi.Move
		for _, d := range playFrom(t, p, g, 80, 300) {
			moves = append(moves, d.Move)
		}
		return moves
	}
	a, b := play(), play()
	if len(a) != len(b) {
		t.Fatalf("the games took %d and %d plies", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("ply %d: %s, then %s", i+1, a[i], b[i])
		}
	}
}
