// Package selfplay is the self-play runner of shogilab: it plays Minishogi
// games between engine configurations and writes game records (package
// record; datasets/README.md is the format) for datasets, on one machine or
// as one shard of a cluster job array.
//
// A tour:
//
//	sente, _ := selfplay.ParsePlayerSpec("mcts:playouts=400", selfplay.PlayerSpec{Noise: 0.25})
//	gote, _ := selfplay.ParsePlayerSpec("usi:/usr/games/fairy-stockfish,nodes=20000", selfplay.PlayerSpec{})
//	openings, _ := selfplay.ParseStart("startpos")   // or a handicap name, or "@file" of SFENs
//	run := &selfplay.Run{
//		Match: selfplay.Match{Sente: sente, Gote: gote, Openings: openings,
//			Rules: minishogi.GameOptions{MaxPlies: 256}, Seed: 1, Version: selfplay.Version()},
//		Games: 1000, Parallel: 2, Shard: selfplay.Shard{Index: 0, Count: 4}, OutDir: "out",
//	}
//	sum, err := run.Execute(ctx)                      // out/games-0-of-4.jsonl
//	selfplay.Merge(paths, "all.jsonl", 1000)          // fails on a missing or duplicate id
//	selfplay.Verify([]string{"all.jsonl"}, selfplay.VerifyOptions{})
//
// Reproducibility. Game id's seed is GameSeed(base, id), a SplitMix64 mix
// of the run's base seed and the id alone; each side's player draws from
// SideSeed(game seed, side). With one search thread per game and playout
// (not time) budgets, a game's record therefore depends on the run's flags
// and its id only, not on --parallel or the sharding: one worker, two
// workers and three merged shards give the same records apart from the
// timing fields (started_at, seconds, stats[].ms).
//
// Sharding. Shard i of n plays the contiguous block of ids Shard.IDs gives
// and writes its own file, games-I-of-N.jsonl; ShardFromEnv reads the shard
// from a Slurm job array or a Kubernetes Indexed Job.
//
// Crash safety. Each record is written with one write call as its game ends
// (record.Writer), so a killed run leaves whole records and at most one
// partial line. Execute on the same directory keeps the whole records,
// cuts the partial line and plays only the missing ids; a file from another
// run (other seed, other shard) is refused, and so is one whose games were
// played with other settings (the records store the run's configuration;
// Run.AllowChanges accepts it). A shard is locked while a run writes it, so a
// second run on it refuses. A cancelled context abandons the games in flight
// and writes nothing partial.
//
// Players. A Player answers moves for one side of one game: the toolkit's
// MCTS engine (package engine), an external USI engine (package usi; one
// process per worker, reused across games with usinewgame), or uniformly
// random moves. A player that fails or answers something that is not a move
// loses the game with termination engine_error, one that plays an illegal
// move loses with illegal_move, and the record's detail keeps what happened;
// the run goes on. A USI engine's options are checked against what it
// declares before the run.
//
// Errors are prefixed "selfplay:".
package selfplay
