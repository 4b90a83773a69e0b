package notation_test

import (
	"fmt"
	"log"

	"github.com/shogilab/shogilab/notation"
	"github.com/shogilab/shogilab/record"
)

// The first moves of a game from the normal start, in KIF: the start is
// the 5五将棋 handicap line that lishogi reads as Minishogi's start; each
// move has its time and the mover's total, and a comment with what the
// mover's search saw.
func ExampleKIF() {
	g := &record.Game{
		ID: 7, Seed: 42, Variant: "minishogi", Start: "rbsgk/4p/5/P4/KGSBR b - 1",
		Moves: []string{"2e4c", "3a3b"}, Plies: 2, Result: record.Sente, Termination: record.Resignation,
		Players: record.Players{Sente: record.Player{Name: "mcts"}, Gote: record.Player{Name: "fairy-stockfish"}},
		Stats: []record.MoveStats{
			{Visits: 800, Value: 0.12, Top: []record.TopMove{{Move: "2e4c", Visits: 610}, {Move: "3e2d", Visits: 120}}, MS: 2400},
			{Visits: 2000, Value: -0.3, MS: 1100},
		},
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
	//    1 ４三角(25)   ( 0:02/00:00:02)
	// *value 0.120, visits 800; top 2e4c 610, 3e2d 120
	//    2 ３二銀(31)   ( 0:01/00:00:01)
	// *value -0.300, visits 2000
	//    3 投了         ( 0:00/00:00:02)
	// まで2手で先手の勝ち
}
