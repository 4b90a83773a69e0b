package table

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/record"
)

// drawnGame is game id of plies moves from the start (2e3d 4a3b 3e2d 3a4b, the moves of
// record/testdata/valid.jsonl's second game), drawn at a play limit of that many plies,
// with statistics at every ply.
func drawnGame(id, plies int) *record.Game {
	g := &record.Game{ID: id, Seed: uint64(id), Variant: "minishogi", Start: "rbsgk/4p/5/P4/KGSBR b - 1", StartName: "startpos",
		Moves: []string{"2e3d", "4a3b", "3e2d", "3a4b"}[:plies], Result: record.Draw, Termination: record.MaxPlies, Plies: plies,
		Players: record.Players{Sente: record.Player{Name: "a", Kind: record.KindRandom}, Gote: record.Player{Name: "b", Kind: record.KindRandom}},
		Rules:   record.Rules{Repetition: record.RepetitionDraw, MaxPlies: plies}, Version: "test"}
	for i := range plies {
		g.Stats = append(g.Stats, record.MoveStats{Visits: int64(10 + i), Value: 0.5})
	}
	return g
}

// writeTables writes games as a games table and its positions table in dir.
func writeTables(t *testing.T, dir string, games ...*record.Game) (gamesPath, positionsPath string) {
	t.Helper()
	gamesPath, positionsPath = filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet")
	w, err := Create(gamesPath, positionsPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return gamesPath, positionsPath
}

// forgedPair writes a games table of games and beside it, as its positions table, the
// positions table of other games that carries the games table's digest (PairKey), as a
// hand-made or damaged pair would, or a pair of tables made before the digest (which have
// none): the reader's pair check passes, and only its checks of the rows can tell.
func forgedPair(t *testing.T, dir string, games, others []*record.Game) (gamesPath string) {
	t.Helper()
	gamesPath, positionsPath := filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet")
	otherPositions := filepath.Join(dir, "other-positions.parquet")
	w, err := Create(gamesPath, positionsPath)
	if err != nil {
		t.Fatal(err)
	}
	forged, err := Create(filepath.Join(dir, "other-games.parquet"), otherPositions)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		w     *Writer
		games []*record.Game
	}{{w, games}, {forged, others}} {
		for _, g := range c.games {
			if err := c.w.Write(g); err != nil {
				t.Fatal(err)
			}
		}
	}
	forged.digest = w.digest // Sum does not change the hash's state: both close with the games' digest
	for _, w := range []*Writer{w, forged} {
		if _, err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(otherPositions, positionsPath); err != nil {
		t.Fatal(err)
	}
	return gamesPath
}

// TestTablesThatDisagree pairs the games table of some games with the positions table of
// others that carries the same digest (forgedPair): a game with fewer positions than
// plies, in the middle of the table or at its end, positions out of ply order, and
// positions of a game the games table lacks are each refused with the game and the fault.
// Another run's positions table, with its own digest, is refused as not a pair.
func TestTablesThatDisagree(t *testing.T) {
	for _, c := range []struct {
		name             string
		games, positions []*record.Game
		want             string
	}{
		{"fewer positions", []*record.Game{drawnGame(0, 4), drawnGame(1, 4)}, []*record.Game{drawnGame(0, 2), drawnGame(1, 4)},
			"game 0: 2 positions, want 4 (the tables are not in the same order, or not a pair)"},
		{"table ends early", []*record.Game{drawnGame(0, 4)}, []*record.Game{drawnGame(0, 2)},
			"game 0: the table ends after 2 of its 4 positions"},
		{"plies out of order", []*record.Game{drawnGame(0, 4)}, []*record.Game{drawnGame(0, 2), drawnGame(0, 2)},
			"game 0: position of ply 0 where ply 2 was due"},
		{"positions of a game not in the games table", []*record.Game{drawnGame(0, 2)}, []*record.Game{drawnGame(0, 2), drawnGame(1, 2)},
			"game 1 has positions but no row in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			gamesPath := forgedPair(t, t.TempDir(), c.games, c.positions)
			r := NewReader([]string{gamesPath}, Options{})
			defer r.Close()
			for {
				_, err := r.Read()
				if err == io.EOF {
					t.Fatalf("every game read; want %q", c.want)
				}
				if err != nil {
					if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "table: ") {
						t.Fatalf("%v; want %q", err, c.want)
					}
					return
				}
			}
		})
	}
	// Another run's positions table, its own digest and all, is not a pair.
	gamesPath, positionsPath := writeTables(t, t.TempDir(), drawnGame(0, 4))
	_, other := writeTables(t, t.TempDir(), drawnGame(0, 2))
	if err := os.Rename(other, positionsPath); err != nil {
		t.Fatal(err)
	}
	r := NewReader([]string{gamesPath}, Options{})
	defer r.Close()
	if _, err := r.Read(); err == nil || !strings.Contains(err.Error(), "are not a pair: they were written from other games") {
		t.Errorf("another run's positions table: %v; want it refused as not a pair", err)
	}
	// The same games in both tables read back whole.
	gamesPath, _ = writeTables(t, t.TempDir(), drawnGame(0, 4), drawnGame(1, 2))
	if got := readAll(t, Options{}, gamesPath); len(got) != 2 || len(got[0].Stats) != 4 || len(got[1].Stats) != 2 {
		t.Fatalf("a consistent pair of tables: %d games read", len(got))
	}
}

// TestReaderSelect reads six games from a games table and from the same games as JSON Lines,
// keeping the ids below 3, with a check that rejects every game: both give ids 0, 1, 2 and
// count three dropped; the check runs on the JSON Lines alone (a games table's writer
// replayed every game with the rules).
func TestReaderSelect(t *testing.T) {
	dir := t.TempDir()
	var games []*record.Game
	for id := range 6 {
		games = append(games, drawnGame(id, 4))
	}
	gamesPath, _ := writeTables(t, dir, games...)
	jsonl := filepath.Join(dir, "games.jsonl")
	f, err := os.Create(jsonl)
	if err != nil {
		t.Fatal(err)
	}
	w := record.NewWriter(f)
	for _, g := range games {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	rejected := errors.New("rejected")
	for _, tc := range []struct {
		path    string
		checked bool
	}{{gamesPath, false}, {jsonl, true}} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			r := NewReader([]string{tc.path}, Options{Select: func(g *record.Game) bool { return g.ID < 3 },
				Check: func(*record.Game) error { return rejected }})
			defer r.Close()
			var ids []int
			for {
				g, err := r.Read()
				if g == nil {
					if err != io.EOF {
						t.Fatal(err)
					}
					break
				}
				if (err == rejected) != tc.checked {
					t.Errorf("game %d: error %v; checked: %v", g.ID, err, tc.checked)
				}
				ids = append(ids, g.ID)
			}
			if fmt.Sprint(ids) != "[0 1 2]" || r.Dropped() != 3 {
				t.Errorf("ids %v, %d dropped; want [0 1 2], 3", ids, r.Dropped())
			}
		})
	}
}
