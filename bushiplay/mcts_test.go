package bushiplay

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/shogilab/shogilab/outcome"
	"github.com/shogilab/shogilab/rules/bushi"
)

// Play and Undo restore everything, and the game ends exactly at mate or at the third
// occurrence of a position, counted here with a plain map.
func TestGameOutcomeAndUndo(t *testing.T) {
	r, _ := bushi.NewRules(bushi.DefaultLayout())
	rng := rand.New(rand.NewPCG(6, 6))
	draws, mates := 0, 0
	for range 200 {
		g := NewGame(r)
		count := map[bushi.Position]int{g.Position(): 1}
		var hashes []uint64
		for {
			over, v := g.Outcome()
			_, mated := r.Winner(g.Position())
			switch {
			case mated:
				if !over || v != -1 {
					t.Fatalf("mate at %v: over %v value %v", g.Position(), over, v)
				}
				mates++
			case count[g.Position()] >= 3:
				if !over || v != 0 {
					t.Fatalf("third occurrence of %v: over %v value %v", g.Position(), over, v)
				}
				draws++
			case over:
				t.Fatalf("%v reported over", g.Position())
			}
			if over {
				break
			}
			hashes = append(hashes, g.Hash())
			moves := g.LegalMoves(nil)
			g.Play(moves[rng.IntN(len(moves))])
			count[g.Position()]++
		}
		clone := g.Clone()
		for i := len(hashes) - 1; i >= 0; i-- {
			g.Undo()
			if g.Hash() != hashes[i] {
				t.Fatalf("undo %d: hash differs", i)
			}
		}
		if g.Position() != bushi.Start() || clone.(*Game).Position() == bushi.Start() {
			t.Fatal("undo did not reach the start, or the clone shares history")
		}
	}
	if draws == 0 || mates == 0 {
		t.Errorf("random games ended in %d draws and %d mates; want some of each", draws, mates)
	}
}

// From a position where the side to move can win but some moves lose (the first such in
// breadth-first order from the empty board), MCTS with enough playouts picks a move the
// solver rates a win.
func TestMCTSPicksAWinningMove(t *testing.T) {
	r, _ := bushi.NewRules(bushi.DefaultLayout())
	sol := Solve(r)
	history, p, ok := firstTrap(r, sol)
	if !ok {
		t.Fatal("no position where the mover wins with a choice of losing moves")
	}
	for _, m := range r.LegalMoves(p, nil) {
		v, d := sol.Rating(p, m)
		t.Logf("%v: %v rated %v in %d", p, m, v, d)
	}
	s, err := NewSearcher(r, 20000, 7)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.BestMove(history)
	if err != nil {
		t.Fatal(err)
	}
	if v, d := sol.Rating(p, m); v != outcome.Win {
		t.Errorf("after %v MCTS plays %v, rated %v in %d; a win exists", history, m, v, d)
	}
}

// firstTrap walks breadth first from the empty board to the first position whose mover wins
// but has a losing move, and returns the moves that reach it.
func firstTrap(r *bushi.Rules, sol *Solution) ([]bushi.Move, bushi.Position, bool) {
	type step struct {
		parent int
		move   bushi.Move
	}
	from := map[bushi.Position]step{bushi.Start(): {-1, 0}}
	order := []bushi.Position{bushi.Start()}
	for i := 0; i < len(order); i++ {
		p := order[i]
		moves := r.LegalMoves(p, nil)
		if v, _ := sol.Value(p); v == outcome.Win && slices.ContainsFunc(moves, func(m bushi.Move) bool {
			v, _ := sol.Rating(p, m)
			return v == outcome.Loss
		}) {
			var path []bushi.Move
			for j := i; from[order[j]].parent >= 0; j = from[order[j]].parent {
				path = append(path, from[order[j]].move)
			}
			slices.Reverse(path)
			return path, p, true
		}
		for _, m := range moves {
			c := r.Play(p, m)
			if _, seen := from[c]; !seen {
				from[c] = step{i, m}
				order = append(order, c)
			}
		}
	}
	return nil, bushi.Position{}, false
}
