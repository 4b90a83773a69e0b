package eval_test

import (
	"fmt"

	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// The start is symmetric, so every term but the side to move's Tempo (30, DefaultWeights)
// cancels; Gote without its rook (650) is far behind.
func ExampleEvaluator_Centipawns() {
	e := eval.New(eval.DefaultConfig())
	start := minishogi.StartPosition()
	noRook, _ := minishogi.ParseSFEN("1bsgk/4p/5/P4/KGSBR b - 1") // Gote without its rook
	fmt.Println(e.Centipawns(&start), e.Centipawns(&noRook) > 500)
	// Output: 30 true
}

// Value is tanh(cp/700): tanh(0) = 0, tanh(1) = 0.7616; Centipawns inverts it.
func ExampleWeights_Value() {
	w := eval.DefaultWeights()
	fmt.Printf("%.2f %.2f %d\n", w.Value(0), w.Value(700), w.Centipawns(w.Value(700)))
	// Output: 0.00 0.76 700
}
