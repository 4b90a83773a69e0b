package labels_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/train/labels"
)

// A table of one labelled position, written and read back.
func Example() {
	dir, err := os.MkdirTemp("", "labels")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "labels-0-of-1.parquet")
	w, err := labels.Create(path, labels.Provenance{Command: "train label example", Limit: "depth 8", Shard: "0/1", Positions: 1, Block: 100})
	if err != nil {
		panic(err)
	}
	cp := 35
	if err := w.Write(labels.Row{SFEN: "rbsgk/4p/5/P4/KGSBR b - 1", Side: "sente", Move: "2e3d", ScoreCP: &cp, Value: 0.1, Depth: 8, Nodes: 1234, Source: "book.sfen", Occurrences: 1}); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	err = labels.Rows([]string{path}, func(r labels.Row) error {
		fmt.Println(r.SFEN, r.Move, *r.ScoreCP, r.Depth)
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output: rbsgk/4p/5/P4/KGSBR b - 1 2e3d 35 8
}
