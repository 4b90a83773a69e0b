package mcts

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestGumbelSchedule(t *testing.T) {
	// Worked by hand from the rule: ⌈log₂ m⌉ phases; each remaining candidate gets
	// ⌊n / (phases · remaining)⌋ visits (at least 1) a phase; then half go on (at least 2).
	for _, tc := range []struct {
		name string
		m    int
		n    int64
		want []uint32
	}{
		// 4 candidates, 16 playouts: 2 phases; 16/(2·4) = 2 visits each, then 16/(2·2) = 4
		// more for each of the 2 survivors.
		{"m4-n16", 4, 16, []uint32{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}},
		// 3 candidates, 10 playouts: 2 phases; 10/(2·3) = 1 visit each (3 playouts), then 2
		// go on with 10/(2·2) = 2 visits each (4), then again 2 each, cut at 10.
		{"m3-n10", 3, 10, []uint32{0, 0, 0, 1, 1, 2, 2, 3, 3, 4}},
		// 8 candidates, 8 playouts: 3 phases; 8/(3·8) = 0, so 1 visit each, and the budget
		// is spent.
		{"m8-n8", 8, 8, []uint32{0, 0, 0, 0, 0, 0, 0, 0}},
		// One candidate takes every playout.
		{"m1-n4", 1, 4, []uint32{0, 1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := gumbelSchedule(tc.m, tc.n)
			if len(got) != len(tc.want) {
				t.Fatalf("schedule %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("schedule %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// halvingTree is the root of the hand-worked example: five moves with priors 0.4, 0.3,
// 0.15, 0.1 and 0.05, the root valued 0 by the evaluator, and below move a a chain of
// single moves whose every evaluation is q[a] for the root's side to move, so that move
// a's mean stays q[a] however often it is visited.
func halvingTree(q []float64) *gameTree {
	t := &gameTree{}
	root := t.add(0)
	var children []int
	for _, v := range q {
		prev := -1
		for d := 1; d <= 10; d++ {
			val := float32(v) // for the side to move at depth d: the root's side when d is even
			if d%2 == 1 {
				val = -val
			}
			id := t.add(val)
			if prev < 0 {
				children = append(children, id)
			} else {
				t.link(prev, []int{id}, []float32{1})
			}
			prev = id
		}
		t.link(prev, []int{t.leaf(0)}, []float32{1})
	}
	t.link(root, children, []float32{0.4, 0.3, 0.15, 0.1, 0.05})
	return t
}

// halvingQ are the moves' values of the hand-worked example of TestGumbelSequentialHalving.
var halvingQ = []float64{0.2, -0.1, 0.5, 0.9, 0.51}

// halvingSearch is the hand-worked example's search: 4 sampled moves with the Gumbels 0,
// 0.5, 1, -0.5 and 0.3, 16 playouts, at c_scale scale.
func halvingSearch(t *testing.T, scale float32) SearchResult {
	t.Helper()
	cfg := testConfig()
	cfg.GumbelMoves = 4
	cfg.GumbelScale = scale
	s := newSearcher(t, cfg, func() Evaluator { return treeEvaluator{} })
	fixedGumbels(s, 0, 0.5, 1, -0.5, 0.3)
	return search(t, s, halvingTree(halvingQ).game(), Limits{Playouts: 16})
}

// fixedGumbels makes s draw the given Gumbels, in the order of the root's moves.
func fixedGumbels(s *Searcher, g ...float64) {
	s.drawGumbel = func() float64 {
		x := g[0]
		g = g[1:]
		return x
	}
}

// TestGumbelSequentialHalving runs the example below and checks each phase's survivors
// (by the visits they end with) and the move played.
//
// Priors π = (0.4, 0.3, 0.15, 0.1, 0.05), so logits ln π = (-0.9163, -1.2040, -1.8971,
// -2.3026, -2.9957); Gumbels g = (0, 0.5, 1, -0.5, 0.3); g + logit = (-0.9163, -0.7040,
// -0.8971, -2.8026, -2.6957). The values q = (0.2, -0.1, 0.5, 0.9, 0.51). m = 4, n = 16,
// c_scale = 1, the default (TestGumbelTargetScale has mctx's 0.1).
//
// Sampling: the 4 largest g + logit are moves 1, 2, 0 and 4; move 3 (the best value, 0.9)
// is not sampled and is never visited.
//
// Phase 1 (playouts 1-8): each candidate gets 2 visits.
//
// Phase 2: at playout 9 every candidate has N = 2, ΣN = 8. The completed Q of move 3 is
// v_mix = (0 + 8 · (0.4·0.2 + 0.3·(-0.1) + 0.15·0.5 + 0.05·0.51)/0.9) / 9 = 0.14864, so
// the completed Q-values are (0.2, -0.1, 0.5, 0.1486, 0.51), min -0.1, max 0.51, and
// q̂ = (q + 0.1)/0.61 = (0.4918, 0, 0.9836, 0.4079, 1). σ = (50 + 2) · q̂ = (25.574, 0,
// 51.148, -, 52). Scores g + logit + σ: move 0 24.66, move 1 -0.70, move 2 50.25, move 4
// 49.30: moves 2 and 4 survive (v_mix stays between -0.1 and 0.51, so q̂ of the visited
// moves does not change during the phase) and get 4 more visits each, 6 in all.
//
// The choice: among the moves with the most visits (2 and 4, 6 each), with σ = (50 + 6) ·
// q̂: move 2 -0.8971 + 56 · 0.98361 = 54.185, move 4 -2.6957 + 56 = 53.304. Move 2 is
// played, although move 4's value is higher: its prior and Gumbel outweigh the 0.01.
func TestGumbelSequentialHalving(t *testing.T) {
	res := halvingSearch(t, 1)
	q := halvingQ
	visits := func(moves ...int) []uint32 {
		var v []uint32
		for _, m := range moves {
			v = append(v, res.Root[m].Visits)
		}
		return v
	}
	// Each phase's survivors show in the visits they end with: 0 for the move not
	// sampled, 2 for those halved away after phase 1, 2 + 4 for those that went on.
	for _, tc := range []struct {
		name  string
		moves []int
		want  uint32
	}{
		{"sampling", []int{3}, 0},
		{"phase1", []int{0, 1}, 2},
		{"phase2", []int{2, 4}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, v := range visits(tc.moves...) {
				if v != tc.want {
					t.Errorf("move %d: %d visits, want %d", tc.moves[i], v, tc.want)
				}
			}
		})
	}
	t.Run("values", func(t *testing.T) {
		for i, c := range res.Root {
			if c.Visits > 0 && math.Abs(float64(c.Q)-q[i]) > 1e-6 {
				t.Errorf("move %d: mean %v, want %v", i, c.Q, q[i])
			}
		}
	})
	t.Run("choice", func(t *testing.T) {
		if res.Best != 2 {
			t.Errorf("played move %d, want 2", res.Best)
		}
	})
	// The policy target of the same search, worked by hand: ΣN = 16, max N = 6,
	// v_mix = (0 + 16 · 0.16722)/17 = 0.15739; completed Q (0.2, -0.1, 0.5, 0.15739, 0.51),
	// q̂ = (0.49180, 0, 0.98361, 0.42194, 1), σ = 56 · q̂ = (27.541, 0, 55.082, 23.629, 56);
	// logit + σ = (26.625, -1.204, 53.185, 21.326, 53.004). Moves 2 and 4 differ by 0.18058:
	// p(2) = 1/(1 + e^-0.18058) = 0.54502, p(4) = 0.45498; move 0 gets e^(26.625-53.185),
	// about 3e-12, and the others less.
	t.Run("target", func(t *testing.T) { checkTarget(t, res.Target, []float64{0, 0, 0.54502, 0, 0.45498}) })
}

// checkTarget compares a search's policy target with one worked by hand, to 5e-5.
func checkTarget(t *testing.T, target []float32, want []float64) {
	t.Helper()
	for i, p := range target {
		if math.Abs(float64(p)-want[i]) > 5e-5 {
			t.Errorf("target of move %d: %v, want %v", i, p, want[i])
		}
	}
}

// TestGumbelTargetScale runs TestGumbelSequentialHalving's example at c_scale 0.1 (the
// default value_scale of DeepMind's mctx), and checks the visits and the target by hand.
//
// Phase 2 at playout 9: σ = (50 + 2) · 0.1 · q̂ = 5.2 · (0.4918, 0, 0.9836, -, 1) =
// (2.5574, 0, 5.1148, -, 5.2); g + logit + σ: move 0 1.6411, move 1 -0.7040, move 2 4.2177,
// move 4 2.5043: moves 2 and 4 survive again, with 6 visits each. The choice, σ = 5.6 · q̂:
// move 2 -0.8971 + 5.5082 = 4.6111, move 4 -2.6957 + 5.6 = 2.9043: move 2.
//
// The target: the completed Q and q̂ are as at c_scale 1, (0.49180, 0, 0.98361, 0.42194,
// 1); σ = 5.6 · q̂ = (2.7541, 0, 5.5082, 2.3629, 5.6); logit + σ = (1.8378, -1.2040,
// 3.6111, 0.0603, 2.6043). Relative to move 2's, the exponentials are e^-1.7733 = 0.16977,
// e^-4.8151 = 0.00811, 1, e^-3.5508 = 0.02871 and e^-1.0068 = 0.36539, summing to 1.57198:
// the target is (0.10800, 0.00516, 0.63614, 0.01826, 0.23244), where c_scale 1 gave
// (0, 0, 0.545, 0, 0.455). Move 3, never visited, keeps some mass through its prior and
// the mixed value.
func TestGumbelTargetScale(t *testing.T) {
	res := halvingSearch(t, 0.1)
	t.Run("visits", func(t *testing.T) {
		for i, want := range []uint32{2, 2, 6, 0, 6} {
			if res.Root[i].Visits != want {
				t.Errorf("move %d: %d visits, want %d", i, res.Root[i].Visits, want)
			}
		}
	})
	t.Run("choice", func(t *testing.T) {
		if res.Best != 2 {
			t.Errorf("played move %d, want 2", res.Best)
		}
	})
	t.Run("target", func(t *testing.T) { checkTarget(t, res.Target, []float64{0.10800, 0.00516, 0.63614, 0.01826, 0.23244}) })
}

func TestGumbelNoNoise(t *testing.T) {
	// Without Gumbels the candidates are the moves of highest prior: 0, 1 and 2 of the
	// example tree (0.4, 0.3, 0.15), and 3 and 4 are never visited.
	cfg := testConfig()
	cfg.GumbelMoves = 3
	s := newSearcher(t, cfg, func() Evaluator { return treeEvaluator{} })
	res := search(t, s, halvingTree([]float64{0, 0, 0, 0.9, 0.9}).game(), Limits{Playouts: 12, NoNoise: true})
	for i, c := range res.Root {
		if visited := c.Visits > 0; visited != (i < 3) {
			t.Errorf("move %d: %d visits", i, c.Visits)
		}
	}
}

// TestGumbelAgreesWithNegamax: with enough playouts the Gumbel root plays a move whose
// exact value (plain negamax over the whole game) is the position's.
func TestGumbelAgreesWithNegamax(t *testing.T) {
	memo := map[uint64]Proof{}
	games := map[string]Game{
		"ttt-empty":  newTicTacToe("........."),
		"ttt-centre": newTicTacToe("X........"),
		"ttt-corner": newTicTacToe("X...O...X"),
		"ttt-XO":     newTicTacToe("XO......."),
		"ttt-fork":   newTicTacToe("X.O.X...."),
		"nim-234":    newNim(0, 2, 3, 4),
		"nim-17":     newNim(3, 17),
	}
	for name, g := range games {
		t.Run(name, func(t *testing.T) {
			cfg := testConfig()
			cfg.GumbelMoves = 16
			cfg.Seed = 7
			s := newSearcher(t, cfg, rollouts)
			res := search(t, s, g, Limits{Playouts: 10000})
			want := solve(g, map[uint64]Proof{})
			g.Play(res.Best)
			got := solve(g, memo).parent()
			g.Undo()
			clear(memo)
			if got.Outcome != want.Outcome {
				t.Errorf("played %s, worth %v; the position is %v", g.MoveString(res.Best), got, want)
			}
			checkTree(t, s, g)
		})
	}
	// Random trees of depth 3 and 2 to 4 moves a node, leaves won, drawn or lost, priors
	// at random: the solver need not prove the root, the halving must still find its best.
	rng := rand.New(rand.NewPCG(3, 4))
	for k := range 20 {
		tree := &gameTree{}
		var grow func(depth int) int
		grow = func(depth int) int {
			if depth == 3 {
				return tree.leaf(float32(rng.IntN(3) - 1))
			}
			id := tree.add(float32(rng.Float64()*2 - 1))
			var kids []int
			var priors []float32
			for range 2 + rng.IntN(3) {
				kids = append(kids, grow(depth+1))
				priors = append(priors, float32(rng.Float64()))
			}
			tree.link(id, kids, priors)
			return id
		}
		grow(0)
		t.Run("tree"+string(rune('a'+k)), func(t *testing.T) {
			cfg := testConfig()
			cfg.GumbelMoves = 4
			cfg.Seed = uint64(k)
			s := newSearcher(t, cfg, func() Evaluator { return treeEvaluator{} })
			g := tree.game()
			res := search(t, s, g, Limits{Playouts: 1000})
			want := solve(g, map[uint64]Proof{})
			g.Play(res.Best)
			got := solve(g, map[uint64]Proof{}).parent()
			if got.Outcome != want.Outcome {
				t.Errorf("played %d, worth %v; the root is %v", res.Best, got, want)
			}
		})
	}
}

func TestGumbelParallel(t *testing.T) {
	// Several goroutines share the halving: the budget is run exactly, the tree stays
	// whole, and the move played is one of the candidates.
	cfg := testConfig()
	cfg.GumbelMoves = 4
	cfg.Threads = 4
	s := newSearcher(t, cfg, rollouts)
	g := newTicTacToe(".........")
	res := search(t, s, g, Limits{Playouts: 2000})
	if res.Playouts != 2000 && res.Stop != StopProven {
		t.Errorf("%d playouts, stop %v", res.Playouts, res.Stop)
	}
	checkTree(t, s, g)
	visited := 0
	for _, c := range res.Root {
		if c.Visits > 0 {
			visited++
		}
	}
	if visited > 4 {
		t.Errorf("%d moves visited, want at most the 4 candidates", visited)
	}
}
