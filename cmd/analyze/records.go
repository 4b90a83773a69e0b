package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shogilab/shogilab/internal/cli"

	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/record"
)

// recordFlags are the flags the record analyses (openings, games, ratings)
// share: which games to read and how to report.
type recordFlags struct {
	json, skipBad                    bool
	player, start, since, until, dir string
	plots                            figure.Options
}

func addRecordFlags(fs *flag.FlagSet) *recordFlags {
	f := &recordFlags{}
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of tables")
	fs.BoolVar(&f.skipBad, "skip-bad", false, "skip bad records (and games with illegal moves), counting them, instead of stopping")
	fs.StringVar(&f.player, "player", "", "keep only games where a side's player has this `name`")
	fs.StringVar(&f.start, "start", "", "keep only games from this start position: an `SFEN or name` (startpos, bishop, rook, two-piece, three-piece, four-piece, bare-king)")
	fs.StringVar(&f.since, "since", "", "keep only games started on or after this `date` (YYYY-MM-DD or RFC 3339, UTC; games without started_at are dropped)")
	fs.StringVar(&f.until, "until", "", "keep only games started before this `date`")
	fs.StringVar(&f.dir, "out", "", "write the plots, and their captions in captions.md, into this `directory`, in the formats of --format")
	fs.StringVar(&f.dir, "plots", "", "the same as --out")
	f.plots = figure.Paper() // --format png,svg --size full for the web
	f.plots.AddFlags(fs)
	return f
}

// describe says which games an analysis read, for its captions: "7 games of FILE" and the
// selection the flags made.
func (f *recordFlags) describe(c selection.Counts, paths []string) string {
	d := fmt.Sprintf("%d games of %s", c.Matched, strings.Join(paths, ", "))
	var sel []string
	if f.player != "" {
		sel = append(sel, "those of player "+f.player)
	}
	if f.start != "" {
		sel = append(sel, "from the start "+f.start)
	}
	if f.since != "" {
		sel = append(sel, "started on or after "+f.since)
	}
	if f.until != "" {
		sel = append(sel, "started before "+f.until)
	}
	if len(sel) > 0 {
		d += " (" + strings.Join(sel, ", ") + ")"
	}
	return d
}

// filter builds the selection the flags ask for.
func (f *recordFlags) filter() (selection.Filter, error) {
	sel := selection.Filter{Player: f.player}
	if f.start != "" {
		if err := sel.SetStart(f.start); err != nil {
			return sel, err
		}
	}
	for _, d := range []struct {
		flag, value string
		to          *time.Time
	}{{"since", f.since, &sel.Since}, {"until", f.until, &sel.Until}} {
		if d.value == "" {
			continue
		}
		t, err := selection.ParseDate(d.value)
		if err != nil {
			return sel, fmt.Errorf("--%s: %w", d.flag, err)
		}
		*d.to = t
	}
	return sel, nil
}

// parseRecordArgs parses the flags, with help for -h, and checks that files were given.
func parseRecordArgs(fs *flag.FlagSet, args []string, stdout io.Writer, help string) ([]string, error) {
	if err := cli.ParseHelp(fs, args, stdout, help); err != nil {
		return nil, err
	}
	if fs.NArg() == 0 {
		return nil, errors.New("no record files given (want FILES..., .jsonl, .jsonl.gz or .parquet games tables)")
	}
	return fs.Args(), nil
}

// stream reads the games the flags select and calls fn with each, showing
// progress on stderr; only the record fields named are decoded, and those
// CheckMoves needs. A game with an illegal move never reaches fn (every
// analysis rejects the same games); it and fn's errors wrapping
// selection.ErrBadGame are skipped with --skip-bad.
func (f *recordFlags) stream(paths []string, fields record.Fields, stderr io.Writer, fn func(*record.Game) error) (selection.Counts, error) {
	sel, err := f.filter()
	if err != nil {
		return selection.Counts{}, err
	}
	if f.dir != "" {
		// Checked before the records are read, not after.
		if err := cli.CheckOutputDir(f.dir); err != nil {
			return selection.Counts{}, fmt.Errorf("--out: %w", err)
		}
	}
	update, finish := cli.NewCounter(stderr, "games read", progressEvery)
	defer finish()
	opts := selection.Options{Fields: fields | selection.CheckMovesFields, Check: selection.CheckMoves, SkipBad: f.skipBad, Progress: update}
	return selection.Stream(paths, sel, opts, fn)
}

// progressEvery is how many games pass between plain progress lines when
// stderr is not a terminal: a line per 100,000 games keeps a log of a
// million-game run short.
const progressEvery = 100_000
