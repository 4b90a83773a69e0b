// Package nnue is a small efficiently updatable neural network (NNUE) for the value of
// Minishogi positions, as the search evaluates it, with an optional policy head for the
// priors of their moves, and its evaluation file format.
//
// A tour:
//
//	net, err := nnue.ReadFile("net.nnue")  // a file written by cmd/train (format in file.go)
//	acc := net.NewAccumulator()             // one per search goroutine
//	v := acc.Evaluate(&pos)                 // value for the side to move, in (-1, 1)
//
// The inputs are the feature set halfkp-5x5 (features.go): every piece on the board or in
// hand, relative to each side's king. The first layer, the feature transformer, turns them
// into one vector (the accumulator) per side; the side to move's and the other's are
// joined, clipped to [0, 1], and pass through one small hidden layer to a value, tanh of
// the output (Model gives the formula). The search holds the network quantised to int16
// (Net, made from a float Model by Quantise), and an Accumulator follows the positions
// it is asked about by their difference from the last one, so a move made or taken back
// costs a few rows of additions rather than the whole first layer.
//
// The policy head (Model and docs/policy.md give its formula) reads the same activations:
//
//	if net.HasPolicy() {
//		v := acc.EvaluatePolicy(&pos)            // the value, and the head's hidden layer
//		ctx := nnue.NewMoveContext(&pos)
//		feats, _ := ctx.MoveFeatures(m, nil)     // the move's rows of the move table
//		z := acc.MoveLogit(feats)                // its logit; the priors are their softmax
//	}
//
// A move is encoded as the rows of the move feature set moves-5x5 (moves.go): its from- and
// to-square and promotion, or for a drop its kind and square; the piece as it stands after
// the move on its square; the kind captured; whether it checks; whether its square is
// attacked (and defended); whether it escapes an attack. A file of version 1 has no policy
// head, and the evaluator's hand-set priors apply (engine/eval).
//
// The design follows Nasu, "Efficiently Updatable Neural-Network-based Evaluation
// Functions for Computer Shogi" (2018), and Stockfish's quantisation (activations at 127,
// weights at 64), cut down to the 5x5 board. Package train/netfit trains a Model, both heads.
package nnue
