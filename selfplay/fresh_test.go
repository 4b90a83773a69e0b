package selfplay

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/internal/recordtest"
	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestUSIEngineFreshEachGame: a game between two Fairy-Stockfish processes at a node limit
// (one thread, so each search is deterministic) is the same whether it is a run's only game
// or comes after other games in one run. Fairy-Stockfish 11.1 keeps state across
// usinewgame: when processes were reused between games, later games of a run differed from
// the same games played alone.
func TestUSIEngineFreshEachGame(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 12 games of Fairy-Stockfish")
	}
	spec, err := ParsePlayerSpec("usi:"+fsftest.Path(t)+",nodes=4000,option.Threads=1,option.Hash=16", PlayerSpec{})
	if err != nil {
		t.Fatal(err)
	}
	openings, err := ParseStart("@../datasets/openings/balanced.sfen")
	if err != nil {
		t.Fatal(err)
	}
	m := Match{A: spec, B: spec, Openings: openings, Pairs: true,
		Rules: minishogi.GameOptions{MaxPlies: 120}, Seed: 7, Version: "test"}
	const games = 6
	together := t.TempDir()
	whole := recordtest.ReadSorted(t, execute(t, &Run{Match: m, Games: games, OutDir: together}).Path)
	alone := t.TempDir()
	for i := range games {
		path := execute(t, &Run{Match: m, Games: games, Shard: shard.Shard{Index: i, Count: games}, OutDir: alone}).Path
		g := recordtest.ReadSorted(t, path)
		if len(g) != 1 || g[0].ID != whole[i].ID {
			t.Fatalf("shard %d holds %d games", i, len(g))
		}
		if !slices.Equal(g[0].Moves, whole[i].Moves) {
			t.Errorf("game %d: played alone %v, after %d other games %v", i, g[0].Moves, i, whole[i].Moves)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(alone, "*.jsonl")); len(files) != games {
		t.Errorf("%d shard files, want %d", len(files), games)
	}
}
