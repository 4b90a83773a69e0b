package mcts

import (
	"fmt"
	"testing"

	"github.com/shogilab/shogilab/outcome"
)

// shuttle is a game of repetitions: a token on squares 0 to 4 that the players, taking
// turns, move one square left or right; whoever moves it onto 4 wins. It implements
// Repeater with the rule that the first mover (player 0) loses a repetition.
type shuttle struct {
	history []int // history[i]: the token after i moves
}

func (g *shuttle) token() int { return g.history[len(g.history)-1] }
func (g *shuttle) mover() int { return (len(g.history) - 1) % 2 }

func (g *shuttle) LegalMoves(dst []Move) []Move {
	if g.token() > 0 {
		dst = append(dst, 0) // left
	}
	return append(dst, 1) // right (the token never rests on 4: that ends the game)
}
func (g *shuttle) Play(m Move) { g.history = append(g.history, g.token()+2*int(m)-1) }
func (g *shuttle) Undo()       { g.history = g.history[:len(g.history)-1] }
func (g *shuttle) Outcome() (bool, float32) {
	if g.token() == 4 {
		return true, -1 // the player who moved there won
	}
	return false, 0
}
func (g *shuttle) Hash() uint64 { return uint64(g.token()*2 + g.mover()) }
func (g *shuttle) Clone() Game  { return &shuttle{history: append([]int(nil), g.history...)} }
func (g *shuttle) MoveString(m Move) string {
	return fmt.Sprint([]string{"left", "right"}[m])
}

// Repeats implements Repeater: an earlier position has the same token with the same
// player to move; player 0 loses the repetition.
func (g *shuttle) Repeats() (bool, float32) {
	n := len(g.history) - 1
	for i := n - 2; i >= 0; i -= 2 {
		if g.history[i] == g.token() {
			if g.mover() == 0 {
				return true, -1
			}
			return true, 1
		}
	}
	return false, 0
}

// checkRepetitionTree checks the tree of a shuttle search: no playout in flight, visits
// one more than the children's at every unproven node with children, and every unproven
// node without children (which only RepetitionLeaves makes) a repeated position whose
// mean value is the repetition's.
func checkRepetitionTree(t *testing.T, s *Searcher, g *shuttle) (leaves int) {
	t.Helper()
	nodes := s.pool.nodes
	var walk func(idx uint32)
	walk = func(idx uint32) {
		n := &nodes[idx]
		meta := n.meta.Load()
		if f := n.counts.Load() & countMask; f != 0 {
			t.Fatalf("node %d: %d playouts in flight", idx, f)
		}
		if metaState(meta) != expanded || metaOutcome(meta) != outcome.Unknown {
			return
		}
		if metaChildren(meta) == 0 {
			repeats, v := g.Repeats()
			if !repeats {
				t.Fatalf("node %d (history %v): a leaf without children that does not repeat", idx, g.history)
			}
			if n.q() != -v {
				t.Fatalf("node %d (history %v): mean %v, the repetition is worth %v to its mover", idx, g.history, n.q(), -v)
			}
			leaves++
			return
		}
		sum := uint32(0)
		for c := n.children; c < n.children+metaChildren(meta); c++ {
			sum += nodes[c].visits()
			g.Play(nodes[c].move)
			walk(c)
			g.Undo()
		}
		if n.visits() != sum+1 {
			t.Fatalf("node %d: %d visits, children %d", idx, n.visits(), sum)
		}
	}
	walk(0)
	return leaves
}

// TestRepetitionLeaves: player 0 moved the token from 2 to 1. Player 1 can move it back to
// 2, repeating the start with player 0 to move, which player 0 loses by the rule: with
// RepetitionLeaves that move is worth exactly +1 to player 1 (a value, not a proof), and
// the search plays it; without, the repetition is just another position.
func TestRepetitionLeaves(t *testing.T) {
	for _, on := range []bool{false, true} {
		t.Run(fmt.Sprintf("RepetitionLeaves=%v", on), func(t *testing.T) {
			for _, threads := range []int{1, 2} {
				cfg := testConfig()
				cfg.RepetitionLeaves = on
				cfg.Threads = threads
				s := newSearcher(t, cfg, uniform)
				g := &shuttle{history: []int{2, 1}}
				res := search(t, s, g, Limits{Playouts: 3000})
				leaves := checkRepetitionTree(t, s, g)
				back := res.Root[1] // right: back to 2
				if back.Proof.Outcome != outcome.Unknown {
					t.Errorf("on=%v threads=%d: the repetition is proven %v", on, threads, back.Proof)
				}
				switch {
				case on && (back.Q != 1 || g.MoveString(res.Best) != "right" || leaves == 0):
					t.Errorf("threads=%d: repeating is worth %v, best %s, %d repetition leaves", threads, back.Q, g.MoveString(res.Best), leaves)
				case !on && (back.Q == 1 || leaves != 0):
					t.Errorf("off, threads=%d: repeating is worth %v, %d repetition leaves", threads, back.Q, leaves)
				}
				// The tree is kept: the next search from the repeated position, now the
				// root, searches it afresh.
				g.Play(res.Best)
				if res2 := search(t, s, g, Limits{Playouts: 500}); len(res2.Root) == 0 {
					t.Errorf("on=%v threads=%d: no root moves after the repetition", on, threads)
				}
				checkRepetitionTree(t, s, g)
			}
		})
	}
}
