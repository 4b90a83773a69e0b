package minishogi

import "testing"

func mustGame(t *testing.T, sfen string, opts GameOptions, moves ...string) *Game {
	t.Helper()
	p, err := ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(p, opts)
	for _, m := range moves {
		if err := g.PlayUSI(m); err != nil {
			t.Fatalf("after %v: %v", g.Moves(), err)
		}
	}
	return g
}

func checkResult(t *testing.T, g *Game, term Termination, result string, ply int) {
	t.Helper()
	r := g.Result()
	if r.Termination != term || r.String() != result || g.Ply() != ply {
		t.Errorf("result %s by %q at ply %d, want %s by %q at ply %d", r, r.Termination, g.Ply(), result, term, ply)
	}
}

func repeat(n int, moves ...string) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, moves...)
	}
	return out
}

func TestGameEnd(t *testing.T) {
	// Hand-built: G*1b checks the king on 1a; the gold on 1c guards 1b, and the dropped gold
	// covers 2a and 2b. Mate.
	t.Run("checkmate", func(t *testing.T) {
		g := mustGame(t, "4k/5/4G/5/K4 b G 1", GameOptions{}, "G*1b")
		checkResult(t, g, Checkmate, "sente", 1)
		if err := g.PlayUSI("1a2a"); err != ErrGameOver {
			t.Errorf("move after mate: %v, want ErrGameOver", err)
		}
	})
	// The silver on 3b covers 2a, the gold on 2c covers 2b and 1b; Gote's king on 1a is not in
	// check and Gote has nothing else: after a quiet Sente move Gote cannot move and loses.
	t.Run("stalemate", func(t *testing.T) {
		g := mustGame(t, "4k/2S2/3G1/5/K4 b - 1", GameOptions{}, "5e5d")
		checkResult(t, g, Stalemate, "sente", 1)
	})
	// From the start: Sente's rook steps 1e1d and back, Gote's king 1a2b and back; no move
	// checks. The start position occurs for the fourth time after 12 plies.
	shuffle := repeat(3, "1e1d", "1a2b", "1d1e", "2b1a")
	for _, c := range []struct {
		rule   RepetitionRule
		result string
	}{{FirstMoverLoses, "gote"}, {GoteWins, "gote"}, {RepetitionDraws, "draw"}} {
		t.Run("repetition "+c.rule.String(), func(t *testing.T) {
			g := mustGame(t, StartSFEN, GameOptions{Repetition: c.rule}, shuffle...)
			checkResult(t, g, Repetition, c.result, 12)
		})
	}
	// In the bare-king handicap Gote moves first, so under the default rule a repetition is a
	// loss for Gote, and under gote-wins a win for Gote. After 1a2a the gold shuffles 4e4d and
	// back while the king goes 2a3a and back; the position after 1a2a recurs at plies 5, 9, 13.
	handicapShuffle := append([]string{"1a2a"}, repeat(3, "4e4d", "2a3a", "4d4e", "3a2a")...)
	t.Run("repetition in a handicap game", func(t *testing.T) {
		g := mustGame(t, "4k/5/5/P4/KGSBR w - 1", GameOptions{}, handicapShuffle...)
		checkResult(t, g, Repetition, "sente", 13)
		g = mustGame(t, "4k/5/5/P4/KGSBR w - 1", GameOptions{Repetition: GoteWins}, handicapShuffle...)
		checkResult(t, g, Repetition, "gote", 13)
	})
	// Sente's rook checks on every move (3b3a along rank a, 3a3b along rank b) while Gote's
	// king steps 1a1b and back: perpetual check, a loss for Sente whatever the repetition rule.
	for _, rule := range []RepetitionRule{FirstMoverLoses, GoteWins, RepetitionDraws} {
		t.Run("perpetual check "+rule.String(), func(t *testing.T) {
			g := mustGame(t, "4k/2R2/5/5/K4 b - 1", GameOptions{Repetition: rule}, repeat(3, "3b3a", "1a1b", "3a3b", "1b1a")...)
			checkResult(t, g, PerpetualCheck, "gote", 12)
		})
	}
	t.Run("max plies", func(t *testing.T) {
		g := mustGame(t, StartSFEN, GameOptions{MaxPlies: 3}, "1e1d", "1a2b", "1d1e")
		checkResult(t, g, MaxPlies, "draw", 3)
	})
	t.Run("resignation", func(t *testing.T) {
		g := mustGame(t, StartSFEN, GameOptions{}, "1e1d")
		g.Resign(Gote)
		checkResult(t, g, Resignation, "sente", 1)
	})
	t.Run("undo reopens the game", func(t *testing.T) {
		g := mustGame(t, "4k/5/4G/5/K4 b G 1", GameOptions{}, "G*1b")
		g.Undo()
		checkResult(t, g, NotOver, "", 0)
		if p := g.Position(); p.SFEN() != "4k/5/4G/5/K4 b G 1" {
			t.Errorf("after undo: %s", p.SFEN())
		}
	})
}

// TestPawnDropMate checks uchifuzume by hand-built positions.
func TestPawnDropMate(t *testing.T) {
	// P*1b would check the king on 1a; the gold on 1c guards 1b and the rook on 2e covers 2a
	// and 2b, so the drop would mate: illegal. A gold dropped there mates legally.
	p, _ := ParseSFEN("4k/5/4G/5/K2R1 b PG 1")
	if _, err := p.ParseMove("P*1b"); err == nil {
		t.Error("P*1b (pawn-drop mate) accepted")
	}
	g := mustGame(t, p.SFEN(), GameOptions{}, "G*1b")
	checkResult(t, g, Checkmate, "sente", 1)
	// A pawn *push* that mates is legal: 1c1b with the gold on 2c guarding 1b and covering
	// 2b, and the bishop on 4c covering 2a.
	g = mustGame(t, "4k/5/1B1GP/5/K4 b - 1", GameOptions{}, "1c1b")
	checkResult(t, g, Checkmate, "sente", 1)
	// Without the rook the king escapes to 2a or 2b, so the same drop is a legal check.
	q, _ := ParseSFEN("4k/5/4G/5/K4 b P 1")
	if _, err := q.ParseMove("P*1b"); err != nil {
		t.Errorf("P*1b (check, not mate): %v", err)
	}
}
