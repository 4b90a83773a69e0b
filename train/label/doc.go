// Package label labels positions with the deep search of a USI engine
// (Fairy-Stockfish): the training data of a policy and a value (issue 31),
// kept as a Parquet labels table that `train label` writes and a trainer
// reads.
//
// A tour:
//
//   - Collect makes the list of positions from record files (JSON Lines,
//     plain or gzip) and games tables, read by package record/table, and SFEN
//     files such as datasets/openings/book.sfen.gz, read as selfplay reads
//     openings: every position of every game, each once (by board, hands
//     and side to move, minishogi.Code), in the order of the files, with
//     where it was first found, the outcome of that game for the side to
//     move, and how often it was found. A seeded sample keeps each distinct
//     position by a hash of it, whatever the files' order. Positions without
//     a legal move are counted and left out.
//
//   - A Labeller is a usi player spec (selfplay.ParsePlayerSpec) with a
//     depth or node limit. It labels a block of positions with one new
//     process of the engine (selfplay.PlayerSpec.StartUSI sets the variant
//     and the options), usinewgame before each (KeepState: before the
//     first only, which halves Fairy-Stockfish's CPU at depth 8):
//     Fairy-Stockfish's answer depends on what its process searched
//     before, so a label is a function of the block's positions and the
//     spec, never of the machine or of where a run was stopped. Each row
//     has the best move, the score (centipawns or mate), its value as
//     self-play maps an external engine's score (selfplay.USIStats), the
//     depth and nodes.
//
//   - Run labels one shard (shard.Shard: --shard, or the Slurm array's or
//     Kubernetes Indexed Job's index) of the list: a contiguous range of
//     blocks, so that the shards' tables, read in order, are the unsharded
//     run's. Rows go to a journal as they come; a run started again keeps
//     its whole blocks and labels the rest; the finished journal becomes
//     the shard's table, written atomically (internal/atomicfile).
//
//   - labels.Open and labels.Rows (package train/labels, the table's format
//     alone) read labels tables: Row by Row, with the footer's Provenance
//     (the command without machine paths, the labeller's id name, options
//     and limit). datasets/README.md ("The labels table") documents the
//     columns for DuckDB, pandas and polars.
//
//     positions, _, err := label.Collect(label.Sources{Files: []string{"book.sfen.gz", "games.jsonl.gz"}})
//     l, err := label.ParseLabeller("usi:fairy-stockfish,depth=10,option.Threads=1,option.Hash=16")
//     sum, err := label.Run{Labeller: l, Positions: positions, Dir: "labels"}.Do(ctx)
//     err = labels.Rows([]string{sum.File}, func(r labels.Row) error { ...; return nil })
//
// Errors are prefixed "label:" and name the file, line or position.
package label
