package mcts

import "math/rand/v2"

// Evaluator judges a position for the search: a prior for every legal move
// and a value for the side to move.
//
// The search gives every goroutine its own Evaluator (see NewSearcher), so an
// Evaluator need not be safe for concurrent use and may keep scratch buffers.
type Evaluator interface {
	// Evaluate is called on a position that is not over, with its legal
	// moves. It writes one prior per move into priors (len(priors) ==
	// len(moves); the search normalises them, and all zero means uniform) and
	// returns the position's evaluation. It must not change moves; it may
	// play moves on g but must take them back before it returns. The value
	// must not be NaN. rng is the calling goroutine's
	// generator, seeded from Config.Seed, for evaluators that sample.
	Evaluate(g Game, moves []Move, priors []float32, rng *rand.Rand) Evaluation
}

// Deepener is an Evaluator with a second look at a position, too costly to take at
// every expansion: the search asks for it once it has come back to a node some times
// (Config.DeepenVisits), so that only the positions it keeps returning to pay for it.
// Most nodes of a tree are visited a few times; the ones its result depends on, many.
// (The engine's evaluator looks for longer mates there: engine/eval.)
type Deepener interface {
	// EvaluateDeep is Evaluate with the second look taken at once. The search evaluates
	// its root so, which every playout visits and which needs its proven move found
	// first (an Evaluator marks such a move by its prior).
	EvaluateDeep(g Game, moves []Move, priors []float32, rng *rand.Rand) Evaluation
	// Deepen is called on a position the Evaluator evaluated, not proven and not the
	// root, by the playout that passes through its node after Config.DeepenVisits visits
	// (with one goroutine exactly once; with several, rarely twice or not at all). It returns a
	// proof of the position's result for the side to move, when it finds one, and the
	// search then treats the node as solved. Like Evaluate it may play moves on g but
	// must take them back.
	Deepen(g Game) (Proof, bool)
}

// Evaluation is an Evaluator's judgement of a position.
type Evaluation struct {
	// Value is the expected result for the side to move, in [-1, 1].
	Value float32
	// Proof, when not outcome.Unknown, is a result the evaluator has proven (for
	// example a mate search found a forced win): the search treats the
	// position as solved, as it treats a finished game.
	Proof Proof
}

// UniformEvaluator gives every move the same prior and every position the
// value 0: the search then runs on the MCTS-solver's proofs alone. It is safe
// for concurrent use.
type UniformEvaluator struct{}

// Evaluate implements Evaluator.
func (UniformEvaluator) Evaluate(g Game, moves []Move, priors []float32, rng *rand.Rand) Evaluation {
	for i := range priors {
		priors[i] = 1
	}
	return Evaluation{}
}

// RolloutEvaluator gives every move the same prior and values a position by
// one random playout, as in plain Monte Carlo tree search (Coulom 2006;
// Kocsis and Szepesvári 2006): moves chosen uniformly until the game ends,
// or MaxPlies moves, which count as a draw. Each search goroutine needs its
// own (it keeps a move buffer).
type RolloutEvaluator struct {
	MaxPlies int
	moves    []Move
}

// NewRolloutEvaluator returns a RolloutEvaluator whose playouts stop as a draw
// after maxPlies moves.
func NewRolloutEvaluator(maxPlies int) *RolloutEvaluator {
	return &RolloutEvaluator{MaxPlies: maxPlies}
}

// Evaluate implements Evaluator.
func (r *RolloutEvaluator) Evaluate(g Game, moves []Move, priors []float32, rng *rand.Rand) Evaluation {
	for i := range priors {
		priors[i] = 1
	}
	var value float32
	sign := float32(1) // +1 while the side to move is the one being evaluated
	played := 0
	for ; played < r.MaxPlies; played++ {
		if over, v := g.Outcome(); over {
			value = sign * v
			break
		}
		r.moves = g.LegalMoves(r.moves[:0])
		g.Play(r.moves[rng.IntN(len(r.moves))])
		sign = -sign
	}
	if played == r.MaxPlies {
		if over, v := g.Outcome(); over {
			value = sign * v
		}
	}
	for range played {
		g.Undo()
	}
	return Evaluation{Value: value}
}
