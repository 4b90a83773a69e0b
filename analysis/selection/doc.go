// Package selection streams the games an analysis asks for out of record
// files: any number of files, JSON Lines (plain or gzip) or Parquet games
// tables, read one game at a time, kept or dropped by a Filter on players,
// start position and date. An analysis names the fields it reads
// (Options.Fields) and only those are decoded.
//
//	f := selection.Filter{Player: "mcts-800"}
//	if err := f.SetStart("bare-king"); err != nil { ... } // or an SFEN
//	counts, err := selection.Stream(paths, f, selection.Options{SkipBad: true},
//		func(g *record.Game) error { tree.Add(g); return nil })
//
// Memory does not grow with the number of games: the readers hold a few
// chunks or row groups at a time and Stream keeps nothing of a game after fn
// returns.
// Errors name the file and line of a bad record (record.LineError); with
// SkipBad the bad records are counted in Counts.Skipped instead.
package selection
