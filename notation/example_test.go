package notation_test

import (
	"fmt"
	"log"

	"github.com/shogilab/shogilab/notation"
	"github.com/shogilab/shogilab/record"
)

// The first moves of a game from the normal start, in KIF: the start is
// the 5五将棋 handicap line that lishogi reads as Minishogi's start.
func ExampleKIF() {
	g := &record.Game{
		ID: 7, Seed: 42, Variant: "minishogi", Start: "rbsgk/4p/5/P4/KGSBR b - 1",
		Moves: []string{"2e4c", "3a3b"}, Plies: 2, Result: record.Sente, Termination: record.Resignation,
		Players: record.Players{Sente: record.Player{Name: "mcts"}, Gote: record.Player{Name: "fairy-stockfish"}},
	}
	kif, err := notation.KIF(g)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(kif)
	// Output:
	// #KIF version=2.0 encoding=UTF-8
	// #shogilab game 7 seed 42 termination resignation
	// 手合割：5五将棋
	// 先手：mcts
	// 後手：fairy-stockfish
	// 手数----指手---------消費時間--
	//    1 ４三角(25)
	//    2 ３二銀(31)
	//    3 投了
	// まで2手で先手の勝ち
}
