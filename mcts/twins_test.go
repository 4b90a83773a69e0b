package mcts

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

// twinTree is a root with three moves of priors 0.5, 0.3 and 0.2, each to
// a position valued a, b and 0 for its side to move, with one drawn reply.
func twinTree(a, b float32) *gameTree {
	t := &gameTree{}
	root := t.add(0)
	var moves []int
	for _, v := range []float32{a, b, 0} {
		m := t.add(v)
		t.link(m, []int{t.leaf(0)}, []float32{1})
		moves = append(moves, m)
	}
	t.link(root, moves, []float32{0.5, 0.3, 0.2})
	return t
}

func TestTwinIsTheNextChoice(t *testing.T) {
	// Worked by hand with CPuct 1.25, FPUReduction 0.2, VirtualLoss 1 and
	// every value 0. The first descent takes move 0 (the highest prior).
	// Its twin is chosen with move 0 in flight: move 0 scores
	// -1 + 1.25·0.5·√2/2 = -0.56 and move 1, unvisited, scores
	// -0.2·√0.5 + 1.25·0.3·√2 = 0.39, so move 1 is the twin. Without twins
	// the second playout sees move 0 back with value 0: 1.25·0.5·√3/2 = 0.54
	// beats move 1's -0.2·√0.5 + 1.25·0.3·√3 = 0.51, and move 0 is taken
	// again.
	for _, tc := range []struct {
		twins  Twins
		visits []uint32
		count  int64
	}{
		{TwinsOn, []uint32{1, 1, 0}, 1},
		{TwinsOff, []uint32{2, 0, 0}, 0},
		{TwinsAuto, []uint32{2, 0, 0}, 0}, // one thread: off
	} {
		t.Run(fmt.Sprint(tc.visits), func(t *testing.T) {
			cfg := testConfig()
			cfg.CPuct = 1.25 // the worked example's constants, not the defaults
			cfg.FPUReduction = 0.2
			cfg.Twins = tc.twins
			s := newSearcher(t, cfg, func() Evaluator { return treeEvaluator{} })
			res := search(t, s, twinTree(0, 0).game(), Limits{Playouts: 2})
			var visits []uint32
			for _, c := range res.Root {
				visits = append(visits, c.Visits)
			}
			if !reflect.DeepEqual(visits, tc.visits) || res.Playouts != 2 || res.Twins != tc.count {
				t.Errorf("twins %v: root visits %v, %d playouts, %d twins; want %v, 2, %d",
					tc.twins, visits, res.Playouts, res.Twins, tc.visits, tc.count)
			}
		})
	}
}

func TestTwinValuesBackedUp(t *testing.T) {
	// Move 0 leads to a position worth 0.5 to the opponent, move 1 to one
	// worth -0.25; one descent with a twin visits both. The root's value is
	// the mean of its own evaluation (0) and both leaves seen from the
	// root: (0 - 0.5 + 0.25)/3.
	cfg := testConfig()
	cfg.Twins = TwinsOn
	s := newSearcher(t, cfg, func() Evaluator { return treeEvaluator{} })
	g := twinTree(0.5, -0.25).game()
	res := search(t, s, g, Limits{Playouts: 2})
	if res.Twins != 1 || res.Root[0].Q != -0.5 || res.Root[1].Q != 0.25 {
		t.Fatalf("%d twins, root %+v; want one twin, Q -0.5 and 0.25", res.Twins, res.Root)
	}
	if want := float32(-0.25 / 3); math.Abs(float64(res.Value-want)) > 1e-6 {
		t.Errorf("root value %v, want %v", res.Value, want)
	}
	checkTree(t, s, g)
}

func TestTwinsOneThread(t *testing.T) {
	// Twins on with one goroutine: still reproducible, still exact on the
	// playout budget, and still perfect at tic-tac-toe.
	cfg := testConfig()
	cfg.Twins = TwinsOn
	cfg.Seed = 5
	first, g := selfPlay(t, cfg, 3001) // odd, so that a twin cannot always fit
	second, _ := selfPlay(t, cfg, 3001)
	if !reflect.DeepEqual(withoutTimes(first), withoutTimes(second)) {
		t.Fatal("two runs with twins on and one seed differ")
	}
	memo := map[uint64]Proof{}
	replay := newTicTacToe(".........")
	twins := int64(0)
	for _, res := range first {
		if res.Stop == StopPlayouts && res.Playouts != 3001 {
			t.Errorf("%d playouts, want 3001", res.Playouts)
		}
		twins += res.Twins
		before := solve(replay, memo)
		replay.Play(res.Best)
		if after := solve(replay, memo).parent(); after.Outcome != before.Outcome {
			t.Fatalf("move %d at %v turns %v into %v", res.Best, replay, before, after)
		}
	}
	if _, v := g.Outcome(); v != 0 || twins == 0 {
		t.Errorf("game %v ended %v with %d twins; want a draw, with twins", g, v, twins)
	}
}
