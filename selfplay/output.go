package selfplay

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
)

// output is where a shard's games go. The games are appended, one write
// each, to the journal, a record file: the shard's file itself for JSON
// Lines, or for Parquet a JSON Lines file beside the tables, which finish
// turns into them when the shard is done. Either way a kill loses only the
// games in flight.
type output struct {
	format  Format
	path    string // the shard's file: its games table for Parquet
	journal string
}

func newOutput(dir string, s shard.Shard, f Format) output {
	o := output{format: f, path: filepath.Join(dir, s.FileName(string(f)))}
	o.journal = o.path
	if f == Parquet {
		o.journal = strings.TrimSuffix(o.path, ".parquet") + ".journal.jsonl"
	}
	return o
}

// finished reports whether the shard's tables are already written, and how
// many games they hold, checking that these are this run's. Tables are only
// written for a shard that is done: all its games, or fewer when the run
// was stopped (Run.OnGame). A journal a kill left after the tables were
// renamed into place is removed.
func (o output) finished(r *Run, lo, hi int) (int, bool, error) {
	if o.format != Parquet || !fileExists(o.path) {
		return 0, false, nil
	}
	rd := table.NewReader([]string{o.path}, table.Options{Fields: record.AllFields &^ record.FieldStats})
	defer rd.Close()
	n := 0
	for {
		g, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, false, fmt.Errorf("selfplay: %w", err)
		}
		if g.ID < lo || g.ID >= hi || g.Seed != GameSeed(r.Seed, g.ID) {
			return 0, false, fmt.Errorf("selfplay: %s holds game %d (seed %d), not one of this run's ids %d..%d with base seed %d: use another --out", o.path, g.ID, g.Seed, lo, hi-1, r.Seed)
		}
		if diff := configDiff(g, r.header(g.ID)); diff != "" && !r.AllowChanges {
			return 0, false, fmt.Errorf("selfplay: %s holds game %d played with another %s: it is another run's; use the same settings or another --out", o.path, g.ID, diff)
		}
		n++
	}
	if n > hi-lo {
		return 0, false, fmt.Errorf("selfplay: %s holds %d games, more than this shard's %d: use another --out", o.path, n, hi-lo)
	}
	if err := os.Remove(o.journal); err != nil && !os.IsNotExist(err) {
		return 0, false, fmt.Errorf("selfplay: %w", err)
	}
	return n, true, nil
}

// finish writes the tables of a finished Parquet shard from its journal.
func (o output) finish() error {
	if o.format != Parquet {
		return nil
	}
	if _, err := table.Convert(context.Background(), []string{o.journal}, o.path, table.PositionsPath(o.path), SettingColumns()...); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	if err := os.Remove(o.journal); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	return nil
}
