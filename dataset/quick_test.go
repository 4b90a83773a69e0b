package dataset

import (
	"io"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/shogilab/shogilab/record"
)

func TestQuickRoundTrip(t *testing.T) {
	src := "../datasets/selfplay/mcts400/games-0-of-1.jsonl.gz"
	dir := t.TempDir()
	n, err := Convert([]string{src}, filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet"))
	if err != nil || n != 200 {
		t.Fatal(n, err)
	}
	a := record.NewReader([]string{src})
	b := NewReader([]string{filepath.Join(dir, "games.parquet")}, Options{})
	for {
		g1, err1 := a.Read()
		g2, err2 := b.Read()
		if err1 == io.EOF && err2 == io.EOF {
			break
		}
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !reflect.DeepEqual(g1, g2) {
			l1, _ := record.MarshalLine(g1)
			l2, _ := record.MarshalLine(g2)
			t.Fatalf("%s\n%s", l1[:300], l2[:300])
		}
	}
}
