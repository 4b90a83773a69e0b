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
// games must be the same move for move; and a third time on the second player after
// NewGame, which must empty the root mate tables as a new player has them. The tables are
// at their full size from the start and stay so: no think grows one on its clock.
func TestRootMateReproducible(t *testing.T) {
	newPlayer := func() *Player {
		cfg := DefaultPlayerConfig()
		cfg.RootMate = 15
		cfg.Search.MaxNodes = 1 << 17
		p, err := NewPlayer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	checkTables := func(p *Player) {
		t.Helper()
		for side, ms := range p.tsume {
			if ms == nil || ms.TableCapacity() != rootMateEntries {
				t.Fatalf("side %d: the root mate table is %v; want %d entries", side, ms, rootMateEntries)
			}
		}
	}
	play := func(p *Player) []minishogi.Move {
		checkTables(p)
		p.NewGame(7)
		for side, ms := range p.tsume {
			if ms.TableSize() != 0 || ms.Nodes() != 0 {
				t.Fatalf("side %d: after NewGame the root mate table holds %d entries and counts %d nodes", side, ms.TableSize(), ms.Nodes())
			}
		}
		g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{MaxPlies: 80})
		var moves []minishogi.Move
		for _, d := range playFrom(t, p, g, 80, 300) {
			moves = append(moves, d.Move)
		}
		checkTables(p)
		if p.tsume[0].TableSize()+p.tsume[1].TableSize() == 0 {
			t.Fatal("the root mate search stored nothing in a game: the test needs a game where it searches")
		}
		return moves
	}
	again := newPlayer()
	a, b := play(newPlayer()), play(again)
	c := play(again)
	for i, other := range [][]minishogi.Move{b, c} {
		if len(a) != len(other) {
			t.Fatalf("game %d took %d plies, the first %d", i+2, len(other), len(a))
		}
		for j := range a {
			if a[j] != other[j] {
				t.Fatalf("game %d, ply %d: %s where the first game played %s", i+2, j+1, other[j], a[j])
			}
		}
	}
}
