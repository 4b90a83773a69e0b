package mcts

import (
	"fmt"
	"testing"

	"github.com/shogilab/shogilab/outcome"
)

func TestWinInOneIsPlayedAtOnce(t *testing.T) {
	// X to move wins on square 2; O's threat on square 5 does not matter.
	g := newTicTacToe("XX.OO....")
	s := newSearcher(t, testConfig(), rollouts)
	res := search(t, s, g, Limits{Playouts: 100000})
	if res.Best != 2 || res.Proof != (Proof{outcome.Win, 1}) || res.Stop != StopProven {
		t.Fatalf("got best %d, proof %v, stop %v; want 2, win in 1, proven", res.Best, res.Proof, res.Stop)
	}
	if res.Playouts >= 100000 {
		t.Errorf("used the whole budget (%d playouts) for a win in one", res.Playouts)
	}
}

func TestForcedBlock(t *testing.T) {
	// O to move must take square 2; every other move lets X complete the
	// top row on the next ply.
	g := newTicTacToe("XX.O.....")
	s := newSearcher(t, testConfig(), rollouts)
	res := search(t, s, g, Limits{Playouts: 5000})
	if res.Best != 2 {
		t.Fatalf("best %d, want the block on 2", res.Best)
	}
	for _, c := range res.Root {
		if c.Move != 2 && c.Proof != (Proof{outcome.Loss, 2}) {
			t.Errorf("move %d: proof %v, want loss in 2", c.Move, c.Proof)
		}
	}
	checkTree(t, s, g)
}

func TestTicTacToeProofsMatchNegamax(t *testing.T) {
	memo := map[uint64]Proof{}
	for _, board := range []string{
		"X........", // O must take the centre
		"X...O...X", // O must not take a corner
		"XO.......",
		"X.O.X....",
		"XO..X....",
		"XOX.O....",
	} {
		t.Run(board, func(t *testing.T) {
			g := newTicTacToe(board)
			s := newSearcher(t, testConfig(), rollouts)
			res := search(t, s, g, Limits{Playouts: 300000})
			want := solve(g, memo)
			if res.Stop != StopProven || res.Proof.Outcome != want.Outcome {
				t.Fatalf("stop %v, proof %v; negamax %v", res.Stop, res.Proof, want)
			}
			g.Play(res.Best)
			if got := solve(g, memo).parent(); got.Outcome != want.Outcome {
				t.Errorf("best %d gives %v, not %v", res.Best, got, want)
			}
			g.Undo()
			checkTree(t, s, g)
			t.Logf("%s: %v after %d playouts", board, res.Proof, res.Playouts)
		})
	}
}

func TestSubtractionGameDistances(t *testing.T) {
	// Take 1 to 3 stones; taking the last wins. n is lost iff n%4 == 0.
	// The winner leaves a multiple of 4 (a unique move) and the loser
	// resists longest by taking 1, so a win takes 1+2⌊n/4⌋ plies and a
	// loss n/2.
	for n := 1; n <= 13; n++ {
		want := Proof{outcome.Win, 1 + 2*(n/4)}
		if n%4 == 0 {
			want = Proof{outcome.Loss, n / 2}
		}
		g := newNim(3, n)
		s := newSearcher(t, testConfig(), uniform)
		res := search(t, s, g, Limits{Playouts: 100000})
		if res.Proof != want {
			t.Errorf("n=%d: proof %v, want %v", n, res.Proof, want)
		}
		if want.Outcome == outcome.Win && int(res.Best&0xff) != n%4 {
			t.Errorf("n=%d: takes %d, want %d", n, res.Best&0xff, n%4)
		}
		checkTree(t, s, g)
	}
}

func TestNimBouton(t *testing.T) {
	// Bouton (1901): a Nim position is lost for the side to move iff the
	// heaps' XOR is 0, and a winning move leaves XOR 0.
	for _, heaps := range [][]int{{1, 2}, {1, 2, 3}, {2, 2}, {1, 3, 5}, {3, 4, 5}, {2, 3, 4}} {
		t.Run(fmt.Sprint(heaps), func(t *testing.T) {
			xor := 0
			for _, h := range heaps {
				xor ^= h
			}
			g := newNim(0, heaps...)
			s := newSearcher(t, testConfig(), rollouts)
			res := search(t, s, g, Limits{Playouts: 200000})
			if wantLoss := xor == 0; (res.Proof.Outcome == outcome.Loss) != wantLoss || res.Proof.Outcome == outcome.Unknown {
				t.Errorf("%v: proof %v, xor %d", heaps, res.Proof, xor)
				return
			}
			if res.Proof.Outcome == outcome.Win {
				g.Play(res.Best)
				after := 0
				for _, h := range g.heaps {
					after ^= h
				}
				g.Undo()
				if after != 0 {
					t.Errorf("%v: move %s leaves xor %d", heaps, g.MoveString(res.Best), after)
				}
			}
			checkTree(t, s, g)
		})
	}
}

// trapTree: at the root, move 0 (prior 0.9) lets the opponent choose among
// four quiet replies, judged good for us, and a fifth with a small prior that
// wins for them at once; move 1 (prior 0.1) leads to a quiet position judged
// bad for us. Move 0 is a proven loss in 2 once the fifth reply is seen.
func trapTree() *gameTree {
	t := &gameTree{}
	root := t.add(0)
	trap := t.add(-0.5) // opponent to move: looks bad for them
	quiet := t.add(0.8) // opponent to move: looks good for them
	var replies []int
	for range 4 {
		r := t.add(0.5)
		t.link(r, []int{t.leaf(0)}, []float32{1}) // a drawn end
		replies = append(replies, r)
	}
	replies = append(replies, t.leaf(-1)) // we are mated: a loss for us to move
	t.link(trap, replies, []float32{0.245, 0.245, 0.245, 0.245, 0.02})
	t.link(quiet, []int{t.leaf(0)}, []float32{1})
	t.link(root, []int{trap, quiet}, []float32{0.9, 0.1})
	return t
}

func TestProvenLossAvoided(t *testing.T) {
	tree := trapTree()
	s := newSearcher(t, testConfig(), func() Evaluator { return treeEvaluator{} })
	res := search(t, s, tree.game(), Limits{Playouts: 2000})
	if res.Root[0].Proof != (Proof{outcome.Loss, 2}) {
		t.Fatalf("move 0: proof %v, want loss in 2 (root %+v)", res.Root[0].Proof, res.Root)
	}
	if res.Root[0].Visits <= res.Root[1].Visits {
		t.Fatalf("setup: the trap has %d visits, the quiet move %d; the test needs the trap ahead",
			res.Root[0].Visits, res.Root[1].Visits)
	}
	if res.Best != 1 {
		t.Errorf("best %d, want 1: the only move not proven lost", res.Best)
	}
	checkTree(t, s, tree.game())
}

func TestAllMovesLoseLongestResistance(t *testing.T) {
	// Move 0 is mated at once (loss in 2); move 1 holds one move longer
	// (loss in 4). Move 0 has the higher prior.
	tree := &gameTree{}
	root := tree.add(0)
	quick := tree.add(0)
	slow := tree.add(0)
	tree.link(quick, []int{tree.leaf(-1)}, []float32{1})
	hold := tree.add(0)
	tree.link(slow, []int{hold}, []float32{1})
	tree.link(hold, []int{tree.add(0)}, []float32{1})
	tree.link(tree.children[hold][0], []int{tree.leaf(-1)}, []float32{1})
	tree.link(root, []int{quick, slow}, []float32{0.9, 0.1})

	s := newSearcher(t, testConfig(), func() Evaluator { return treeEvaluator{} })
	res := search(t, s, tree.game(), Limits{Playouts: 1000})
	if res.Proof != (Proof{outcome.Loss, 4}) || res.Best != 1 || res.Stop != StopProven {
		t.Fatalf("proof %v, best %d, stop %v; want loss in 4, move 1, proven", res.Proof, res.Best, res.Stop)
	}
}

func TestEvaluatorProofIsTerminal(t *testing.T) {
	// The evaluator proves that after move 1 the opponent is lost in 4 (a
	// mate search, say); the subtree below is never needed.
	tree := &gameTree{}
	root := tree.add(0)
	a := tree.add(0)
	tree.link(a, []int{tree.leaf(0)}, []float32{1})
	b := tree.add(0)
	tree.proof[b] = Proof{outcome.Loss, 4}
	deep := tree.add(0) // stands for the rest of the game; never searched
	tree.link(deep, []int{tree.leaf(1)}, []float32{1})
	tree.link(b, []int{deep}, []float32{1})
	tree.link(root, []int{a, b}, []float32{0.5, 0.5})

	s := newSearcher(t, testConfig(), func() Evaluator { return treeEvaluator{} })
	res := search(t, s, tree.game(), Limits{Playouts: 1000})
	if res.Proof != (Proof{outcome.Win, 5}) || res.Best != 1 {
		t.Fatalf("proof %v, best %d; want win in 5 by move 1", res.Proof, res.Best)
	}
	if n := &s.pool.nodes[s.pool.nodes[0].children+1]; n.visits() != 1 {
		t.Errorf("the proven child was visited %d times, want once", n.visits())
	}
}

// TestRootPlaysTheWinAtOnce: a move that ends the game in the mover's favour beats the first
// move of a longer proven win, even when the longer one has the prior and is proven first
// (issue 33: the engine played the first move of a mate in 5 where a move left the opponent
// without a legal move). The root reports the win in one.
func TestRootPlaysTheWinAtOnce(t *testing.T) {
	tree := &gameTree{}
	root := tree.add(0)
	long := tree.add(0) // the evaluator proves the opponent lost in 4 here: a win in 5
	tree.proof[long] = Proof{outcome.Loss, 4}
	deep := tree.add(0)
	tree.link(deep, []int{tree.leaf(1)}, []float32{1})
	tree.link(long, []int{deep}, []float32{1})
	won := tree.leaf(-1) // the opponent, to move, has lost
	tree.link(root, []int{long, won}, []float32{0.9, 0.1})

	s := newSearcher(t, testConfig(), func() Evaluator { return treeEvaluator{} })
	res := search(t, s, tree.game(), Limits{Playouts: 1000})
	if res.Best != 1 || res.Proof != (Proof{outcome.Win, 1}) || res.Stop != StopProven {
		t.Fatalf("best %d, proof %v, stop %v; want move 1, win in 1, proven", res.Best, res.Proof, res.Stop)
	}
	if res.PV[0] != 1 {
		t.Errorf("pv %v starts elsewhere than the win in one", res.PV)
	}
}
