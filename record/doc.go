// Package record reads and writes shogilab game records: JSON Lines, one
// game per line, plain (.jsonl) or gzip (.jsonl.gz). datasets/README.md is
// the format's specification and datasets/record.schema.json its JSON
// Schema.
//
// A tour:
//
//   - Game is one record; Validate checks it (required fields, enumerations,
//     plies == len(moves), at most one stats entry per move, a result that
//     follows from the termination). StripTiming zeroes the timing fields
//     (started_at, seconds, stats[].ms) so two runs of a seed compare equal.
//   - ParseLine and MarshalLine convert one line.
//   - Writer appends games with one write per game and no buffering, so a
//     killed run leaves at most one partial record. Gzip files are written
//     one gzip member per game (a standard multistream file), which keeps
//     that property.
//   - Reader streams games from many files, plain or gzip (recognised by
//     their magic bytes), in constant memory; its errors are *LineError
//     naming the file and line, and SkipInvalid makes it skip bad records
//     and count them. It reads ahead and decodes on every core (Workers),
//     gzip files written a member per game inflated in parallel too, and
//     WithFields makes it decode only the fields asked for (Fields),
//     skipping the statistics' bytes unparsed.
//   - ScanFile (and Recover, which collects) reads a file a killed run left
//     and returns the byte offset where its complete records end.
//   - Locate reads a file once and gives each record's Location (its line,
//     and the byte offset of its line or gzip member), and ReadAt reads one
//     record back from it alone: how a viewer pages through a large file.
//
// A runner resumes a killed run by keeping the complete games, cutting the
// partial one and appending:
//
//	end, err := record.ScanFile(path, func(g *record.Game) error { done[g.ID] = true; return nil })
//	// handle err
//	os.Truncate(path, end)
//	w, err := record.Append(path)
//
// Errors are prefixed "record:"; bad data returns errors, misuse panics.
package record
