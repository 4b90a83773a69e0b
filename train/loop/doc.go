// Package loop is the self-play learning loop: generation after generation, the current
// best network plays itself, a candidate is fitted to the games from the best's weights,
// and the candidate replaces the best only when it beats it in a gating match. It is the
// loop of AlphaZero as KataGo and Leela Chess Zero run it (Silver et al., "Mastering Chess
// and Shogi by Self-Play with a General Reinforcement Learning Algorithm", 2017; Wu,
// "Accelerating Self-Play Learning in Go", 2019), on CPU and at the scale of Minishogi.
//
// A tour:
//
//	cfg := loop.DefaultConfig()
//	cfg.Dir, cfg.Generations, cfg.Openings = "run1", 5, openings
//	err := loop.Run(ctx, cfg)        // run1/loop.jsonl: one line per generation
//	gens, err := loop.ReadLog("run1") // for the learning curve (Curve)
//
// Generation g (1, 2, ...), each step writing its results into RUN/gen-NNN/:
//
//  1. self-play: Games games of the best against itself at Playouts a move, with
//     Dirichlet noise and TemperaturePlies plies of moves drawn by visits for variety,
//     from the openings in turn (records/, package selfplay; Parallel games at once, or a
//     Slurm job array);
//  2. fit: a candidate network fitted (package netfit) from the best's weights to the
//     positions of the last Window generations' games (candidate.nnue, fit.json);
//  3. gate: a match of the candidate against the best at GatePlayouts, game pairs from
//     the openings, stopped by the SPRT or after GateGames games (gate/, gate.json). The
//     candidate is promoted when the SPRT accepts H1, or when the match reaches its bound
//     undecided with a positive log-likelihood ratio (the evidence leans to H1); else it
//     is rejected;
//  4. anchor: every AnchorEvery generations (and at the last) the best after the gate
//     plays a fixed anchor, by default the built-in network at AnchorPlayouts, for the
//     learning curve; a best that did not change since the last anchor match keeps that
//     match's result (anchor.json);
//  5. the generation's line is appended to RUN/loop.jsonl, and a promoted candidate is
//     copied to RUN/best.nnue.
//
// Line 0 of loop.jsonl is generation 0, the initial network, with its anchor result
// (exactly 0 when the initial network is the anchor itself).
//
// Resuming. Every step's result is a file written whole (written beside and renamed), and
// the match and self-play records resume as selfplay does; Run on a directory with a
// partly done generation skips the finished steps and resumes the unfinished one, so a
// run killed anywhere and started again writes the same loop.jsonl as one that was not,
// given one game at a time (Parallel 1) and one fitting thread: the times of things are
// kept out of loop.jsonl for that reason (they are in the steps' files). The
// configuration is stored in RUN/provenance.json; a resume with another configuration
// is refused, naming what differs (Generations may grow).
//
// Every random choice flows from Config.Seed: the self-play, gate and anchor matches'
// seeds and the fit's are SplitMix64 mixes of it, the generation and the step.
package loop
