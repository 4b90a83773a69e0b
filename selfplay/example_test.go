package selfplay_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
)

// Ten games in three shards: each shard plays a contiguous block of ids
// and writes its own file.
func ExampleShard() {
	for i := range 3 {
		s := selfplay.Shard{Index: i, Count: 3}
		lo, hi := s.IDs(10)
		fmt.Println(s, lo, hi, s.FileName(selfplay.JSONLGzip))
	}
	// Output:
	// 0/3 0 3 games-0-of-3.jsonl.gz
	// 1/3 3 6 games-1-of-3.jsonl.gz
	// 2/3 6 10 games-2-of-3.jsonl.gz
}

// A Slurm array task (sbatch --array=1-4) finds its shard in the environment.
func ExampleShardFromEnv() {
	// Task 3 of sbatch --array=0-3, and the same task resubmitted alone with
	// sbatch --array=3 and --shards 4.
	env := map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"}
	s, ok, err := selfplay.ShardFromEnv(func(k string) string { return env[k] }, 0)
	fmt.Println(s, ok, err)
	env = map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "1"}
	s, ok, err = selfplay.ShardFromEnv(func(k string) string { return env[k] }, 4)
	fmt.Println(s, ok, err)
	// Output:
	// 3/4 true <nil>
	// 3/4 true <nil>
}

// VerifyGame replays a record with the rules: here Fairy-Stockfish's mate
// in 8 plies from the bare-king handicap (docs/rules.md#bare-king), and the
// same game cut one ply short.
func ExampleVerifyGame() {
	g := &record.Game{
		Variant: "minishogi", Start: "4k/5/5/P4/KGSBR w - 1",
		Moves:  []string{"1a2a", "4e4d", "2a2b", "2e5b", "2b2a", "4d3c", "2a3a", "1e1a"},
		Result: record.Sente, Termination: record.Checkmate, Plies: 8,
		Rules: record.Rules{Repetition: record.RepetitionFirstMoverLoses},
	}
	fmt.Println(selfplay.VerifyGame(g))
	g.Moves, g.Plies = g.Moves[:7], 7
	fmt.Println(selfplay.VerifyGame(g))
	// Output:
	// <nil>
	// game 0: termination checkmate but the game is not over after its 7 moves
}

// A run of random players: every game ends by the rules or at the play
// limit, and the file verifies.
func ExampleRun_Execute() {
	dir, err := os.MkdirTemp("", "selfplay-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	random, _ := selfplay.ParsePlayerSpec("random", selfplay.PlayerSpec{})
	openings, _ := selfplay.ParseStart("startpos")
	run := &selfplay.Run{
		Match: selfplay.Match{A: random, B: random, Openings: openings,
			Rules: minishogi.GameOptions{MaxPlies: 100}, Seed: 1, Version: "example"},
		Games: 4, Parallel: 2, OutDir: dir,
	}
	sum, err := run.Execute(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	v, err := selfplay.Verify(context.Background(), []string{sum.Path}, selfplay.VerifyOptions{CheckSeeds: true, Seed: 1})
	fmt.Println(filepath.Base(sum.Path), sum.Played, v.Games, err)
	// Output:
	// games-0-of-1.jsonl 4 4 <nil>
}
