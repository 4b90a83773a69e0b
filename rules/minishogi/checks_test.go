package minishogi

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refChecks are the checking moves by the slow reference generator of reference_test.go:
// its legal moves after which its own attack test finds the enemy king attacked. It shares
// no table or shortcut with GenerateChecks.
func refChecks(p *Position) []Move {
	r := toRef(p)
	var out []Move
	for _, m := range r.legal() {
		after := r.apply(m)
		if after.attacked(after.kingSquare(after.stm), r.stm) {
			out = append(out, m)
		}
	}
	return sortedMoves(out)
}

// checkWalkPositions are the positions of random games whose moves prefer checks (half the
// time a random check when there is one), so that discovered checks, checks while in check,
// promotions into check and drops into check all occur often; plus every position two plies
// from the start.
func checkWalkPositions(t *testing.T, games, plies int) []Position {
	t.Helper()
	out := walkPositions(t, 0, 0)
	start := StartPosition()
	var ml MoveList
	start.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		p := start
		p.MakeMove(m)
		var replies MoveList
		p.GenerateLegal(&replies)
		for _, r := range replies.Slice() {
			q := p
			q.MakeMove(r)
			out = append(out, q)
		}
	}
	rng := rand.New(rand.NewPCG(15, 2026))
	for g := range games {
		p := start
		if g%3 == 1 {
			p, _ = ParseSFEN("2k2/5/2P2/5/2K2 b RBGSrbgs 1")
		}
		for range plies {
			out = append(out, p)
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			var checks []Move
			for _, m := range ml.Slice() {
				if p.GivesCheck(m) {
					checks = append(checks, m)
				}
			}
			if len(checks) > 0 && rng.IntN(2) == 0 {
				p.MakeMove(checks[rng.IntN(len(checks))])
			} else {
				p.MakeMove(ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
	return out
}

func TestGenerateChecksMatchesReference(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	positions := checkWalkPositions(t, games, 80)
	var ml MoveList
	kinds := map[string]int{}
	for _, p := range positions {
		p.GenerateChecks(&ml)
		got := sortedMoves(slices.Clone(ml.Slice()))
		want := refChecks(&p)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: GenerateChecks gives %v, the reference %v", p.SFEN(), got, want)
		}
		for _, m := range got {
			switch {
			case m.IsDrop():
				kinds["drop"]++
			case p.PieceAt(m.From()).Type() == King:
				kinds["king (discovered)"]++
			case m.IsPromotion():
				kinds["promotion"]++
			}
		}
		if p.InCheck() && len(got) > 0 {
			kinds["check while in check"]++
		}
	}
	// The walk must have reached the hard cases, or the comparison proves little.
	for _, k := range []string{"drop", "king (discovered)", "promotion", "check while in check"} {
		if kinds[k] == 0 {
			t.Errorf("no %s among the checks of %d positions", k, len(positions))
		}
	}
	t.Logf("%d positions, %v", len(positions), kinds)
}

// TestGenerateChecksHandMade: hand-derived checks in small positions.
// TestCheckTestMatchesReference checks CheckTest on every legal move of the walk's positions
// against the reference's checks and against the definition, GivesCheck.
func TestCheckTestMatchesReference(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	var ml MoveList
	discovered := 0
	for _, p := range checkWalkPositions(t, games, 80) {
		want := refChecks(&p)
		p.GenerateLegal(&ml)
		ct := p.NewCheckTest()
		for _, m := range ml.Slice() {
			got := ct.GivesCheck(m)
			_, ref := slices.BinarySearch(want, m)
			if got != ref || got != p.GivesCheck(m) {
				t.Fatalf("%s: CheckTest says %s checks: %v; the reference: %v", p.SFEN(), m, got, ref)
			}
			if got && !m.IsDrop() {
				// By discovery when the moved piece itself does not attack the king.
				after := toRef(&p).apply(m)
				if !slices.Contains(after.destinations(int(m.To())), after.kingSquare(after.stm)) {
					discovered++
				}
			}
		}
	}
	t.Logf("%d discovered checks", discovered)
	if discovered == 0 {
		t.Error("no discovered check among the walk's moves: the comparison proves little")
	}
}

// TestTsumeMoves: the attacker's moves of Tsume are the reference's checks, the defender's
// every legal move.
func TestTsumeMoves(t *testing.T) {
	for _, p := range checkWalkPositions(t, 30, 60) {
		attacker := Tsume{Attacker: p.SideToMove()}
		if got, want := sortedMoves(attacker.Moves(p, nil)), refChecks(&p); !slices.Equal(got, want) {
			t.Fatalf("%s: the attacker's moves %v, the reference's checks %v", p.SFEN(), got, want)
		}
		defender := Tsume{Attacker: p.SideToMove().Opponent()}
		r := toRef(&p)
		if got, want := sortedMoves(defender.Moves(p, nil)), sortedMoves(r.legal()); !slices.Equal(got, want) {
			t.Fatalf("%s: the defender's moves %v, the reference's legal moves %v", p.SFEN(), got, want)
		}
	}
}

func TestGenerateChecksHandMade(t *testing.T) {
	// Explicit cases, each derived by hand from the rules (docs/rules.md).
	cases := []struct {
		sfen string
		want []string
	}{
		// A pawn in hand checks only from the square in front of Gote's king on 1a: 1b.
		{"4k/5/5/5/K4 b P 1", []string{"P*1b"}},
		// A gold in hand: from 2a, 2b and 1b (a Sente gold attacks forward and sideways).
		{"4k/5/5/5/K4 b G 1", []string{"G*1b", "G*2a", "G*2b"}},
		// A silver in hand: from 2b and 1b (forward-diagonal and forward); not from 2a, as a
		// silver does not move sideways.
		{"4k/5/5/5/K4 b S 1", []string{"S*1b", "S*2b"}},
		// Discovered check: Sente's rook on 1e looks up file 1 through its silver on 1c at the
		// king on 1a; every silver move off file 1 checks (2b, 2d; neither reaches the zone,
		// rank a, so none may promote), and 1c1b checks directly (a silver attacks forward).
		{"4k/5/4S/5/K3R b - 1", []string{"1c1b", "1c2b", "1c2d"}},
	}
	for _, c := range cases {
		t.Run(c.sfen, func(t *testing.T) {
			p, err := ParseSFEN(c.sfen)
			if err != nil {
				t.Fatal(err)
			}
			var ml MoveList
			p.GenerateChecks(&ml)
			var got []string
			for _, m := range sortedMoves(slices.Clone(ml.Slice())) {
				got = append(got, m.String())
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("checks %v, want %v", got, c.want)
			}
		})
	}
}

func BenchmarkGenerateChecks(b *testing.B) {
	benchEach(b, func(p *Position, ml *MoveList) { p.GenerateChecks(ml) })
}

// BenchmarkFilterChecks is what GenerateChecks replaces: every legal move, kept if it checks.
func BenchmarkFilterChecks(b *testing.B) {
	benchEach(b, func(p *Position, ml *MoveList) {
		p.GenerateLegal(ml)
		n := 0
		for _, m := range ml.Slice() {
			if p.GivesCheck(m) {
				n++
			}
		}
		_ = n
	})
}

// TestHasLegalMoveMatchesReference: HasLegalMove against the reference generator's legal
// moves, in the walk's positions and in every position one of their checks leads to, where
// the defender is in check and often mated (the mate searches ask it there).
func TestHasLegalMoveMatchesReference(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 30
	}
	var checks MoveList
	mated, escapes := 0, 0
	try := func(p *Position) {
		r := toRef(p)
		n := len(r.legal())
		want := n > 0
		if got := p.HasLegalMove(); got != want {
			t.Fatalf("%s: HasLegalMove %v; the reference has %d legal moves", p.SFEN(), got, n)
		}
		if want {
			escapes++
		} else {
			mated++
		}
	}
	for _, p := range checkWalkPositions(t, games, 80) {
		try(&p)
		p.GenerateChecks(&checks)
		for _, m := range checks.Slice() {
			u := p.MakeMove(m)
			try(&p)
			p.UnmakeMove(m, u)
		}
	}
	t.Logf("%d positions without a legal move, %d with", mated, escapes)
	if mated == 0 || escapes == 0 {
		t.Errorf("%d mated and %d not: the comparison proves little", mated, escapes)
	}
}
