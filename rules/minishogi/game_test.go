package minishogi

import (
	"encoding/json"
	"os"
	"testing"
)

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

// EndCase is a case of testdata/endings.json: a game from SFEN under the rule options, the
// moves played, and how the game stands after the last of them (worked out by hand, as its
// Why says). The engine's tests read the same file, so that minishogi.Game and the search's
// engine.Game are held to the same cases.
type EndCase struct {
	Name, Why   string
	SFEN        string
	Rule        string
	MaxPlies    int `json:"max_plies"`
	Moves       []string
	Termination string // "" while the game goes on
	Result      string // "sente", "gote", "draw" or ""
}

func TestGameEndCases(t *testing.T) {
	data, err := os.ReadFile("testdata/endings.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []EndCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("testdata/endings.json: %v", err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			rule, err := ParseRepetitionRule(c.Rule)
			if err != nil {
				t.Fatal(err)
			}
			g := mustGame(t, c.SFEN, GameOptions{Repetition: rule, MaxPlies: c.MaxPlies}, c.Moves...)
			r := g.Result()
			if r.Termination.String() != c.Termination || r.String() != c.Result || g.Ply() != len(c.Moves) {
				t.Errorf("result %q by %q at ply %d, want %q by %q at ply %d", r, r.Termination, g.Ply(), c.Result, c.Termination, len(c.Moves))
			}
		})
	}
}

func TestGameEnd(t *testing.T) {
	t.Run("no move after the end", func(t *testing.T) {
		g := mustGame(t, "4k/5/4G/5/K4 b G 1", GameOptions{}, "G*1b")
		if err := g.PlayUSI("1a2a"); err != ErrGameOver {
			t.Errorf("move after mate: %v, want ErrGameOver", err)
		}
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
	// A pawn push that mates is legal: the case "pawn push mate" of testdata/endings.json.
	// Without the rook the king escapes to 2a or 2b, so the same drop is a legal check.
	q, _ := ParseSFEN("4k/5/4G/5/K4 b P 1")
	if _, err := q.ParseMove("P*1b"); err != nil {
		t.Errorf("P*1b (check, not mate): %v", err)
	}
}
