package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/dataset"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/notation"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/selfplay"
)

const exportUsage = `usage: selfplay export --format kif|csa|parquet [--id N] [--out DIR] FILES...

Writes games as KIF (lishogi, ShogiGUI, Shogidokoro) or CSA 2.2. With --out DIR
every game (or only game N) goes to DIR/game-ID.kif or .csa; without it the
one game selected by --id goes to stdout. -o is the same as --out.

With --format parquet the games of FILES (plain or gzip, shards or a merged
file, in the order given) become two Parquet tables for DuckDB, pandas and
polars: DIR/games.parquet and DIR/positions.parquet (datasets/README.md).

Flags:
`

func runExport(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	format := fs.String("format", "kif", "kif, csa or parquet")
	id := fs.Int("id", -1, "export only the game with this id")
	// --out names an output directory in every command (docs/architecture.md#commands);
	// -o, this command's first spelling, still works.
	dir := fs.String("out", "", "output directory (default: stdout, which needs --id)")
	fs.StringVar(dir, "o", "", "the same as --out")
	if err := parseFlags(fs, args, stdout, exportUsage); err != nil {
		return err
	}
	var conv func(*record.Game) (string, error)
	switch *format {
	case "kif":
		conv = notation.KIF
	case "csa":
		conv = notation.CSA
	case "parquet":
	default:
		return cli.Usagef("--format %q is not kif, csa or parquet", *format)
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no input files")
	}
	if *format == "parquet" {
		return exportParquet(fs.Args(), *dir, *id, stdout)
	}
	if *dir == "" && *id < 0 {
		return cli.Usagef("give --id N to write one game to stdout, or --out DIR")
	}
	if *dir != "" {
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			return err
		}
	}
	r := dataset.NewReader(fs.Args(), dataset.Options{})
	defer r.Close()
	found := 0
	for {
		g, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if *id >= 0 && g.ID != *id {
			continue
		}
		text, err := conv(g)
		if err != nil {
			return err
		}
		found++
		if *dir == "" {
			_, err = io.WriteString(stdout, text)
		} else {
			err = os.WriteFile(filepath.Join(*dir, fmt.Sprintf("game-%d.%s", g.ID, *format)), []byte(text), 0o644)
		}
		if err != nil {
			return err
		}
	}
	if *id >= 0 && found == 0 {
		return fmt.Errorf("no game with id %d", *id)
	}
	if *dir != "" {
		fmt.Fprintf(stdout, "wrote %d %s files to %s\n", found, *format, *dir)
	}
	return nil
}

// exportParquet converts the files to the games and positions tables in dir.
func exportParquet(files []string, dir string, id int, stdout io.Writer) error {
	switch {
	case dir == "":
		return cli.Usagef("--format parquet needs --out DIR")
	case id >= 0:
		return cli.Usagef("--format parquet converts every game; --id is for kif and csa")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	games, positions := filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet")
	n, err := dataset.Convert(files, games, positions, selfplay.SettingColumns()...)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d games to %s and %s\n", n, games, positions)
	return nil
}
