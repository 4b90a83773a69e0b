package table

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/shogilab/shogilab/record"
)

// sortRun is the most games Convert holds in memory: a few kilobytes each, some tens of
// megabytes in all.
const sortRun = RowGroupGames

// Convert writes the games of the record files in (JSON Lines, plain or gzip, or games
// tables) as the games table games and the positions table positions, by id (games of one
// id in the order given), with a typed column for each of settings (Create). It returns the
// number of games. Memory does not grow with the games: runs of sortRun games are sorted in
// memory and, when there are more, written to temporary record files beside games and
// merged from there (a self-play shard is in the order its games finished, and shards
// interleave). On failure, or when ctx is cancelled (SIGINT, SIGTERM), the tables already
// there stay as they were (a failure while putting the new ones in place may leave the new
// positions table alone: never a games table with another's positions; see Writer).
func Convert(ctx context.Context, in []string, games, positions string, settings ...SettingColumn) (int, error) {
	w, err := Create(games, positions, settings...)
	if err != nil {
		return 0, err
	}
	if err := ByID(in, Options{RequireNewline: true, Context: ctx}, filepath.Dir(games), check, w.Write); err != nil {
		w.Abort()
		return 0, err
	}
	return w.Close()
}

// ByID calls fn with the games of the files in (read as NewReader reads them with opts) by
// id, games of one id in the order given. Memory does not grow with the games: runs of
// sortRun games are sorted in memory and, when there are more, written to temporary record
// files in dir (os.TempDir() if "") and merged, and removed before ByID returns. A
// cancelled opts.Context stops it with the context's error. check, if
// not nil, sees each game as it is read, so that its error can name the file and line.
func ByID(in []string, opts Options, dir string, check, fn func(*record.Game) error) error {
	if dir == "" {
		dir = os.TempDir()
	}
	s := &sorter{dir: dir, size: sortRun}
	defer s.cleanup()
	r := NewReader(in, opts)
	defer r.Close()
	for {
		g, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err // a reader's error names its file and line
		}
		if check != nil {
			if err := check(g); err != nil {
				file, line := r.Position()
				return fmt.Errorf("%w (%s:%d)", err, file, line)
			}
		}
		if err := s.add(g); err != nil {
			return err
		}
	}
	return s.each(opts.Context, fn)
}

// check tells a game that Write would refuse, while its file and line are known.
func check(g *record.Game) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	_, err := replay(g)
	return err
}

// sorter sorts games by id in runs of size, spilling full runs to temporary files in dir.
type sorter struct {
	dir  string
	size int
	run  []*record.Game
	runs []string // temporary record files, each sorted
}

func byID(a, b *record.Game) int { return cmp.Compare(a.ID, b.ID) }

func (s *sorter) add(g *record.Game) error {
	s.run = append(s.run, g)
	if len(s.run) < s.size {
		return nil
	}
	return s.spill()
}

// spill writes the run, sorted, to a temporary file.
func (s *sorter) spill() error {
	slices.SortStableFunc(s.run, byID)
	f, err := os.CreateTemp(s.dir, ".convert-run-*.jsonl")
	if err != nil {
		return fmt.Errorf("table: %w", err)
	}
	s.runs = append(s.runs, f.Name())
	rw := record.NewWriter(f)
	for _, g := range s.run {
		if err := rw.Write(g); err != nil {
			f.Close()
			return fmt.Errorf("table: %s: %w", f.Name(), err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("table: %w", err)
	}
	s.run = s.run[:0]
	return nil
}

// each calls fn with every game added, by id, until ctx (if not nil) is cancelled.
func (s *sorter) each(ctx context.Context, fn func(*record.Game) error) error {
	if len(s.runs) == 0 {
		slices.SortStableFunc(s.run, byID)
		for _, g := range s.run {
			if err := fn(g); err != nil {
				return err
			}
		}
		return nil
	}
	if len(s.run) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	// Merge the runs: the least id at the heads, the earlier run on a tie.
	readers := make([]*Reader, len(s.runs))
	heads := make([]*record.Game, len(s.runs))
	for i, path := range s.runs {
		readers[i] = NewReader([]string{path}, Options{})
		defer readers[i].Close()
	}
	next := func(i int) error {
		g, err := readers[i].Read()
		if err == io.EOF {
			heads[i] = nil
			return nil
		}
		heads[i] = g
		return err
	}
	for i := range readers {
		if err := next(i); err != nil {
			return err
		}
	}
	for {
		least := -1
		for i, g := range heads {
			if g != nil && (least < 0 || g.ID < heads[least].ID) {
				least = i
			}
		}
		if least < 0 {
			return nil
		}
		if ctx != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err := fn(heads[least]); err != nil {
			return err
		}
		if err := next(least); err != nil {
			return err
		}
	}
}

func (s *sorter) cleanup() {
	for _, path := range s.runs {
		os.Remove(path)
	}
}
