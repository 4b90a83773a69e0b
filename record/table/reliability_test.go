package table

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// firstError reads every game of paths (statistics included) and returns the first error.
func firstError(paths ...string) error {
	r := NewReader(paths, Options{})
	defer r.Close()
	for {
		_, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// positionsError reads the positions of paths as a trainer does and returns the error.
func positionsError(paths ...string) error {
	return Positions(paths, func(*Position) error { return nil })
}

// TestPositionsNameConfined: a games table whose metadata names its positions table with a
// path (outside its directory, or into a subdirectory) is refused before any file is opened
// by that name, by the games reader and by the trainer's reader alike.
func TestPositionsNameConfined(t *testing.T) {
	src := sources(t)[:1]
	elsewhere := t.TempDir()
	// A real positions table outside the games table's directory, which the old reader read.
	if _, err := Convert(context.Background(), src, filepath.Join(elsewhere, "games.parquet"), filepath.Join(elsewhere, "positions.parquet")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../" + filepath.Base(elsewhere) + "/positions.parquet", filepath.Join(elsewhere, "positions.parquet"), "/../../../../../tmp/x", "..", "sub/positions.parquet"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(filepath.Dir(elsewhere), "games-dir")
			os.MkdirAll(dir, 0o755)
			defer os.RemoveAll(dir)
			games := filepath.Join(dir, "games.parquet")
			w, err := Create(games, filepath.Join(dir, "positions.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			w.games.fw.AppendKeyValueMetadata(PositionsKey, name) // the reader keeps the last value
			for _, g := range readJSONL(t, src...) {
				if err := w.Write(g); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.Close(); err != nil {
				t.Fatal(err)
			}
			for what, err := range map[string]error{"games reader": firstError(games), "positions reader": positionsError(games)} {
				if err == nil || !strings.Contains(err.Error(), "not a file name") || strings.Count(err.Error(), "\n") > 0 {
					t.Errorf("%s: %v; want a one-line refusal of %q", what, err, name)
				}
			}
		})
	}
}

// TestTablesPaired: a games table beside the positions table of other games (one export's
// positions copied over another's, or a re-export killed between its renames by the old
// writer) is refused by every reader of the pair, naming both files; the trainer's reader
// does not train on the wrong positions.
func TestTablesPaired(t *testing.T) {
	src := sources(t)
	a, b := t.TempDir(), t.TempDir()
	if _, err := Convert(context.Background(), src[:1], filepath.Join(a, "games.parquet"), filepath.Join(a, "positions.parquet")); err != nil {
		t.Fatal(err)
	}
	if _, err := Convert(context.Background(), src[1:3], filepath.Join(b, "games.parquet"), filepath.Join(b, "positions.parquet")); err != nil {
		t.Fatal(err)
	}
	if err := firstError(filepath.Join(a, "games.parquet")); err != nil {
		t.Fatalf("a pair as written: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(b, "positions.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(a, "positions.parquet"), data, 0o644)
	games := filepath.Join(a, "games.parquet")
	for what, err := range map[string]error{"games reader": firstError(games), "positions reader": positionsError(games)} {
		if err == nil || !strings.Contains(err.Error(), "are not a pair") || !strings.Contains(err.Error(), "positions.parquet") {
			t.Errorf("%s: %v; want a refusal of the pair", what, err)
		}
	}
	// The positions table alone is still a positions table.
	if err := positionsError(filepath.Join(a, "positions.parquet")); err != nil {
		t.Errorf("the positions table alone: %v", err)
	}
}

// TestFailedExportKeepsTables: a conversion that fails (a bad record in its input) or is
// cancelled leaves the tables already there whole and paired, and no temporary file.
func TestFailedExportKeepsTables(t *testing.T) {
	src := sources(t)[:2]
	dir := t.TempDir()
	games, positions := filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet")
	n, err := Convert(context.Background(), src, games, positions)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	data, _ := os.ReadFile(src[0])
	os.WriteFile(bad, append(data, []byte("{\"id\": 1, not json\n")...), 0o644)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for what, c := range map[string]struct {
		ctx context.Context
		in  []string
	}{"bad record": {context.Background(), []string{bad}}, "cancelled": {cancelled, src}} {
		_, err := Convert(c.ctx, c.in, games, positions)
		if err == nil || what == "cancelled" && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v", what, err)
		}
		if got := readAll(t, Options{}, games); len(got) != n {
			t.Errorf("%s: the tables hold %d games, want the %d written before", what, len(got), n)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) != 0 {
			t.Errorf("%s: temporary files left: %v", what, left)
		}
	}
}
