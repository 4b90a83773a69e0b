package openings

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/analysis/score"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/record"
)

// small is ../testdata/small.jsonl: seven games from the normal start between
// alpha and beta, listed in ../testdata/README.md. The expectations below are
// counted by hand from that list.
const small = "../testdata/small.jsonl"

func buildTree(t *testing.T, depth int, paths ...string) *Tree {
	t.Helper()
	tree := NewTree(depth)
	if _, err := selection.Stream(paths, selection.Filter{}, selection.Options{}, tree.Add); err != nil {
		t.Fatal(err)
	}
	return tree
}

type want struct {
	moves             string
	sente, gote, draw int
	meanPlies         float64
	positionGames     int
}

func TestLinesByHand(t *testing.T) {
	tree := buildTree(t, 4, small)
	wants := []want{
		{"2e3d", 2, 1, 0, 8.0 / 3, 3},
		{"2e3d 4a3b", 1, 1, 0, 3.5, 2},
		{"2e3d 4a3b 3e2d", 1, 1, 0, 3.5, 4}, // transposes with 3e2d 4a3b 2e3d
		{"2e3d 4a3b 3e2d 3a4b", 1, 0, 0, 4, 1},
		{"3e2d", 1, 0, 1, 3.5, 2}, // ties 5d5c on games; the move decides
		{"3e2d 4a3b", 1, 0, 1, 3.5, 2},
		{"3e2d 4a3b 2e3d", 1, 0, 1, 3.5, 4},
		{"3e2d 4a3b 2e3d 1a2b", 0, 0, 1, 4, 1},
		{"5d5c", 0, 2, 0, 1.5, 2},
		{"5d5c 4a3b", 0, 1, 0, 2, 1},
	}
	lines := tree.Lines(1)
	if len(lines) != len(wants) {
		t.Fatalf("%d lines; want %d: %+v", len(lines), len(wants), lines)
	}
	for i, w := range wants {
		l := lines[i]
		if strings.Join(l.Moves, " ") != w.moves {
			t.Errorf("line %d is %v; want %s", i, l.Moves, w.moves)
			continue
		}
		games := w.sente + w.gote + w.draw
		if l.Games != games || l.SenteWins != w.sente || l.GoteWins != w.gote || l.Draws != w.draw {
			t.Errorf("%s: %d games %d/%d/%d; want %d %d/%d/%d", w.moves, l.Games, l.SenteWins, l.GoteWins, l.Draws, games, w.sente, w.gote, w.draw)
		}
		wantScore := (float64(w.sente) + float64(w.draw)/2) / float64(games)
		if math.Abs(l.Score-wantScore) > 1e-15 {
			t.Errorf("%s: score %v; want %v", w.moves, l.Score, wantScore)
		}
		checkWilson(t, w.moves, wantScore, games, l.Interval)
		if math.Abs(l.MeanPlies-w.meanPlies) > 1e-12 {
			t.Errorf("%s: mean plies %v; want %v", w.moves, l.MeanPlies, w.meanPlies)
		}
		if l.PositionGames != w.positionGames {
			t.Errorf("%s: position games %d; want %d", w.moves, l.PositionGames, w.positionGames)
		}
		if l.Start != "rbsgk/4p/5/P4/KGSBR b -" {
			t.Errorf("%s: start %q", w.moves, l.Start)
		}
	}
	if got := tree.Lines(3); len(got) != 1 || got[0].Moves[0] != "2e3d" {
		t.Errorf("Lines(3) = %+v; want only 2e3d", got)
	}
	starts := tree.Starts()
	if len(starts) != 1 || starts[0].Games != 7 || starts[0].SenteWins != 3 || starts[0].GoteWins != 3 || starts[0].Draws != 1 {
		t.Errorf("starts %+v; want 7 games 3/3/1", starts)
	}
}

// checkWilson compares an interval with the Wilson closed form written out
// here again, at z = 1.959964.
func checkWilson(t *testing.T, what string, p float64, n int, got [2]float64) {
	t.Helper()
	const z = 1.959963984540054
	nf := float64(n)
	mid := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	if math.Abs(got[0]-math.Max(0, mid-half)) > 1e-12 || math.Abs(got[1]-math.Min(1, mid+half)) > 1e-12 {
		t.Errorf("%s: interval %v; want [%v, %v]", what, got, mid-half, mid+half)
	}
}

func TestTranspositions(t *testing.T) {
	tree := buildTree(t, 4, small)
	var merged []Position
	for _, p := range tree.Positions(1) {
		if p.Orders > 1 {
			merged = append(merged, p)
		}
	}
	// 2e3d 4a3b 3e2d and 3e2d 4a3b 2e3d: bishop to 3d and silver to 2d in
	// either order, Gote's bishop to 3b between; 4 games, 2/1/1.
	if len(merged) != 1 {
		t.Fatalf("transposed positions %+v; want one", merged)
	}
	p := merged[0]
	if p.SFEN != "r1sgk/2b1p/5/P1BS1/KG2R w -" || p.Ply != 3 || p.Orders != 2 || p.Games != 4 ||
		p.Tally != (score.Tally{SenteWins: 2, GoteWins: 1, Draws: 1}) || p.Score != 0.625 || p.MeanPlies != 3.5 {
		t.Errorf("transposition %+v", p)
	}
	positions := tree.Positions(1)
	// Ply 1 has three positions (2e3d 3, 3e2d 2, 5d5c 2), ply 2 three, ply 3
	// one (merged), ply 4 two: nine.
	if len(positions) != 9 {
		t.Errorf("%d positions; want 9", len(positions))
	}
	if !slices.IsSortedFunc(positions, func(a, b Position) int { return a.Ply - b.Ply }) {
		t.Errorf("positions not by ply: %+v", positions)
	}
	lines, npos := tree.Size()
	if lines != 10 || npos != 10 { // ten lines; nine positions and the start
		t.Errorf("size %d lines %d positions; want 10 and 10", lines, npos)
	}
}

// TestSameFileTwice checks that a game is counted in a position once per
// game even when ids repeat across files.
func TestSameFileTwice(t *testing.T) {
	tree := buildTree(t, 4, small, small)
	for _, p := range tree.Positions(1) {
		if p.Orders > 1 && p.Games != 8 {
			t.Errorf("transposition counted %d games; want 8", p.Games)
		}
	}
	if s := tree.Starts(); s[0].Games != 14 {
		t.Errorf("start %d games; want 14", s[0].Games)
	}
}

func TestDepthCuts(t *testing.T) {
	tree := buildTree(t, 1, small)
	if lines := tree.Lines(0); len(lines) != 3 {
		t.Errorf("depth 1: %d lines; want the 3 first moves", len(lines))
	}
}

func TestBadGames(t *testing.T) {
	tree := NewTree(3)
	games, err := readAll(small)
	if err != nil {
		t.Fatal(err)
	}
	g := *games[0]
	g.Moves = []string{"2e3d", "4a3b", "2e1a"} // 2e is empty after 2e3d
	err = tree.Add(&g)
	if err == nil || !strings.HasPrefix(err.Error(), "openings: game 0: moves[2]: ") {
		t.Errorf("illegal move: %v", err)
	}
	if lines := tree.Lines(0); len(lines) != 0 {
		t.Errorf("a rejected game left lines %+v", lines)
	}
	g.Variant = "bushi"
	if err := tree.Add(&g); err == nil || !strings.Contains(err.Error(), `variant "bushi"`) {
		t.Errorf("variant: %v", err)
	}
	g.Variant, g.Start = "minishogi", "rbsgk/4p/5/P4 b - 1"
	if err := tree.Add(&g); err == nil || !strings.HasPrefix(err.Error(), "openings: game 0: ") {
		t.Errorf("bad start: %v", err)
	}
}

func readAll(path string) ([]*record.Game, error) {
	var games []*record.Game
	_, err := selection.Stream([]string{path}, selection.Filter{}, selection.Options{}, func(g *record.Game) error {
		games = append(games, g)
		return nil
	})
	return games, err
}

func TestNewTreePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewTree(0) did not panic")
		}
	}()
	NewTree(0)
}
