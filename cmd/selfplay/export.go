package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/notation"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/selfplay"
)

const exportUsage = `usage: selfplay export --format kif|csa|parquet [--id N] [--out DIR] FILES...

Writes the games of FILES as KIF (lishogi, ShogiGUI, Shogidokoro) or CSA 2.2, all of
them in one file, by id: KIF games one after another, each whole from its #KIF line,
CSA games separated by a line "/". FILES are record files (plain or gzip), games
tables, or the directories of a run or a match, whose games-* files are read. Every
move has its time and, where the record has them, the mover's search statistics as
a comment (value, visits, the most visited moves). The file goes to stdout, or with
--out DIR to DIR/games.kif or .csa; --id N writes game N alone (DIR/game-N.kif).
-o is the same as --out.

With --format parquet the games of FILES (plain or gzip, shards or a merged
file) become two Parquet tables for DuckDB, pandas and polars, by id:
DIR/games.parquet and DIR/positions.parquet (datasets/README.md).`

func runExport(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	format := fs.String("format", "kif", "kif, csa or parquet")
	id := fs.Int("id", -1, "export only the game with this id")
	// --out names an output directory in every command (docs/architecture.md#commands);
	// -o, this command's first spelling, still works.
	dir := fs.String("out", "", "output directory (default: stdout)")
	fs.StringVar(dir, "o", "", "the same as --out")
	if err := cli.ParseHelp(fs, args, stdout, exportUsage); err != nil {
		return err
	}
	switch *format {
	case "kif", "csa", "parquet":
	default:
		return cli.Usagef("--format %q is not kif, csa or parquet", *format)
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no input files")
	}
	if *dir != "" {
		if err := cli.CheckOutputDir(*dir); err != nil {
			return err
		}
	}
	files, err := recordFiles(fs.Args())
	if err != nil {
		return err
	}
	if *format == "parquet" {
		return exportParquet(ctx, files, *dir, *id, stdout)
	}
	// The file goes through package atomicfile: a failure or a signal leaves the previous
	// file (or none), never a part of the games.
	out := stdout
	var f *atomicfile.File
	var path string
	if *dir != "" {
		path = filepath.Join(*dir, "games."+*format)
		if *id >= 0 {
			path = filepath.Join(*dir, fmt.Sprintf("game-%d.%s", *id, *format))
		}
		if f, err = atomicfile.Create(path); err != nil {
			return err
		}
		defer f.Abort()
		out = f
	}
	buf := bufio.NewWriter(out)
	w, err := notation.NewWriter(buf, notation.Format(*format))
	if err != nil {
		return err
	}
	err = table.ByID(files, table.Options{Context: ctx}, *dir, nil, func(g *record.Game) error {
		if *id >= 0 && g.ID != *id {
			return nil
		}
		return w.Write(g)
	})
	if err == nil {
		err = buf.Flush()
	}
	switch {
	case err != nil:
		return err
	case *id >= 0 && w.Games() == 0:
		return fmt.Errorf("no game with id %d", *id)
	case f != nil:
		if err := f.Commit(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d games to %s\n", w.Games(), path)
	}
	return nil
}

// recordFiles replaces each directory among paths by its games-* files (a run's or a
// match's records: JSON Lines, plain or gzip, or games tables), in name order.
func recordFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil || !info.IsDir() {
			files = append(files, p) // the reader names a missing file
			continue
		}
		var found []string
		for _, pattern := range []string{"games-*.jsonl", "games-*.jsonl.gz", "games-*.parquet"} {
			m, err := filepath.Glob(filepath.Join(p, pattern))
			if err != nil {
				return nil, err
			}
			found = append(found, m...)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: a directory without games-*.jsonl, .jsonl.gz or .parquet files", p)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// exportParquet converts the files to the games and positions tables in dir.
func exportParquet(ctx context.Context, files []string, dir string, id int, stdout io.Writer) error {
	switch {
	case dir == "":
		return cli.Usagef("--format parquet needs --out DIR")
	case id >= 0:
		return cli.Usagef("--format parquet converts every game; --id is for kif and csa")
	}
	if err := cli.CheckOutputDir(dir); err != nil {
		return err
	}
	games, positions := filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet")
	n, err := table.Convert(ctx, files, games, positions, selfplay.SettingColumns()...)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d games to %s and %s\n", n, games, positions)
	return nil
}
