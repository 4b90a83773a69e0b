// Package table holds game records at scale: as Parquet tables for the
// data tools (DuckDB, pandas, polars) and as JSON Lines, read alike.
//
// A tour:
//
//   - Create writes records as two Parquet tables, zstd-compressed in row
//     groups of RowGroupGames games: the games table (one row a game, every
//     field but the statistics, and the players' settings as typed columns
//     beside their configs' JSON when given SettingColumns) and the positions
//     table (one row a move: the position's SFEN, the side to move, the move,
//     the mover's search statistics, the game's result, its outcome for the
//     mover, termination and length). datasets/README.md documents every
//     column; GamesSchema and PositionsSchema are the same in Go.
//
//   - Convert writes the tables from record files, by game id.
//
//   - NewReader is the one way to open records: games from any mix of files,
//     JSON Lines, plain or gzip (decoded on every core by record.Reader), and
//     games tables (*.parquet), chosen by the name. It reads only the fields
//     (the columns) asked for, and a games table's statistics from its
//     positions table; a filter (Options.Select) and a check of the moves
//     (Options.Check) run on the decoding goroutines. Every command, the
//     analyses (analysis/selection), the viewer and the loop read through it.
//
//   - Positions streams the positions with their training targets (move,
//     visits, top moves, value, result) from record files or positions
//     tables alike: what a trainer reads.
//
//   - CreateFile and OpenFile write and open one Parquet table the way every
//     table of the repository is written and opened (zstd, metadata in
//     sorted key order, atomic; row groups checked against MaxGroupValues and
//     the stored Arrow schema left unread): this package's two tables and
//     train/labels's labels table.
//
//     w, err := table.Create("out/games.parquet", "out/positions.parquet")
//     for _, g := range games { err = w.Write(g) }
//     n, err := w.Close()
//
//     r := table.NewReader([]string{"out/games.parquet", "more.jsonl.gz"}, table.Options{Fields: record.FieldMoves | record.FieldResult})
//     for { g, err := r.Read(); if err == io.EOF { break } ... }
//
// Errors are prefixed "table:"; a file that is not a table of this
// package, or is cut short, is an error naming the file.
package table
