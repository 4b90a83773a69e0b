// Package evaluation holds the shipped evaluation network (datasets/README.md, "The
// evaluation network", gives how it was made) so that the engine can carry it in its
// binary: the engine's default evaluator is this network (engine.BuiltinNet).
package evaluation

import _ "embed"

// Builtin is the evaluation file fsf5000-64x16-p8.nnue, byte for byte: an NNUE network in
// the file format of engine/nnue, its value fitted to 5,000 games of Fairy-Stockfish 11.1
// (the value network of fsf5000-64x16.nnue, the default before it) and its policy head of
// 8 units to the moves Fairy-Stockfish played in 726 such games (docs/policy.md).
//
//go:embed fsf5000-64x16-p8.nnue
var Builtin []byte

// BuiltinName names Builtin in records and in the engine's EvalFile setting.
const BuiltinName = "fsf5000-64x16-p8"
