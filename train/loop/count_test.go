package loop

import (
	"path/filepath"
	"testing"

	"github.com/shogilab/shogilab/record"
)

// TestCountGames counts the games and positions of a gzip record file (the loop's own line
// scanner could not read one): two games of 4 and 2 plies are 2 games and 5 + 3 positions.
// The first game's moves were searched, its second a playout cap's fast move: 3 targets;
// the second's were not searched (no statistics), and are none.
func TestCountGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl.gz")
	w, err := record.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	player := record.Player{Name: "random", Kind: record.KindRandom}
	for id, moves := range [][]string{{"2e3d", "4a3b", "3e2d", "3a4b"}, {"2e3d", "4a3b"}} {
		g := &record.Game{ID: id, Variant: "minishogi", Start: "rbsgk/4p/5/P4/KGSBR b - 1", Moves: moves,
			Result: record.Draw, Termination: record.MaxPlies, Plies: len(moves), Players: record.Players{Sente: player, Gote: player},
			Rules: record.Rules{Repetition: record.RepetitionDraw, MaxPlies: len(moves)}, Version: "test"}
		if id == 0 {
			g.Stats = []record.MoveStats{{Visits: 8}, {Visits: 2, Fast: true}, {Visits: 8}, {Visits: 8}}
		}
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	games, positions, targets, err := countGames(path)
	if err != nil || games != 2 || positions != 8 || targets != 3 {
		t.Errorf("countGames: %d games, %d positions, %d targets, %v; want 2, 8, 3", games, positions, targets, err)
	}
}
