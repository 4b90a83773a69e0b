package selfplay

import (
	"context"
	"io"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
)

// eachRecord calls fn with every record of a finished record file, plain
// or gzip, and its 1-based line number (of the decompressed text). Unlike
// record.ScanFile, which forgives the partial last line a kill leaves so
// that a run can resume, a file given to merge or verify must be whole: a
// last line without its newline is an error. Bad records, and fn's errors,
// are *record.LineError.
//
// Parquet games tables are read too (table.Reader); their "lines" are rows.
// Once ctx is cancelled it returns ctx's error (wrapped), also while a file
// sends nothing.
func eachRecord(ctx context.Context, path string, fn func(line int, g *record.Game) error) error {
	r := table.NewReader([]string{path}, table.Options{RequireNewline: true, Context: ctx})
	defer r.Close()
	for {
		g, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		file, line := r.Position()
		if err := fn(line, g); err != nil {
			return &record.LineError{File: file, Line: line, Err: err}
		}
	}
}
