package data

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// Two hand-made games from the start position. Game 0 moves the golds out and back and
// out again (4e4d 2a2b 4d4e 2b2a 4e4d): five positions, the start twice, a draw by the
// play limit, without search statistics. Game 1 begins the same way (4e4d 2a2b) and then
// 2e3d, and Gote resigns: its three positions are all positions of game 0; the search
// valued the start at 0.6.
const game0 = `{"id":0,"seed":1,"variant":"minishogi","start":"rbsgk/4p/5/P4/KGSBR b - 1","start_name":"startpos","moves":["4e4d","2a2b","4d4e","2b2a","4e4d"],"result":"draw","termination":"max_plies","plies":5,"players":{"sente":{"name":"random","kind":"random"},"gote":{"name":"random","kind":"random"}},"rules":{"repetition":"draw","max_plies":5},"version":"0.1.0","started_at":"2025-01-02T03:04:05Z","seconds":0.1}`
const game1 = `{"id":1,"seed":2,"variant":"minishogi","start":"rbsgk/4p/5/P4/KGSBR b - 1","start_name":"startpos","moves":["4e4d","2a2b","2e3d"],"result":"sente","termination":"resignation","plies":3,"players":{"sente":{"name":"random","kind":"random"},"gote":{"name":"random","kind":"random"}},"rules":{"repetition":"draw","max_plies":200},"stats":[{"visits":10,"value":0.6},{"visits":10,"value":-0.2},{"visits":10,"value":0.4}],"version":"0.1.0","started_at":"2025-01-02T03:04:05Z","seconds":0.1}`

func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadMergesDuplicates(t *testing.T) {
	a, b := write(t, "a.jsonl", game0), write(t, "b.jsonl", game1)
	s, err := Load([]string{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Games != 2 || s.Positions != 8 || len(s.Train) != 4 || len(s.Held) != 0 {
		t.Fatalf("%s; want 2 games, 8 positions, 4 distinct", s.Describe())
	}
	// The start occurs three times: twice in the drawn game (result 0, value standing in
	// as 0), once in the game Sente won (result +1 for Sente to move, value 0.6).
	start := s.Train[0]
	if start.Count != 3 || math.Abs(float64(start.Result)-1.0/3) > 1e-6 || math.Abs(float64(start.Value)-0.2) > 1e-6 {
		t.Errorf("start: %+v; want count 3, result 1/3, value 0.2", start)
	}
	if got, want := start.Target(0.5), float32(0.5/3+0.1); math.Abs(float64(got-want)) > 1e-6 {
		t.Errorf("start: target at λ=0.5 %v, want %v", got, want)
	}
	// After 4e4d, Gote to move: drawn game (0) once, Sente's win (-1 for Gote) once,
	// value -0.2 in game 1 and 0 standing in for game 0.
	p1 := s.Train[1]
	if p1.Count != 2 || p1.Result != -0.5 || math.Abs(float64(p1.Value)+0.1) > 1e-6 {
		t.Errorf("after 4e4d: %+v; want count 2, result -0.5, value -0.1", p1)
	}
}

// TestSplitByGameID: a split that holds out one of the two games holds out the same game
// whatever the order of the files, and keeps out of the held-out set the positions that
// also occur in a training game.
func TestSplitByGameID(t *testing.T) {
	a, b := write(t, "a.jsonl", game0), write(t, "b.jsonl", game1)
	found := false
	for f := 0.01; f < 1; f += 0.01 {
		s, err := Load([]string{a, b}, Options{HeldOut: f})
		if err != nil {
			t.Fatal(err)
		}
		if s.HeldGames != 1 {
			continue
		}
		found = true
		r, err := Load([]string{b, a}, Options{HeldOut: f})
		if err != nil {
			t.Fatal(err)
		}
		if r.HeldGames != 1 || len(r.Held) != len(s.Held) || len(r.Train) != len(s.Train) {
			t.Errorf("held-out fraction %.2f: %s, but in the other file order %s", f, s.Describe(), r.Describe())
		}
		switch {
		case heldOut(1, f): // game 1 is held out; all its positions are game 0's
			if len(s.Held) != 0 || s.Dropped != 3 || len(s.Train) != 4 {
				t.Errorf("game 1 held out: %s, %d dropped; want none held out, 3 dropped", s.Describe(), s.Dropped)
			}
		default: // game 0 held out: only the position after 4e4d 2a2b 4d4e is not game 1's
			if len(s.Held) != 1 || s.Dropped != 3 || len(s.Train) != 3 {
				t.Errorf("game 0 held out: %s, %d dropped; want 1 held out, 3 dropped", s.Describe(), s.Dropped)
			}
		}
		break
	}
	if !found {
		t.Fatal("no fraction holds out exactly one of two games")
	}
}

// TestHeldOutFraction: over many ids the held-out share is the fraction asked for, within
// four standard deviations of a binomial count.
func TestHeldOutFraction(t *testing.T) {
	const n, f = 100000, 0.1
	held := 0
	for id := range n {
		if heldOut(id, f) {
			held++
		}
	}
	sd := math.Sqrt(n * f * (1 - f))
	if math.Abs(float64(held)-n*f) > 4*sd {
		t.Errorf("%d of %d ids held out at fraction %v; want %v ± %.0f", held, n, f, n*f, 4*sd)
	}
}

func TestMirror(t *testing.T) {
	// Worked by hand: each rank read backwards, hands and side kept.
	for _, c := range [][2]string{
		{"rbsgk/4p/5/P4/KGSBR b - 1", "kgsbr/p4/5/4P/RBSGK b - 1"},
		{"2k1+r/5/1P3/5/K3G w Sp 12", "+r1k2/5/3P1/5/G3K w Sp 12"},
	} {
		pos, err := ms.ParseSFEN(c[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := Mirror(&pos); got.SFEN() != c[1] {
			t.Errorf("Mirror(%s) = %s, want %s", c[0], got.SFEN(), c[1])
		}
	}
	s, err := Load([]string{write(t, "a.jsonl", game0)}, Options{Mirror: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Mirrored != 4 || len(s.Train) != 8 { // no position of game 0 is its own mirror image
		t.Errorf("%s: %d mirrored; want 4 of 8", s.Describe(), s.Mirrored)
	}
}
