// Package loop is the self-play learning loop: generation after generation the best
// network plays itself, a candidate is fitted to the latest games from the best's weights,
// and each generation's network is placed on the fixed rating ladder. It is the loop of
// AlphaZero as KataGo and Leela Chess Zero run it (Silver et al. 2017; Wu, "Accelerating
// Self-Play Learning in Go", 2019; Danihelka et al., "Policy improvement by planning with
// Gumbel", 2022), on CPU and at the scale of Minishogi.
//
// A tour:
//
//	cfg := loop.DefaultConfig()
//	cfg.Dir, cfg.Generations, cfg.Openings = "run1", 10, openings
//	err := loop.Run(ctx, cfg)         // run1/loop.jsonl: one line per generation
//	gens, err := loop.ReadLog("run1") // the learning curve reads it (analysis/learning)
//
// A generation is a few steps (step.go), each written once and run through one helper,
// step, which skips a step whose result file RUN/gen-NNN/STEP.json is there and otherwise
// runs it and writes that file whole (internal/atomicfile), with its wall and CPU time in
// times.json (a Slurm job array's self-play tasks log their own CPU, which the step adds:
// Slurm):
//
//  1. selfplay: SelfPlay.Games games of the best against itself (records/), with a Gumbel
//     root (GumbelMoves) or PUCT with Dirichlet noise, and KataGo's playout cap (CapFast,
//     CapProb): the records mark the fast moves and keep each full search's policy target;
//  2. fit: a candidate (candidate.nnue) fitted from the best's weights, or from random
//     weights of the sizes Net when the initial evaluation is the hand-set one, to the
//     replay window: the latest generations' positions, up to WindowPositions. The value
//     learns λ·result + (1-λ)·root value (Fit.Lambda), the policy head the searches'
//     targets (train/data); the hyperparameters are netfit.Hyper, the type train fit has;
//  3. gate, only with GateGames > 0: an SPRT match of the candidate against the best; the
//     candidate is promoted only when the test accepts H1. Without a gate every candidate
//     becomes the best;
//  4. rate: the candidate's gauntlet against Rate.Anchors of the ladder (analysis/ladder,
//     datasets/ladder), Rate.Games games against each, and its rating with its 95%
//     interval on the ladder's fixed scale;
//  5. log: the generation's line appended to RUN/loop.jsonl, a promoted candidate copied
//     to RUN/best.nnue.
//
// Generation 0 is the initial network's rating alone.
//
// Resuming. A run killed anywhere and started again skips the finished steps and resumes
// the unfinished one (the match and self-play records resume as selfplay does), and so
// writes the same loop.jsonl as one that was not killed, given one game at a time
// (Parallel 1) and one fitting thread: times are kept out of loop.jsonl for that reason.
// The configuration is stored in RUN/provenance.json; a resume with another is refused,
// naming what differs. Generations may grow, and so may the replay window (WindowPositions),
// as KataGo's grows over a run: the provenance then keeps the window's schedule, the
// generation from which each window applied and the command that set it.
//
// Every random choice flows from Config.Seed: the matches' and the fit's seeds are
// SplitMix64 mixes of it, the generation and the step.
package loop
