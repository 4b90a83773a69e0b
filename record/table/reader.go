package table

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/shogilab/shogilab/record"
)

// Options tune a Reader.
type Options struct {
	// Fields are the fields to read (record.Fields); zero means all. From a
	// games table only their columns are read, and statistics come from
	// its positions table only when asked for.
	Fields record.Fields
	// SkipInvalid skips bad records, counting them and passing each one's
	// error to OnSkip if it is not nil, instead of stopping.
	SkipInvalid bool
	OnSkip      func(error)
	// RequireNewline makes a JSON Lines file's last line without a newline
	// a bad record (record.RequireNewline).
	RequireNewline bool
	// Select, if not nil, keeps only the games it returns true for (Dropped
	// counts the others). It sees a game with Fields read, on the decoding
	// goroutines of JSON Lines (so it must be safe to call from several at
	// once), and on the reading goroutine for a games table.
	Select func(*record.Game) bool
	// Check, if not nil, judges every game kept before Read returns it, on the
	// decoding goroutines of JSON Lines (record.Check): Read returns a game it
	// rejects together with its error, and reading goes on. Games from a games
	// table are not checked: its writer replayed every game with the rules
	// (Create).
	Check func(*record.Game) error
	// Workers is the number of goroutines decoding JSON Lines; zero means
	// GOMAXPROCS.
	Workers int
	// Context, if not nil, stops the reader: once it is cancelled (SIGINT,
	// SIGTERM) Read returns its error, also while a file sends nothing
	// (record.WithContext).
	Context context.Context
}

// Reader streams games from record files (JSON Lines, plain or gzip) and
// games tables (.parquet), in order, as record.Reader does.
type Reader struct {
	paths []string
	opts  Options
	next  int // index in paths of the next file

	jsonl   *record.Reader // the current file, one of these two
	games   *gamesFile
	name    string
	line    int
	skipped int
	dropped int // by Select, in the files read to their end
	err     error
}

// NewReader reads the files in order; a name ending in .parquet is a games
// table, any other a record file.
func NewReader(paths []string, opts Options) *Reader {
	if opts.Fields == 0 {
		opts.Fields = record.AllFields
	}
	return &Reader{paths: paths, opts: opts}
}

// Read returns the next game, or io.EOF after the last file. A game is the
// caller's to keep.
func (r *Reader) Read() (*record.Game, error) {
	for r.err == nil {
		if ctx := r.opts.Context; ctx != nil && ctx.Err() != nil {
			r.err = fmt.Errorf("table: %w", ctx.Err())
			break
		}
		switch {
		case r.jsonl != nil:
			g, err := r.jsonl.Read()
			if g != nil {
				r.name, r.line = r.jsonl.Position()
				return g, err // err: the game's Check
			}
			r.skipped += r.jsonl.Skipped()
			r.dropped += r.jsonl.Dropped()
			r.jsonl.Close()
			r.jsonl = nil
			if err != io.EOF {
				r.err = err
			}
		case r.games != nil:
			g := new(record.Game)
			err := r.games.next(g)
			if err == nil {
				r.line++
				if r.opts.Select != nil && !r.opts.Select(g) {
					r.dropped++
					continue
				}
				return g, nil
			}
			var le *record.LineError
			if errors.As(err, &le) {
				r.line = le.Line
				if r.opts.SkipInvalid {
					r.skipBad(err)
					continue
				}
			}
			r.games.close()
			r.games = nil
			if err != io.EOF {
				r.err = err
			}
		case r.next == len(r.paths):
			r.err = io.EOF
		default:
			r.open(r.paths[r.next])
			r.next++
		}
	}
	return nil, r.err
}

func (r *Reader) skipBad(err error) {
	r.skipped++
	if r.opts.OnSkip != nil {
		r.opts.OnSkip(err)
	}
}

func (r *Reader) open(path string) {
	r.name, r.line = path, 0
	if IsParquet(path) {
		r.games, r.err = openGames(path, r.opts.Fields)
		return
	}
	ropts := []record.ReaderOption{record.WithFields(r.opts.Fields), record.Workers(r.opts.Workers)}
	if r.opts.SkipInvalid {
		ropts = append(ropts, record.SkipInvalid(r.opts.OnSkip))
	}
	if r.opts.RequireNewline {
		ropts = append(ropts, record.RequireNewline())
	}
	if r.opts.Context != nil {
		ropts = append(ropts, record.WithContext(r.opts.Context))
	}
	if r.opts.Select != nil {
		ropts = append(ropts, record.Select(r.opts.Select))
	}
	if r.opts.Check != nil {
		ropts = append(ropts, record.Check(r.opts.Check))
	}
	r.jsonl = record.NewReader([]string{path}, ropts...)
}

// Replayed reports whether the game Read returned last comes from a games
// table, whose writer replayed every game with the rules: its moves are
// legal.
func (r *Reader) Replayed() bool { return r.games != nil }

// Position returns the file and the line (for a games table, the 1-based
// row) of the game Read returned last.
func (r *Reader) Position() (file string, line int) { return r.name, r.line }

// Skipped is the number of bad records skipped so far.
func (r *Reader) Skipped() int {
	if r.jsonl != nil {
		return r.skipped + r.jsonl.Skipped()
	}
	return r.skipped
}

// Dropped is the number of games Select dropped so far.
func (r *Reader) Dropped() int {
	if r.jsonl != nil {
		return r.dropped + r.jsonl.Dropped()
	}
	return r.dropped
}

// Close closes the file being read.
func (r *Reader) Close() error {
	if r.err == nil {
		r.err = errors.New("table: reader closed")
	}
	if r.jsonl != nil {
		r.skipped += r.jsonl.Skipped()
		r.dropped += r.jsonl.Dropped()
		r.jsonl.Close()
		r.jsonl = nil
	}
	if r.games != nil {
		r.games.close()
		r.games = nil
	}
	return nil
}
