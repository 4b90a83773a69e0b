// Package eval is the Minishogi evaluator of the shogilab engine: for every position the
// search expands it gives move priors, a value, and, when it finds one, a proven mate.
//
// A tour:
//
//	e := eval.New(eval.DefaultConfig())           // one per search goroutine
//	searcher, _ := mcts.NewSearcher(cfg, func() mcts.Evaluator { return eval.New(ecfg) })
//	cp := e.Centipawns(&pos)                       // the static evaluation, side to move
//
// Priors come from move features, each adding a weight to the move's log-prior: captures
// by the value taken, promotions (and a penalty when a bishop or rook declines), checks,
// drops next to the enemy king, escapes of an attacked piece, and a penalty for putting a
// piece en prise. The value is a centipawn score (material on the board and in hand, king
// safety, the best capture on offer, the tempo) mapped to (-1, 1) by tanh. Every number is
// a field of Weights, in one place, so that a later issue can fit them to self-play data.
//
// The mate search runs in two parts: at every expansion to Config.MateExpandDepth (mate in
// one by default, trying each checking move), and, where the side to move has a check, on
// to MateDepth (mate in three and then five by checks only, within a node budget) once the
// search has come back to the position a few times (Deepen, mcts.Deepener); the root gets
// both at once (EvaluateDeep). Most positions a search expands it visits only a few times,
// and they paid for most of the deeper search (docs/tactics.md).
// A mate is returned as a proof (mcts.Evaluation.Proof, or Deepen's), which the search's
// MCTS-solver propagates; so the engine never misses a mate in one, and never plays a move
// whose reply mates once that move's node has been expanded (its mate in one is then a
// proven loss for the mover).
//
// With a network that has a policy head (the engine's default), each evaluator keeps a cache
// of the network's value and priors by position (cache.go, Config.CacheMiB), and records
// there the positions a mate search proved free of mates whatever the game's history, so
// that a position met again costs neither; the search's tree is the same with it.
//
// The evaluator needs the position behind the search's game: it works on any mcts.Game
// that also implements Game, such as engine.Game.
package eval
