// Package evaluation holds the shipped evaluation network (datasets/README.md, "The
// evaluation network", gives how it was made) so that the engine can carry it in its
// binary: the engine's default evaluator is this network (engine.BuiltinNet).
package evaluation

import _ "embed"

// Builtin is the evaluation file zero40-fsf1m-64x16-p8.nnue, byte for byte: an NNUE network
// in the file format of engine/nnue with a policy head of 8 units (docs/policy.md): the value
// network and feature transformer of generation 40 of the learning loop's run from zero
// (zero40-64x16-p8.nnue, learned by self-play alone; datasets/loop/README.md, "zero"), and its
// policy head fitted to Fairy-Stockfish 11.1's best moves at depth 8 in a million positions
// (datasets/labels: fsf-d8, fsf-d8-games-1 and fsf-d8-games-2). It replaced
// zero40-fsfd8-64x16-p8.nnue, the same network with the head fitted to fsf-d8 alone, on
// winning its SPRTs against it at 1,000 playouts and at 100 ms a move (datasets/README.md,
// "Labelled positions").
//
//go:embed zero40-fsf1m-64x16-p8.nnue
var Builtin []byte

// BuiltinName names Builtin in records and in the engine's EvalFile setting.
const BuiltinName = "zero40-fsf1m-64x16-p8"
