package datasets_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
)

// bookLine is one opening of the book with what its comment says.
type bookLine struct {
	sfen         string
	moves        []string
	cp, walk, bl int
}

// readBook reads the book's lines and their comments ("MOVES, cp N, walk W, block B").
func readBook(t *testing.T, path string) []bookLine {
	t.Helper()
	openings, err := selfplay.ReadOpenings(path) // every SFEN parsed and playable
	if err != nil {
		t.Fatal(err)
	}
	var out []bookLine
	for _, line := range gunzipLines(t, path) {
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		sfen, comment, ok := strings.Cut(line, " # ")
		f := strings.Split(comment, ", ")
		if !ok || len(f) != 4 || !strings.HasPrefix(f[1], "cp ") || !strings.HasPrefix(f[2], "walk ") || !strings.HasPrefix(f[3], "block ") {
			t.Fatalf("book line %q: want SFEN # MOVES, cp N, walk W, block B", line)
		}
		b := bookLine{sfen: sfen, moves: strings.Fields(f[0])}
		for _, x := range []struct {
			text string
			to   *int
		}{{f[1][3:], &b.cp}, {f[2][5:], &b.walk}, {f[3][6:], &b.bl}} {
			if *x.to, err = strconv.Atoi(x.text); err != nil {
				t.Fatalf("book line %q: %v", line, err)
			}
		}
		out = append(out, b)
	}
	if len(out) != len(openings) {
		t.Fatalf("%d lines with comments, %d openings read", len(out), len(openings))
	}
	return out
}

// TestBook checks the shipped book against the rules and its stated judge: its size is the
// command's --count; every walk replays from the start by the rules to the line's SFEN;
// no position comes twice, whatever the move order (the SFEN without its move number);
// every score is within the margin; the walks come in order. Then two blocks (the first
// and the last) are judged again by Fairy-Stockfish as the command judged them: every
// opening of those blocks gets its score to the centipawn, and every balanced position of
// them is in the book (the last block up to its last opening).
func TestBook(t *testing.T) {
	args, _ := command(t, "selfplay", "openings/book.sfen.gz")
	path := filepath.Join(root, flagValue(t, args, "-o"))
	count, _ := strconv.Atoi(flagValue(t, args, "--count"))
	margin, _ := strconv.Atoi(flagValue(t, args, "--margin"))
	seed, _ := strconv.ParseUint(flagValue(t, args, "--seed"), 10, 64)
	var lo, hi int
	fmt.Sscanf(flagValue(t, args, "--plies"), "%d-%d", &lo, &hi)
	book := readBook(t, path)
	if len(book) != count || count < 5000 {
		t.Fatalf("%d openings, the command asks for %d (and the issue for 5,000 at least)", len(book), count)
	}
	seen := map[string]int{}
	for i, b := range book {
		g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
		for _, m := range b.moves {
			if err := g.PlayUSI(m); err != nil {
				t.Fatalf("opening %d: walk %v: %v", i, b.moves, err)
			}
		}
		pos := g.Position()
		if got := pos.SFEN(); got != b.sfen || g.Result().Over() || len(b.moves) < lo || len(b.moves) > hi {
			t.Errorf("opening %d: the walk reaches %s (over: %v), the line says %s", i, got, g.Result().Over(), b.sfen)
		}
		key := strings.Join(strings.Fields(b.sfen)[:3], " ")
		if j, ok := seen[key]; ok {
			t.Errorf("openings %d and %d are one position", j, i)
		}
		seen[key] = i
		if b.cp < -margin || b.cp > margin {
			t.Errorf("opening %d scored %d, outside ±%d", i, b.cp, margin)
		}
		if i > 0 && (b.walk <= book[i-1].walk || b.bl < book[i-1].bl) {
			t.Errorf("opening %d (walk %d, block %d) after walk %d, block %d", i, b.walk, b.bl, book[i-1].walk, book[i-1].bl)
		}
	}

	judgeText := flagValue(t, args, "--judge")
	judge, err := selfplay.ParsePlayerSpec(strings.Replace(judgeText, "usi:fairy-stockfish", "usi:"+fsftest.Path(t), 1), selfplay.PlayerSpec{})
	if err != nil {
		t.Fatal(err)
	}
	search := selfplay.OpeningSearch{Count: count, MinPlies: lo, MaxPlies: hi, Judge: judge, Margin: margin, Seed: seed}
	last := book[len(book)-1]
	for _, block := range []int{0, last.bl} {
		t.Run(fmt.Sprintf("block %d", block), func(t *testing.T) {
			judged, err := search.JudgeBlock(context.Background(), block)
			if err != nil {
				t.Fatal(err)
			}
			inBook := map[int]bookLine{}
			for _, b := range book {
				if b.bl == block {
					inBook[b.walk] = b
				}
			}
			kept := 0
			for _, p := range judged {
				b, ok := inBook[p.Walk]
				balanced := !p.Mate && !p.None && p.ScoreCP >= -margin && p.ScoreCP <= margin
				switch {
				case ok && (p.SFEN != b.sfen || p.ScoreCP != b.cp || !balanced):
					t.Errorf("walk %d: judged again %+v, the book has %s, cp %d", p.Walk, p, b.sfen, b.cp)
				case !ok && balanced && p.Walk < last.walk:
					t.Errorf("walk %d is balanced (cp %d) but not in the book", p.Walk, p.ScoreCP)
				case ok:
					kept++
				}
			}
			if kept != len(inBook) {
				t.Errorf("%d of the block's %d openings judged again", kept, len(inBook))
			}
		})
	}
}

// gunzipLines returns the lines of a gzip-compressed text file.
func gunzipLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n")
}
