// Package selfplay is the harness that plays Minishogi games between any
// two players — the toolkit's engine in any configuration, any USI engine,
// or uniformly random moves — and writes game records (package record;
// datasets/README.md is the format): self-play datasets, on one machine or
// as one shard of a cluster job array, and matches (cmd/match is a front end
// of this package).
//
// A tour:
//
//	a, _ := selfplay.ParsePlayerSpec("mcts:playouts=400,Noise=0.25", selfplay.PlayerSpec{})
//	b, _ := selfplay.ParsePlayerSpec("usi:/usr/games/fairy-stockfish,nodes=20000", selfplay.PlayerSpec{})
//	openings, _ := selfplay.ParseStart("startpos")   // or a handicap, an SFEN, or "@file" of SFENs
//	run := &selfplay.Run{
//		Match: selfplay.Match{A: a, B: b, Openings: openings,
//			Rules: minishogi.GameOptions{MaxPlies: 256}, Seed: 1, Version: selfplay.Version()},
//		Games: 1000, Parallel: 2, Shard: shard.Shard{Index: 0, Count: 4}, OutDir: "out",
//	}
//	sum, err := run.Execute(ctx)                      // out/games-0-of-4.jsonl
//	selfplay.Merge(ctx, paths, "all.jsonl", 1000)     // fails on a missing or duplicate id
//	selfplay.Verify(ctx, []string{"all.jsonl"}, selfplay.VerifyOptions{})
//
// Players. A PlayerSpec says what plays and how (SpecHelp is the grammar):
// its kind, its settings — for the toolkit's engine the settings of the
// engine's one table (engine.AllSettings) by their USI names, for a USI
// engine options sent with setoption — and its limits as USI's `go` knows
// them: movetime, nodes, depth, or a clock (time, increment, byoyomi) that
// the match keeps for it. A Player answers the moves of one side of one
// game. The toolkit engine's players are kept between games (EnginePool)
// and reseeded (engine.Player.NewGame); a USI engine gets a new process for
// every game, as `usinewgame` does not clear every engine's state. Either
// way a game is played exactly as by a new engine.
//
// Matches. Match.A and Match.B are the players. Without Match.Pairs, A
// plays Sente in every game (a self-play dataset of fixed sides); with it,
// games 2k and 2k+1 start from the same opening with the colours swapped.
// Standings count a match from A's side, game pairs by the pentanomial that
// package sprt computes Elo intervals and the SPRT on. Run.OnGame sees every
// game and may stop a run: a match that has reached its verdict.
//
// Endings. A game ends by the rules (docs/rules.md), or off the board: a
// player that fails loses with termination engine_error (its engine died,
// hung or answered nonsense; the next game gets a new engine), one that
// plays an illegal move with illegal_move, one that oversteps its clock by
// more than Match.TimeMargin with time_forfeit, and `resign` is a
// resignation; the record's detail keeps what the player answered or how its
// engine failed. A USI engine's options are checked against what it declares
// before the run. There is no adjudication by score. The run goes on.
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
// and writes its own file, games-I-of-N.jsonl; shard.FromEnv (internal/shard) reads the shard
// from a Slurm job array or a Kubernetes Indexed Job.
//
// Crash safety. Each record is written with one write call as its game ends
// (record.Writer), so a killed run leaves whole records and at most one
// partial line. In the Parquet format (Run.Format) the records go
// the same way to a journal, which becomes the shard's games and positions
// tables (package record/table) when its last game is written. Execute on the same directory keeps the whole records,
// cuts the partial line and plays only the missing ids; a file from another
// run (other seed, shard, players, starts, rules or version: the records store
// the run's configuration) is refused, naming the setting, unless
// Run.AllowChanges. A shard is locked while a run writes it, so a second run on
// it refuses. A cancelled context abandons the games in flight and writes
// nothing partial.
//
// Openings. ReadOpenings reads a file of start positions (SFEN lines, '#'
// comments; a bad SFEN is an error naming the file and line).
// GenerateOpenings makes a balanced suite: random walks from the start,
// kept where a judge engine scores them within a margin.
//
// Errors are prefixed "selfplay:".
package selfplay
