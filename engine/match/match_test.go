package match

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/rules/minishogi"
)

func TestSummarize(t *testing.T) {
	games := []Game{{ScoreA: 1, Termination: "checkmate"}, {ScoreA: 1, Termination: "checkmate"},
		{ScoreA: 0.5, Termination: "max_plies"}, {ScoreA: 0, Termination: "resignation"}}
	s := Summarize("a", "b", games)
	// By hand: mean 2.5/4 = 0.625; squared deviations 0.140625·2 + 0.015625 + 0.390625 =
	// 0.6875, sample variance 0.6875/3, so the half-width is 1.959964·√(0.6875/3)/2 = 0.46913;
	// the upper end is clipped to 1. Elo: -400·log10(1/0.625 - 1) = 88.74.
	want := struct{ score, low, high, elo float64 }{0.625, 0.625 - 0.46913, 1, 88.74}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"score", s.Score, want.score}, {"low", s.Low, want.low}, {"high", s.High, want.high}, {"elo", s.Elo, want.elo}} {
		if math.Abs(c.got-c.want) > 0.005 {
			t.Errorf("%s %v, want %v", c.name, c.got, c.want)
		}
	}
	if s.WinsA != 2 || s.Draws != 1 || s.LossesA != 1 || s.Terminations["checkmate"] != 2 || !math.IsInf(s.EloHigh, 1) {
		t.Errorf("summary %+v", s)
	}
}

// TestSummarizeWhitewash: 40 wins of 40. Wilson's interval by hand: z² = 3.8415, centre
// (1 + 3.8415/80)/(1 + 3.8415/40) = 0.95620, half-width 1.96·√(3.8415/6400)/(1.096036) =
// 0.04381, so 0.91239 .. 1.
func TestSummarizeWhitewash(t *testing.T) {
	games := make([]Game, 40)
	for i := range games {
		games[i].ScoreA = 1
	}
	s := Summarize("a", "b", games)
	if s.Score != 1 || math.Abs(s.Low-0.91239) > 0.0005 || s.High != 1 {
		t.Errorf("score %v, interval %v .. %v; want 1, 0.91239 .. 1", s.Score, s.Low, s.High)
	}
}

func TestRandomMatchIsReproducible(t *testing.T) {
	run := func() Result {
		res, err := Play(context.Background(), NewRandom(), NewRandom(), Options{Games: 6, Seed: 9, Rules: minishogi.GameOptions{MaxPlies: 80}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(), run()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two matches with one seed differ")
	}
	for i, g := range a.Games {
		if g.SenteIsA != (i%2 == 0) {
			t.Errorf("game %d: colours do not alternate", i)
		}
		// Replay the game through the rules: every move legal, the same result.
		rg := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{MaxPlies: 80})
		for _, m := range g.Moves {
			if err := rg.PlayUSI(m); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
		}
		if rg.Result().String() != g.Result {
			t.Errorf("game %d: replay gives %q, record %q", i, rg.Result(), g.Result)
		}
	}
}

// TestEngineBeatsRandom: with 300 playouts a move the engine wins every game of four
// against a random mover (seeded, single goroutine: the same games every run).
func TestEngineBeatsRandom(t *testing.T) {
	ctx := context.Background()
	a, err := ParsePlayer(ctx, "shogilab:playouts=300,hash=16", Defaults{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Play(ctx, a, NewRandom(), Options{Games: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.WinsA != 4 {
		t.Errorf("engine scored %+v", res.Summary)
	}
}

func TestParsePlayerErrors(t *testing.T) {
	for _, spec := range []string{"", "stockfish", "random:x=1", "shogilab:bogus=1", "shogilab", "shogilab:playouts=x", "usi:", "usi:/bin/true"} {
		if p, err := ParsePlayer(context.Background(), spec, Defaults{}); err == nil {
			p.Close()
			t.Errorf("%q accepted", spec)
		}
	}
}

// fairyStockfish returns the path of Fairy-Stockfish, failing under CI=true when it is
// missing and skipping otherwise.
func fairyStockfish(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("fairy-stockfish"); err == nil {
		return p
	}
	const fsf = "/usr/games/fairy-stockfish"
	if _, err := os.Stat(fsf); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("fairy-stockfish is not installed")
		}
		t.Skip("fairy-stockfish is not installed")
	}
	return fsf
}

// TestInteropFairyStockfish plays short games between our engine, as the cmd/usi binary
// driven through the USI client, and Fairy-Stockfish. Every move passes through
// minishogi.Game, which rejects an illegal one; no game may end by an illegal move or a
// missing answer.
func TestInteropFairyStockfish(t *testing.T) {
	fsf := fairyStockfish(t)
	bin := filepath.Join(t.TempDir(), "shogilab-usi")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/shogilab/shogilab/cmd/usi").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d := Defaults{MoveTime: 50 * time.Millisecond}
	ours, err := ParsePlayer(ctx, "usi:"+bin+",option.USI_Hash=16", d)
	if err != nil {
		t.Fatal(err)
	}
	defer ours.Close()
	theirs, err := ParsePlayer(ctx, "usi:"+fsf, d)
	if err != nil {
		t.Fatal(err)
	}
	defer theirs.Close()
	res, err := Play(ctx, ours, theirs, Options{Games: 2, Seed: 1, Rules: minishogi.GameOptions{MaxPlies: 40}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range res.Games {
		if g.Termination == "illegal_move" || g.Termination == "no_answer" || len(g.Moves) == 0 {
			t.Errorf("game %d: %s after %d moves: %s", g.Index, g.Termination, len(g.Moves), g.Note)
		}
	}
	if ours.Name() != "shogilab" {
		t.Errorf("our engine calls itself %q", ours.Name())
	}
}

// FuzzParsePlayer: a spec either fails with a "match: " error or gives a named player;
// nothing panics. Specs that would start a program are left out.
func FuzzParsePlayer(f *testing.F) {
	for _, s := range []string{"random", "shogilab:playouts=10", "shogilab:movetime=1ms,threads=2", "shogilab:hash=-5,playouts=3", "x:y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if strings.HasPrefix(spec, "usi") {
			return
		}
		p, err := ParsePlayer(context.Background(), spec, Defaults{})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "match: ") {
				t.Errorf("%q: error %v", spec, err)
			}
			return
		}
		defer p.Close()
		if p.Name() == "" {
			t.Errorf("%q: unnamed player", spec)
		}
	})
}

// TestHashBeyondMemory: a hash the machine cannot hold is refused when the player is made,
// instead of a fatal out of memory at its first move.
func TestHashBeyondMemory(t *testing.T) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Skip("no /proc/meminfo")
	}
	var kb uint64
	for _, line := range strings.Split(string(b), "\n") {
		fmt.Sscanf(line, "MemAvailable: %d kB", &kb)
	}
	if kb<<10 >= engine.MaxHashMB<<20 {
		t.Skipf("%d MiB available: the largest hash fits", kb>>10)
	}
	_, err = ParsePlayer(context.Background(), fmt.Sprintf("shogilab:hash=%d,playouts=10", engine.MaxHashMB), Defaults{})
	if err == nil || !strings.Contains(err.Error(), "hash") || !strings.Contains(err.Error(), "available") {
		t.Errorf("hash=%d: %v", engine.MaxHashMB, err)
	}
}
