package minishogi_test

import (
	"fmt"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// After 2e3d there are 180 two-ply continuations: the 2e3d line of Fairy-Stockfish's `go
// perft 3` divide of the start position (cmd/usi's TestPerftMatchesFairyStockfish compares
// the divides).
func Example() {
	pos := minishogi.StartPosition()
	m, err := pos.ParseMove("2e3d")
	if err != nil {
		panic(err)
	}
	pos.MakeMove(m)
	fmt.Println(pos.SFEN())
	fmt.Println(pos.Perft(2))
	// Output:
	// rbsgk/4p/5/P1B2/KGS1R w - 2
	// 180
}

func ExampleParseSFEN_error() {
	_, err := minishogi.ParseSFEN("rbsgk/4p/6/P4/KGSBR b - 1")
	fmt.Println(err)
	// Output: minishogi: sfen: rank 3 (c) has 6 files, want 5
}

func ExampleGame() {
	start, _ := minishogi.ParseSFEN("4k/5/4G/5/K4 b G 1")
	g := minishogi.NewGame(start, minishogi.GameOptions{})
	if err := g.PlayUSI("G*1b"); err != nil {
		panic(err)
	}
	fmt.Println(g.Result(), g.Result().Termination)
	// Output: sente checkmate
}

func ExampleHandicap() {
	pos, _ := minishogi.Handicap("bare-king")
	var ml minishogi.MoveList
	pos.GenerateLegal(&ml)
	fmt.Println(pos.SFEN(), pos.InCheck(), ml.Slice())
	// Output: 4k/5/5/P4/KGSBR w - 1 true [1a2a 1a2b]
}
