// Package mcts is a game-agnostic parallel Monte Carlo tree search with PUCT
// selection and the MCTS-solver, for two-player zero-sum games with
// alternating moves.
//
// A game enters through the small Game interface (legal moves, play, undo,
// outcome, hash); what the search knows of a position beyond the rules comes
// from an Evaluator (move priors, a value, and optionally a proven result such
// as a mate found by a short search). UniformEvaluator and RolloutEvaluator
// serve games without a heuristic.
//
// # A search
//
//	s, err := mcts.NewSearcher(mcts.DefaultConfig(), func() mcts.Evaluator {
//		return mcts.NewRolloutEvaluator(200)
//	})
//	res, err := s.Search(ctx, game, mcts.Limits{Playouts: 10000})
//	game.Play(res.Best)
//
// Limits bound a search by playouts, by time, or not at all (the search then
// runs until ctx is cancelled or Stop is called, as USI's "go infinite"
// needs). Limits.OnInfo receives periodic snapshots (playouts, nodes, depth,
// PV, value, proof) for USI info lines. The SearchResult holds the move to play,
// every root move's visits, value, prior and proof, and why the search
// stopped.
//
// # Selection and parallelism
//
// Each playout descends by PUCT, Q + c·P·√N/(1+n) (AlphaGo Zero), with a
// first-play value for unvisited children reduced from the parent's value
// (Lc0, KataGo). Config.Threads goroutines search one tree (tree
// parallelism): visits, playouts in flight and value sums are per-node
// atomics, a playout in flight counts as a virtual loss (Chaslot et al. 2008),
// and a leaf is expanded by the one goroutine that moves it from unexpanded
// to expanding with a compare-and-swap; another goroutine arriving there
// retries from the root. Node states only move forward, as in KataGo. There
// is no tree-wide lock and a playout allocates nothing.
//
// With playouts of a few microseconds, what limits a shared tree is the
// traffic of cache lines between the cores where the goroutines' paths meet.
// With several goroutines the search therefore changes in three ways, none of
// which touch a one-goroutine search: each goroutine takes the nodes of its
// expansions from a chunk of the pool of its own; the heavy nodes at the top
// of the tree (many visits) take no virtual loss and receive their visits in
// batches; and a descent that expands a leaf also expands the leaf's twin,
// the sibling PUCT picks next with the leaf in flight (Config.Twins), so that
// one walk down the shared part of the tree serves two playouts.
//
// # The MCTS-solver
//
// Finished games and evaluator proofs are proven results; they propagate up
// the tree (Winands, Björnsson and Saito 2008): a position is won if one move
// wins, lost or drawn once every move is proven. Selection skips moves proven
// to lose and takes a move proven to win. When the root is proven the search
// stops at once; a proven win is played, and a proven-lost move is played only
// when every move is lost (then the longest resistance). Proof is the result
// with its distance in plies.
//
// An Evaluator that is also a Deepener gets a second look at a node once the
// search has visited it Config.DeepenVisits times (the engine looks for longer
// mates there), so that a costly search runs only where the tree keeps coming
// back; its proof solves the node like an evaluator's.
//
// # Memory and tree reuse
//
// Nodes live in a pool of Config.MaxNodes nodes of NodeBytes (32) bytes,
// allocated once; an expansion takes one node per legal move. When the pool is
// full the search stops and reports StopPoolFull, with the best move so far.
// Between the moves of a game the tree is kept: Advance moves the root down
// the tree, and Search recognises by Hash a position one or two plies below the
// last root. The rest of the old tree stays in the pool, unreachable, until the
// pool is more than half full; then the kept subtree is compacted to its front.
// The search is the same either way.
//
// # For a USI engine
//
// Info maps onto an info line: depth Depth, seldepth SelDepth, nodes
// Playouts, nps PlayoutsPerSecond, pv PV, and score mate ±Proof.Plies when
// the root is proven (negative for a loss), else a cp score from Value.
// "bestmove resign" is right exactly when SearchResult.Proof.Outcome is outcome.Loss. A hash
// size of H MiB is MaxNodes = H<<20 / NodeBytes. Search returns as soon as
// the root is proven, even without limits; under "go infinite" the engine
// holds the bestmove until "stop".
//
// # Self-play and reproducibility
//
// Config.DirichletEpsilon mixes Dirichlet noise into the root priors and
// Config.TemperaturePlies draws the first moves of a game in proportion to
// visits^(1/T) (AlphaZero). Every random choice flows from Config.Seed: with
// Threads = 1 and a playout budget, the same calls give the same moves and
// statistics every time. With more threads the scheduling of goroutines
// changes the statistics from run to run.
//
// # Training targets
//
// Result.Target is what a policy network learns from a search. Config.GumbelMoves makes
// the root a Gumbel root (Danihelka et al. 2022; gumbel.go): it samples moves without
// replacement by Gumbel-top-k on the priors' logits, halves them over the playout budget
// (sequential halving) and plays the best survivor; its target is the improved policy,
// softmax(logit + σ(completed Q)). Below the root PUCT selects as always. Otherwise the
// target is the visit distribution, from which Config.ForcedPlayouts' forced visits are
// pruned again (KataGo; target.go). Limits.NoNoise searches without root noise, as a
// playout cap's fast search does.
package mcts
