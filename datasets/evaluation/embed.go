// Package evaluation holds the shipped evaluation network (datasets/README.md, "The
// evaluation network", gives how it was made) so that the engine can carry it in its
// binary: the engine's default evaluator is this network (engine.BuiltinNet).
package evaluation

import _ "embed"

// Builtin is the evaluation file zero40-64x16-p8.nnue, byte for byte: an NNUE network in
// the file format of engine/nnue with a policy head of 8 units (docs/policy.md), learned by
// self-play alone: generation 40 of the learning loop's run from zero
// (datasets/loop/README.md, "zero"), nothing fitted to another engine's games. It replaced
// fsf5000-64x16-p8.nnue (fitted to Fairy-Stockfish 11.1's games) on winning its SPRTs
// against it (datasets/README.md, "The evaluation network").
//
//go:embed zero40-64x16-p8.nnue
var Builtin []byte

// BuiltinName names Builtin in records and in the engine's EvalFile setting.
const BuiltinName = "zero40-64x16-p8"
