package nnue_test

import (
	"fmt"

	"github.com/shogilab/shogilab/engine/nnue"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// A network made by hand: one accumulator unit counts the side's own pawns on the board,
// 0.5 each, and the output is the side to move's unit, so the value is tanh(0.5) = 0.462
// with one pawn and tanh(0) = 0 with none. The quantised network rounds the weight 0.5 to
// 64/127 (0.5·127 = 63.5), so it says tanh(64/127) = 0.465.
func Example() {
	m, _ := nnue.NewModel(1, 1)
	// The first 25 features of each king block are "own pawn on square s".
	for k := range ms.NumSquares {
		for s := range ms.NumSquares {
			m.W1[k*nnue.PieceFeatures+s] = 0.5
		}
	}
	m.W2[0], m.W3[0] = 1, 1 // the side to move's unit, passed through
	net, _ := nnue.Quantise(m, nnue.Header{Data: "by hand"})
	acc := net.NewAccumulator()
	pos := ms.StartPosition()
	fmt.Printf("start: float %.3f, quantised %.3f\n", m.Value(&pos), acc.Evaluate(&pos))
	// Sente has taken Gote's pawn; Gote to move, with no pawn on the board.
	pos, _ = ms.ParseSFEN("rbsgk/5/5/P4/KGSBR w P 2")
	fmt.Printf("Gote without a pawn: float %.3f, quantised %.3f\n", m.Value(&pos), acc.Evaluate(&pos))
	// Output:
	// start: float 0.462, quantised 0.465
	// Gote without a pawn: float 0.000, quantised 0.000
}
