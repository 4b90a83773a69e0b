package data

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	ms "github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/train/labels"
)

// writeLabels writes rows as a labels table (train/label) and returns its path.
func writeLabels(t *testing.T, rows ...labels.Row) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "labels-0-of-1.parquet")
	w, err := labels.Create(p, labels.Provenance{Command: "test", Limit: "depth 8", Shard: "0/1", Positions: len(rows), Block: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	startSFEN = "rbsgk/4p/5/P4/KGSBR b - 1"
	// after 4e4d, Gote to move: a position game0 and game1 both reach.
	after4e4d = "rbsgk/4p/5/PG3/K1SBR w - 2"
)

func ptr[T any](v T) *T { return &v }

// TestLoadLabels: a labels table's rows are examples whose policy target is the labelled
// move alone and whose value target is the labelled value; the result is the game's where
// the row knows it, else the value. A position also found in a record is one example with
// the means over both. Worked by hand from the rows and game1 (above).
func TestLoadLabels(t *testing.T) {
	labels := writeLabels(t,
		// From an SFEN file: no game result. Value 0.25.
		labels.Row{Index: 0, SFEN: startSFEN, Side: "sente", Move: "2e3d", ScoreCP: ptr(100), Value: 0.25, Depth: 8, Nodes: 1000, Source: "book.sfen.gz", Line: ptr(1), Occurrences: 1},
		// From a game Sente won, Gote to move: Score 0 (a loss for Gote), value -0.5.
		labels.Row{Index: 1, SFEN: after4e4d, Side: "gote", Move: "2a2b", ScoreCP: ptr(-200), Value: -0.5, Depth: 8, Nodes: 1000, Score: ptr(0.0), Source: "g.jsonl", GameID: ptr(int64(7)), Ply: ptr(1), Occurrences: 1},
	)
	s, err := Load([]string{labels}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Games != 0 || s.Labelled != 2 || s.Positions != 2 || len(s.Train) != 2 {
		t.Fatalf("%s; want 0 games, 2 labelled positions, 2 for training", s.Describe())
	}
	if !strings.Contains(s.Describe(), "2 labelled positions") {
		t.Errorf("Describe: %q does not name the labelled positions", s.Describe())
	}
	for _, c := range []struct {
		name           string
		ex             Example
		result, value  float32
		move           string
		targetAtLambda float32 // λ = 0.5
	}{
		{"start, from an SFEN file", s.Train[0], 0.25, 0.25, "2e3d", 0.25},
		{"after 4e4d, from a won game", s.Train[1], -1, -0.5, "2a2b", -0.75},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.ex.Result != c.result || c.ex.Value != c.value || c.ex.Count != 1 {
				t.Errorf("result %v value %v count %d; want %v, %v, 1", c.ex.Result, c.ex.Value, c.ex.Count, c.result, c.value)
			}
			if got := c.ex.Target(0.5); math.Abs(float64(got-c.targetAtLambda)) > 1e-6 {
				t.Errorf("target at λ=0.5 %v, want %v", got, c.targetAtLambda)
			}
			if len(c.ex.Policy) != 1 || c.ex.Policy[0].Move.String() != c.move || c.ex.Policy[0].P != 1 {
				t.Errorf("policy %v; want %s alone", c.ex.Policy, c.move)
			}
		})
	}

	// With game1's record: after 4e4d occurs there too (result -1 for Gote, the search's
	// value -0.2, a random mover's move: no policy target).
	both, err := Load([]string{labels, write(t, "b.jsonl", game1)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var merged *Example
	for i := range both.Train {
		if both.Train[i].Pos.SFEN() == after4e4d {
			merged = &both.Train[i]
		}
	}
	if merged == nil {
		t.Fatalf("%s: no example of %s", both.Describe(), after4e4d)
	}
	if merged.Count != 2 || merged.Result != -1 || math.Abs(float64(merged.Value)+0.35) > 1e-6 || len(merged.Policy) != 1 {
		t.Errorf("after 4e4d from both: %+v; want count 2, result -1, value -0.35, the labelled move", merged)
	}
}

// TestLabelsSplitByPosition: a labels table's rows are held out by their position, so the
// same rows split alike in any order of the tables.
func TestLabelsSplitByPosition(t *testing.T) {
	start, err := ms.ParseSFEN(startSFEN)
	if err != nil {
		t.Fatal(err)
	}
	var rows []labels.Row
	for i, m := range start.LegalMoves(nil) {
		pos := start
		pos.MakeMove(m)
		reply := pos.LegalMoves(nil)[0]
		rows = append(rows, labels.Row{Index: int64(i), SFEN: pos.SFEN(), Side: "gote", Move: reply.String(), ScoreCP: ptr(0), Depth: 1, Source: "s.sfen", Line: ptr(i + 1), Occurrences: 1})
	}
	a, b := writeLabels(t, rows[:len(rows)/2]...), writeLabels(t, rows[len(rows)/2:]...)
	const frac = 0.5
	ab, err := Load([]string{a, b}, Options{HeldOut: frac})
	if err != nil {
		t.Fatal(err)
	}
	ba, err := Load([]string{b, a}, Options{HeldOut: frac})
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]bool{}
	for _, ex := range ab.Held {
		held[ex.Pos.SFEN()] = true
		if !heldOut(int(ex.Pos.Hash()), frac) {
			t.Errorf("%s held out, but its hash is not in the held-out fraction", ex.Pos.SFEN())
		}
	}
	if len(ab.Held) == 0 || len(ab.Train) == 0 || len(ab.Held)+len(ab.Train) != len(rows) {
		t.Fatalf("%s from %d rows; want both sets non-empty, all rows used", ab.Describe(), len(rows))
	}
	if len(ba.Held) != len(ab.Held) {
		t.Errorf("held out: %d in one order, %d in the other", len(ab.Held), len(ba.Held))
	}
	for _, ex := range ba.Held {
		if !held[ex.Pos.SFEN()] {
			t.Errorf("%s held out in one order only", ex.Pos.SFEN())
		}
	}
}

// TestLabelsBadMove: a row whose move is not legal in its position is an error naming the
// table and the row.
func TestLabelsBadMove(t *testing.T) {
	p := writeLabels(t, labels.Row{Index: 3, SFEN: startSFEN, Side: "sente", Move: "5a5b", ScoreCP: ptr(0), Depth: 8, Source: "x.sfen", Line: ptr(4), Occurrences: 1})
	_, err := Load([]string{p}, Options{})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "row 3") {
		t.Fatalf("err %v; want one naming %s and row 3", err, p)
	}
}
