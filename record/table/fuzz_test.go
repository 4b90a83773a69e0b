package table

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/shogilab/shogilab/record"
)

// FuzzGamesTable reads arbitrary bytes as a games table, projected as analyze games reads
// it: nothing panics, and what is refused is refused with one line.
func FuzzGamesTable(f *testing.F) {
	dir := f.TempDir()
	games, positions := filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet")
	if _, err := Convert(context.Background(), []string{"../../datasets/selfplay/ladder/mcts100-vs-mcts200/games-0-of-1.jsonl.gz"}, games, positions); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(games)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "games.parquet")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r := NewReader([]string{path}, Options{Fields: record.FieldID | record.FieldMoves | record.FieldPlies})
		defer r.Close()
		for {
			_, err := r.Read()
			if err == nil {
				continue
			}
			if bytes.Contains([]byte(err.Error()), []byte("\n")) {
				t.Fatalf("an error of several lines: %q", err)
			}
			return
		}
	})
}
