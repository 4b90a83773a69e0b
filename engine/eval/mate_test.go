package eval

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/outcome"
	"github.com/shogilab/shogilab/retro"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// matesAtOnce reports whether the legal checking move m leaves the opponent no legal move.
func matesAtOnce(pos *ms.Position, m ms.Move) bool {
	u := pos.MakeMove(m)
	mated := len(pos.LegalMoves(nil)) == 0
	pos.UnmakeMove(m, u)
	return mated
}

// attackingPositions are positions of random games from starts rich in pieces in hand,
// where the side to move has a check: the positions the mate search is asked about.
func attackingPositions(t *testing.T, n int) []ms.Position {
	t.Helper()
	starts := []string{
		"2k2/5/2P2/5/2K2 b RBGSrbgs 1",
		"4k/5/5/5/K4 b RBGSPrbgsp 1",
		"k4/5/5/5/4K w RGSbgsp 1",
		ms.StartSFEN,
	}
	rng := rand.New(rand.NewPCG(7, 15))
	var out []ms.Position
	var ml ms.MoveList
	for len(out) < n {
		p, err := ms.ParseSFEN(starts[rng.IntN(len(starts))])
		if err != nil {
			t.Fatal(err)
		}
		for range 2 + rng.IntN(30) {
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.N)])
		}
		p.GenerateLegal(&ml)
		var checks ms.MoveList
		p.GenerateChecks(&checks)
		if ml.N > 0 && checks.N > 0 {
			out = append(out, p)
		}
	}
	return out
}

// TestMateSearchAgreesWithDfpn: on positions with checks, the evaluator's mate search
// with an unbounded budget finds a mate within d plies exactly when retro's df-pn proves
// one, for d = 3, 5 (and 7 without -short), and the line it reports is no longer than d.
func TestMateSearchAgreesWithDfpn(t *testing.T) {
	count, depths := 1500, []int{3, 5, 7}
	if testing.Short() {
		count, depths = 400, []int{3, 5}
	}
	cfg := DefaultConfig()
	cfg.MateNodes = 1 << 40
	e := New(cfg)
	found := map[int]int{}
	for _, p := range attackingPositions(t, count) {
		g := &testGame{pos: p}
		moves := g.LegalMoves(nil)
		priors := make([]float32, len(moves))
		var maps attackMaps
		maps.compute(&p)
		checks := e.checks[:e.priors(&p, &maps, moves, priors)]
		ds := retro.NewMateSearch[ms.Position, ms.Move, ms.Code](ms.Tsume{Attacker: p.SideToMove()}, 1<<20)
		for _, d := range depths {
			want, err := ds.Prove(p, true, d)
			if err != nil {
				t.Fatal(err)
			}
			in1 := false
			for _, m := range checks {
				in1 = in1 || matesAtOnce(&p, m)
			}
			m, plies, ok := e.findMate(&p, g, checks, d, 3)
			got := in1 || ok
			if got != want {
				t.Fatalf("%s: mate within %d plies: search %v, df-pn %v", p.SFEN(), d, got, want)
			}
			if ok && (plies > d || plies < 1 || plies%2 == 0) {
				t.Errorf("%s: %s mates in %d plies, asked for %d", p.SFEN(), m, plies, d)
			}
			if ok {
				// The mating move must start a mate of the length reported: df-pn agrees
				// that after it the defender is mated within plies-1.
				after := p
				after.MakeMove(m)
				if mated, _ := ds.Prove(after, false, plies-1); !mated {
					t.Errorf("%s: df-pn refutes %s as a mate in %d", p.SFEN(), m, plies)
				}
			}
			if got && !in1 {
				found[d]++
			}
		}
	}
	for _, d := range depths {
		if found[d] == 0 {
			t.Errorf("no mate in 3 to %d plies among the positions: the test proves little", d)
		}
	}
	t.Logf("mates longer than 1 found: %v", found)
}

// TestMateInFive: a mate in 5 by board moves alone, which no mate in 3 solves. Sente's
// silver on 4c, rook on 2c and king on 2e against Gote's king on 4a (silver 5d, pawn 3d,
// bishop and two golds in hand). The full-width search of eval_test.go (matesIn, which
// tries every move, not only checks) confirms that Sente mates in 5 and not in 3; the
// evaluator must prove it at MateDepth 5 with the default budget, and not at 3.
func TestMateInFive(t *testing.T) {
	const sfen = "1k3/5/1S1R1/s1p2/3K1 b b2g 10"
	pos, _ := ms.ParseSFEN(sfen)
	if matesIn(&pos, 2) || !matesIn(&pos, 3) {
		t.Fatal("the full-width search disagrees that this is a mate in 5 and not in 3")
	}
	cfg := DefaultConfig()
	cfg.MateDepth, cfg.MateExpandDepth = 5, 5
	ev, moves, priors := evaluate(t, cfg, sfen)
	if want := (mcts.Proof{Outcome: outcome.Win, Plies: 5}); ev.Proof != want {
		t.Errorf("MateDepth 5: proof %v, want %v", ev.Proof, want)
	}
	after := pos
	m, err := pos.ParseMove(topMove(moves, priors))
	if err != nil {
		t.Fatal(err)
	}
	after.MakeMove(m)
	if !after.InCheck() {
		t.Errorf("the top prior %s does not check", m)
	}
	split := cfg
	split.MateExpandDepth = 3 // the expansion to 3, Deepen from 5
	if ev, _, _ := evaluate(t, split, sfen); ev.Proof.Outcome != outcome.Unknown {
		t.Errorf("MateExpandDepth 3: the expansion proves %v", ev.Proof)
	}
	if p, ok := deepen(t, split, sfen); !ok || p != (mcts.Proof{Outcome: outcome.Win, Plies: 5}) {
		t.Errorf("MateExpandDepth 3: Deepen proves %v (%v), want a win in 5", p, ok)
	}
	cfg.MateDepth = 3
	if ev, _, _ := evaluate(t, cfg, sfen); ev.Proof.Outcome != outcome.Unknown {
		t.Errorf("MateDepth 3 proves %v", ev.Proof)
	}
	if p, ok := deepen(t, cfg, sfen); ok {
		t.Errorf("MateDepth 3: Deepen proves %v", p)
	}
}

// BenchmarkEvaluateAttacking is one evaluation, mate search included, of positions where
// the side to move has checks (attackingPositions), at each MateDepth and budget.
func BenchmarkEvaluateAttacking(b *testing.B) {
	t := &testing.T{}
	positions := attackingPositions(t, 200)
	for _, c := range []struct{ depth, nodes int }{{3, 400}, {5, 400}, {5, 1000}, {7, 1000}, {7, 3000}} {
		b.Run(fmt.Sprintf("depth=%d,nodes=%d", c.depth, c.nodes), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.MateDepth, cfg.MateNodes = c.depth, c.nodes
			benchEvaluate(b, cfg, positions)
		})
	}
}

// benchEvaluate measures one evaluation by an evaluator of cfg, of positions in turn.
func benchEvaluate(b *testing.B, cfg Config, positions []ms.Position) {
	e := New(cfg)
	games := make([]*testGame, len(positions))
	moves := make([][]mcts.Move, len(positions))
	for i, p := range positions {
		games[i] = &testGame{pos: p}
		moves[i] = games[i].LegalMoves(nil)
	}
	priors := make([]float32, ms.MaxMoves)
	rng := rand.New(rand.NewPCG(1, 2))
	i := 0
	for b.Loop() {
		e.Evaluate(games[i], moves[i], priors[:len(moves[i])], rng)
		if i++; i == len(positions) {
			i = 0
		}
	}
}

// TestMateInOneWithTinyBudget: MateNodes bounds the moves beyond mate in 1 (Config), so a
// budget of 0 or 1 still finds a mate in one wherever it is among the checks. The
// positions are mates in one by a gold drop of the solver's smallMates, derived by hand
// there; in each, the first check the evaluator tries does not mate, so a budget spent at
// the root would miss the mate.
func TestMateInOneWithTinyBudget(t *testing.T) {
	for _, sfen := range []string{"4k/5/4G/5/K4 b G 1", "4k/p4/1B1G1/5/K4 b G 1"} {
		t.Run(sfen, func(t *testing.T) {
			pos, err := ms.ParseSFEN(sfen)
			if err != nil {
				t.Fatal(err)
			}
			e := New(DefaultConfig())
			g := &testGame{pos: pos}
			moves := g.LegalMoves(nil)
			var maps attackMaps
			maps.compute(&pos)
			checks := e.checks[:e.priors(&pos, &maps, moves, make([]float32, len(moves)))]
			if len(checks) < 2 || matesAtOnce(&pos, checks[0]) {
				t.Fatalf("%s: checks %v; the test needs a first check that does not mate", sfen, checks)
			}
			for _, depth := range []int{1, 5} {
				for _, budget := range []int{0, 1} {
					cfg := DefaultConfig()
					cfg.MateDepth, cfg.MateNodes = depth, budget
					if ev, _, _ := evaluate(t, cfg, sfen); ev.Proof != (mcts.Proof{Outcome: outcome.Win, Plies: 1}) {
						t.Errorf("%s, MateDepth %d, MateNodes %d: proof %v, want a mate in 1", sfen, depth, budget, ev.Proof)
					}
				}
			}
		})
	}
}
