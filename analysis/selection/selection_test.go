package selection

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/rules/minishogi"
)

const (
	small    = "../testdata/small.jsonl"    // ids 0-6, normal start, alpha v beta; 6 has no date
	handicap = "../testdata/handicap.jsonl" // id 7, bare king, gamma v alpha, 2025-01-05
	bad      = "../testdata/bad.jsonl"      // line 2 bad JSON, line 3 an illegal move (valid record)
)

func ids(t *testing.T, f Filter, paths ...string) []int {
	t.Helper()
	var out []int
	c, err := Stream(paths, f, Options{}, func(g *record.Game) error { out = append(out, g.ID); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if c.Matched != len(out) || c.Read != 8 && len(paths) == 2 {
		t.Errorf("counts %+v for %d games", c, len(out))
	}
	return out
}

func TestFilters(t *testing.T) {
	day := func(s string) time.Time { d, _ := ParseDate(s); return d }
	bareKing := Filter{}
	if err := bareKing.SetStart("bare-king"); err != nil {
		t.Fatal(err)
	}
	sfen := Filter{}
	if err := sfen.SetStart("rbsgk/4p/5/P4/KGSBR b - 17"); err != nil { // another move number
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    Filter
		want []int
	}{
		{"all", Filter{}, []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{"gamma", Filter{Player: "gamma"}, []int{7}},
		{"beta", Filter{Player: "beta"}, []int{0, 1, 2, 3, 4, 5, 6}},
		{"bare king", bareKing, []int{7}},
		{"normal start by SFEN", sfen, []int{0, 1, 2, 3, 4, 5, 6}},
		{"since February", Filter{Since: day("2025-02-01")}, []int{4, 5}},
		{"January 2-4", Filter{Since: day("2025-01-02"), Until: day("2025-01-04T10:00:00Z")}, []int{1, 2}},
		{"until, undated dropped", Filter{Until: day("2026-01-01")}, []int{0, 1, 2, 3, 4, 5, 7}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ids(t, c.f, small, handicap); !slices.Equal(got, c.want) {
				t.Errorf("%s: games %v; want %v", c.name, got, c.want)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	var f Filter
	if err := f.SetStart("queen-odds"); err == nil || !strings.HasPrefix(err.Error(), `selection: start "queen-odds"`) {
		t.Errorf("bad start: %v", err)
	}
	if _, err := ParseDate("01/02/2025"); err == nil || !strings.Contains(err.Error(), `date "01/02/2025"`) {
		t.Errorf("bad date: %v", err)
	}
	// A bad record stops the stream with its file and line.
	_, err := Stream([]string{bad}, Filter{}, Options{}, func(*record.Game) error { return nil })
	var lerr *record.LineError
	if !errors.As(err, &lerr) || lerr.File != bad || lerr.Line != 2 {
		t.Errorf("bad record: %v", err)
	}
	// Skipped: the bad line is counted, and a game fn rejects with ErrBadGame too.
	var reports []string
	c, err := Stream([]string{bad}, Filter{}, Options{SkipBad: true, OnSkip: func(e error) { reports = append(reports, e.Error()) }},
		func(g *record.Game) error {
			if g.Moves[0] == "5d5b" {
				return fmt.Errorf("illegal: %w", ErrBadGame)
			}
			return nil
		})
	if err != nil || c != (Counts{Read: 3, Matched: 3, Skipped: 1, Rejected: 1}) || len(reports) != 2 {
		t.Errorf("skipping: %+v %v %q", c, err, reports)
	}
	// Any other error of fn stops the stream and names the game.
	_, err = Stream([]string{small}, Filter{}, Options{SkipBad: true}, func(g *record.Game) error {
		if g.ID == 2 {
			return errors.New("disk full")
		}
		return nil
	})
	if err == nil || err.Error() != "disk full (game id 2, the 3rd record read)" {
		t.Errorf("fn error: %v", err)
	}
}

func TestPositionKey(t *testing.T) {
	if k := PositionKey("rbsgk/4p/5/P4/KGSBR b - 1"); k != "rbsgk/4p/5/P4/KGSBR b -" {
		t.Errorf("key %q", k)
	}
	if k := PositionKey("not an sfen"); k != "not an sfen" {
		t.Errorf("key %q", k)
	}
}

func TestCheckMoves(t *testing.T) {
	g := &record.Game{ID: 4, Variant: "minishogi", Start: minishogi.StartSFEN, Moves: []string{"2e3d", "4a3b"}}
	if err := CheckMoves(g); err != nil {
		t.Errorf("legal moves: %v", err)
	}
	// 5d5b: the pawn on 5d moves one square (analysis/testdata/README.md).
	g.Moves = append(g.Moves, "5d5b")
	if err := CheckMoves(g); !errors.Is(err, ErrBadGame) || !strings.Contains(err.Error(), "game 4: moves[2]") {
		t.Errorf("illegal third move: %v", err)
	}
}

// TestCheck: Check runs beside the reading, and fn still sees the games in
// file order; a game Check rejects is counted with SkipBad and stops the
// stream without.
func TestCheck(t *testing.T) {
	odd := func(g *record.Game) error {
		if g.ID%2 == 1 {
			return fmt.Errorf("odd: %w", ErrBadGame)
		}
		return nil
	}
	var seen []int
	c, err := Stream([]string{small, handicap}, Filter{}, Options{Check: odd, SkipBad: true}, func(g *record.Game) error {
		seen = append(seen, g.ID)
		return nil
	})
	if err != nil || !slices.Equal(seen, []int{0, 2, 4, 6}) || c != (Counts{Read: 8, Matched: 8, Rejected: 4}) {
		t.Errorf("skipping: %v %+v %v", seen, c, err)
	}
	_, err = Stream([]string{small}, Filter{}, Options{Check: odd}, func(*record.Game) error { return nil })
	if err == nil || err.Error() != "odd: bad game (game id 1, the 2nd record read)" {
		t.Errorf("without SkipBad: %v", err)
	}
}

// TestCheckSkipsTables: games from a games table were replayed by its
// writer, so Check does not see them.
func TestCheckSkipsTables(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.parquet")
	if _, err := table.Convert(context.Background(), []string{small}, games, filepath.Join(dir, "positions.parquet")); err != nil {
		t.Fatal(err)
	}
	calls := 0
	check := func(*record.Game) error { calls++; return nil }
	c, err := Stream([]string{games, handicap}, Filter{}, Options{Check: check}, func(*record.Game) error { return nil })
	if err != nil || c.Matched != 8 || calls != 1 {
		t.Errorf("%+v %v; Check saw %d games, want the 1 of the record file", c, err, calls)
	}
}
