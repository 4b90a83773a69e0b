// Package recordtest holds what the tests of self-play output share: reading the games of
// record files in a form that runs of one seed reproduce, and comparing two such lists.
package recordtest

import (
	"io"
	"reflect"
	"sort"
	"testing"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
)

// ReadAll reads every game of record files (or Parquet games tables) in file order, with
// the one reader (table.NewReader). A bad record fails t.
func ReadAll(t testing.TB, paths ...string) []*record.Game {
	t.Helper()
	r := table.NewReader(paths, table.Options{})
	defer r.Close()
	var games []*record.Game
	for {
		g, err := r.Read()
		if err == io.EOF {
			return games
		}
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
}

// ReadSorted reads record files (or Parquet games tables) and returns the games sorted by id with the timing fields
// stripped, so that runs of one seed compare equal. A bad record fails t.
func ReadSorted(t testing.TB, paths ...string) []*record.Game {
	t.Helper()
	games := ReadAll(t, paths...)
	for _, g := range games {
		g.StripTiming()
	}
	sort.Slice(games, func(i, j int) bool { return games[i].ID < games[j].ID })
	return games
}

// Same fails t unless got and want hold the same games, and at least one; at the first
// game that differs it prints both records.
func Same(t testing.TB, what string, got, want []*record.Game) {
	t.Helper()
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%s: %d games, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			a, _ := record.MarshalLine(got[i])
			b, _ := record.MarshalLine(want[i])
			t.Fatalf("%s: game %d differs:\n got %s\nwant %s", what, want[i].ID, a, b)
		}
	}
}
