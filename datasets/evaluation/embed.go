// Package evaluation holds the shipped evaluation network (datasets/README.md, "The
// evaluation network", gives how it was made) so that the engine can carry it in its
// binary: the engine's default evaluator is this network (engine.BuiltinNet).
package evaluation

import _ "embed"

// Builtin is the evaluation file fsf5000-64x16.nnue, byte for byte: an NNUE value network
// in the file format of engine/nnue, fitted to 5,000 games of Fairy-Stockfish 11.1.
//
//go:embed fsf5000-64x16.nnue
var Builtin []byte

// BuiltinName names Builtin in records and in the engine's EvalFile setting.
const BuiltinName = "fsf5000-64x16"
