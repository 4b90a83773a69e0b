package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/outcome"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// testGame is the smallest Game: a position with no history, so no line is distrusted.
type testGame struct{ pos ms.Position }

func (g *testGame) Position() *ms.Position { return &g.pos }
func (g *testGame) MaybeSeen(uint64) bool  { return false }
func (g *testGame) PliesLeft() int         { return 1 << 30 }
func (g *testGame) LegalMoves(dst []mcts.Move) []mcts.Move {
	for _, m := range g.pos.LegalMoves(nil) {
		dst = append(dst, mcts.Move(m))
	}
	return dst
}
func (g *testGame) Play(mcts.Move)                { panic("not used") }
func (g *testGame) Undo()                         { panic("not used") }
func (g *testGame) Outcome() (bool, float32)      { return false, 0 }
func (g *testGame) Hash() uint64                  { return g.pos.Hash() }
func (g *testGame) Clone() mcts.Game              { c := *g; return &c }
func (g *testGame) MoveString(m mcts.Move) string { return ms.Move(m).String() }

// evaluate runs the evaluator on sfen and returns its evaluation, the moves and priors.
func evaluate(t *testing.T, cfg Config, sfen string) (mcts.Evaluation, []mcts.Move, []float32) {
	t.Helper()
	pos, err := ms.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	g := &testGame{pos: pos}
	moves := g.LegalMoves(nil)
	priors := make([]float32, len(moves))
	before := pos.SFEN()
	ev := New(cfg).Evaluate(g, moves, priors, rand.New(rand.NewPCG(1, 2)))
	if after := g.pos.SFEN(); after != before {
		t.Fatalf("Evaluate left the position changed: %s, was %s", after, before)
	}
	return ev, moves, priors
}

// deepen runs Evaluator.Deepen on the position of sfen, as the search does after the
// expansion, and checks that it leaves the position as it was.
func deepen(t *testing.T, cfg Config, sfen string) (mcts.Proof, bool) {
	t.Helper()
	pos, err := ms.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	g := &testGame{pos: pos}
	before := pos.SFEN()
	p, ok := New(cfg).Deepen(g)
	if after := g.pos.SFEN(); after != before {
		t.Fatalf("Deepen left the position changed: %s, was %s", after, before)
	}
	return p, ok
}

// topMove is the move with the highest prior.
func topMove(moves []mcts.Move, priors []float32) string {
	best := 0
	for i := range priors {
		if priors[i] > priors[best] {
			best = i
		}
	}
	return ms.Move(moves[best]).String()
}

// matesIn is a plain full-width mate search written for the tests, independent of the
// evaluator's checks-only search: whether the side to move mates within n of its own
// moves, trying every move (no legal reply means mate, as the rules say).
func matesIn(p *ms.Position, n int) bool {
	for _, m := range p.LegalMoves(nil) {
		u := p.MakeMove(m)
		won := true
		for _, r := range p.LegalMoves(nil) {
			if n == 1 {
				won = false
				break
			}
			u2 := p.MakeMove(r)
			ok := matesIn(p, n-1)
			p.UnmakeMove(r, u2)
			if !ok {
				won = false
				break
			}
		}
		p.UnmakeMove(m, u)
		if won {
			return true
		}
	}
	return false
}

func TestMates(t *testing.T) {
	for _, c := range []struct {
		name, sfen string
		plies      int    // of the proof: 1 or 3
		move       string // the mating move, which gets the top prior
		why        string
	}{
		{"drop mate in 1", "4k/5/4P/5/K4 b Gs 1", 1, "G*1b",
			// Gote's king on 1a has 2a, 2b and 1b. A gold dropped on 1b checks it, covers 2a and
			// 2b, and is guarded by the pawn on 1c, so the king cannot take it; a drop cannot
			// answer an adjacent check. (Gote's silver in hand keeps quiet moves from
			// stalemating it.)
			"gold drop"},
		{"board mate in 1", "4k/5/3GP/5/K4 b s 1", 1, "2c1b",
			// The gold from 2c to 1b: the same net as above, the pawn on 1c guarding 1b.
			"gold move"},
		{"drop mate in 3", "4k/5/5/5/K2R1 b Rg 1", 3, "R*2a",
			// R*2a checks along rank a and is guarded by the rook on 2e, so the king cannot
			// take it and its only square is 1b (2b is covered by both rooks); matesIn below
			// confirms that every reply allows a mate, and that there is no mate in 1.
			"rook drop"},
		{"second drop mate in 3", "4k/5/4G/5/K4 b rRb 1", 3, "R*1b",
			// R*1b guarded by the gold on 1c; matesIn confirms the rest.
			"rook drop"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pos, _ := ms.ParseSFEN(c.sfen)
			if c.plies == 3 && (matesIn(&pos, 1) || !matesIn(&pos, 2)) {
				t.Fatalf("the full-width search disagrees that %s is a mate in 3 and not in 1", c.sfen)
			}
			if c.plies == 1 && !matesIn(&pos, 1) {
				t.Fatalf("the full-width search finds no mate in 1 in %s", c.sfen)
			}
			whole := DefaultConfig()
			whole.MateExpandDepth = whole.MateDepth // the whole search at expansion
			ev, moves, priors := evaluate(t, whole, c.sfen)
			want := mcts.Proof{Outcome: outcome.Win, Plies: c.plies}
			if ev.Proof != want {
				t.Errorf("proof %v, want %v", ev.Proof, want)
			}
			if got := topMove(moves, priors); got != c.move {
				t.Errorf("top prior on %s, want the mating %s", got, c.move)
			}
			// Split at 1 (the default): the expansion proves a mate in 1 only, Deepen the rest.
			split := DefaultConfig()
			split.MateExpandDepth = 1
			if ev, _, _ := evaluate(t, split, c.sfen); c.plies == 1 && ev.Proof != want || c.plies > 1 && ev.Proof.Outcome != outcome.Unknown {
				t.Errorf("MateExpandDepth 1: the expansion proves %v", ev.Proof)
			}
			if c.plies > 1 {
				if p, ok := deepen(t, split, c.sfen); !ok || p != want {
					t.Errorf("MateExpandDepth 1: Deepen proves %v (%v), want %v", p, ok, want)
				}
			}
			if c.plies == 3 {
				shallow := whole
				shallow.MateDepth = 1
				if ev, _, _ := evaluate(t, shallow, c.sfen); ev.Proof.Outcome != outcome.Unknown {
					t.Errorf("MateDepth 1 proves %v", ev.Proof)
				}
			}
		})
	}
}

// TestPawnDropMateIsNoMate: in 4k/2S2/3G1/5/K4 b Ps 1 a pawn dropped on 1b would check the
// king on 1a, be guarded by the gold on 2c, and leave the king no square (2a is the
// silver's, 2b and 1b the gold's): a mate by pawn drop, which is illegal (uchifuzume). No
// other move mates. The evaluator must not claim a mate.
func TestPawnDropMateIsNoMate(t *testing.T) {
	const sfen = "4k/2S2/3G1/5/K4 b Ps 1"
	pos, _ := ms.ParseSFEN(sfen)
	drop := ms.NewDrop(ms.Pawn, ms.NewSquare(1, 1))
	u := pos.MakeMove(drop) // make it anyway, to check that it would mate
	if !pos.InCheck() || len(pos.LegalMoves(nil)) != 0 {
		t.Fatal("P*1b does not mate: the test position is wrong")
	}
	pos.UnmakeMove(drop, u)
	if matesIn(&pos, 1) {
		t.Fatal("the full-width search finds a legal mate in 1")
	}
	ev, moves, _ := evaluate(t, DefaultConfig(), sfen)
	if ev.Proof.Outcome != outcome.Unknown {
		t.Errorf("proof %v, want none", ev.Proof)
	}
	for _, m := range moves {
		if ms.Move(m) == drop {
			t.Errorf("P*1b offered as a move")
		}
	}
}

func TestValueIsSymmetric(t *testing.T) {
	// The start position is symmetric under the 180° turn that swaps the sides, so with
	// either side to move the static score is the tempo alone; material up is positive.
	e := New(DefaultConfig())
	w := DefaultWeights()
	for _, c := range []struct {
		sfen string
		want int
	}{
		{"rbsgk/4p/5/P4/KGSBR b - 1", int(w.Tempo)},
		{"rbsgk/4p/5/P4/KGSBR w - 1", int(w.Tempo)},
	} {
		t.Run(c.sfen, func(t *testing.T) {
			pos, _ := ms.ParseSFEN(c.sfen)
			if got := e.Centipawns(&pos); got != c.want {
				t.Errorf("%s: %d cp, want %d", c.sfen, got, c.want)
			}
		})
	}
	// Gote without its rook: Sente is up the rook's value, less what the rook did for
	// Gote's king; clearly ahead either way, and exactly opposite with the other to move
	// apart from twice the tempo.
	b, _ := ms.ParseSFEN("1bsgk/4p/5/P4/KGSBR b - 1")
	wh, _ := ms.ParseSFEN("1bsgk/4p/5/P4/KGSBR w - 1")
	sb, sw := e.Centipawns(&b), e.Centipawns(&wh)
	if sb < 400 || sb+sw != 2*int(w.Tempo) {
		t.Errorf("rook up: %d cp with Sente to move, %d with Gote", sb, sw)
	}
}

func TestCentipawnsInvertsValue(t *testing.T) {
	w := DefaultWeights()
	for _, cp := range []float32{-900, -100, 0, 35, 700} {
		if got := w.Centipawns(w.Value(cp)); got != int(cp) {
			t.Errorf("Centipawns(Value(%v)) = %d", cp, got)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	bad := DefaultConfig()
	bad.MateDepth = 2
	if bad.Validate() == nil {
		t.Error("MateDepth 2 accepted")
	}
	bad = DefaultConfig()
	bad.Weights.ValueScale = 0
	if bad.Validate() == nil {
		t.Error("ValueScale 0 accepted")
	}
}

func TestFastExp(t *testing.T) {
	for x := float32(-30); x <= 30; x += 0.37 {
		want := math.Exp(float64(x))
		if got := float64(fastExp(x)); math.Abs(got-want) > 0.005*want {
			t.Errorf("fastExp(%v) = %v, want %v", x, got, want)
		}
	}
}

// TestCheckFlags compares the evaluator's cheap check detection (attack tables, and a made
// move only for pieces on a line from the king) with Position.GivesCheck on every move of
// positions with direct, discovered and drop checks.
func TestCheckFlags(t *testing.T) {
	for _, sfen := range []string{
		"rbsgk/4p/5/P4/KGSBR b - 1",
		"4k/5/5/5/K2R1 b Rg 1",
		"4k/1BB1r/5/5/K4 b S 1", // bishop moves onto the king's diagonal
		"4k/5/4S/4R/K4 b G 1",   // the silver on 1c blocks the rook on 1d: moving it uncovers check
		"r3k/2G1p/5/P1b2/KGS1R w Bs 9",
	} {
		t.Run(sfen, func(t *testing.T) {
			pos, err := ms.ParseSFEN(sfen)
			if err != nil {
				t.Fatalf("%s: %v", sfen, err)
			}
			e := New(DefaultConfig())
			var maps attackMaps
			maps.compute(&pos)
			var moves []mcts.Move
			for _, m := range pos.LegalMoves(nil) {
				moves = append(moves, mcts.Move(m))
			}
			n := e.priors(&pos, &maps, moves, make([]float32, len(moves)))
			got := map[ms.Move]bool{}
			for _, m := range e.checks[:n] {
				got[m] = true
			}
			for _, m := range moves {
				if want := pos.GivesCheck(ms.Move(m)); got[ms.Move(m)] != want {
					t.Errorf("%s %s: check %v, want %v", sfen, ms.Move(m), got[ms.Move(m)], want)
				}
			}
		})
	}
}
