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
