package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/internal/fsftest/fsfclient"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// buildEngine compiles this command into a temporary directory.
func buildEngine(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "shogilab-usi")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// run feeds commands to the engine and returns its output.
func run(t *testing.T, bin, commands string) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(commands)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	return string(out)
}

func TestProtocol(t *testing.T) {
	bin := buildEngine(t)
	out := run(t, bin, strings.Join([]string{
		"usi", "isready",
		"position startpos moves 2e3d",
		"position sfen rbsgk/4p/6/P4/KGSBR b - 1", // bad: rank c has 6 files
		"position startpos moves 2e3d 5a5e",       // bad: illegal second move
		"setoption name NoSuchOption value 1",
		"frobnicate",
		"go perft 1",
		"d",
		"go",
		"quit",
	}, "\n"))
	for _, want := range []string{
		"id name shogilab", "usiok", "readyok",
		"info string error: minishogi: sfen: rank 3 (c) has 6 files",
		"info string error: move 2 (5a5e)",
		"info string error: engine: unknown option \"NoSuchOption\"",
		"info string error: unknown command \"frobnicate\"",
		// After the errors the position is still the one after 2e3d: Gote to move with 14
		// replies (Fairy-Stockfish's divide of the start position gives 2e3d: 180 at depth 2,
		// and perft 1 after 2e3d lists these 14 moves).
		"Nodes searched: 14",
		"Sfen: rbsgk/4p/5/P1B2/KGS1R w - 2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The bare `go` searches until `quit` stops it; its move must be one of Gote's legal
	// replies to 2e3d (the rules package decides legality independently of the search).
	_, best, ok := strings.Cut(out, "bestmove ")
	if !ok {
		t.Fatalf("no bestmove:\n%s", out)
	}
	best = strings.Fields(best)[0]
	pos, err := minishogi.ParseSFEN("rbsgk/4p/5/P1B2/KGS1R w - 2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pos.ParseMove(best); err != nil {
		t.Errorf("bestmove %s: %v", best, err)
	}
}

// TestPerftMatchesFairyStockfish drives our engine and Fairy-Stockfish through the USI client
// and compares their `go perft` answers move by move.
func TestPerftMatchesFairyStockfish(t *testing.T) {
	theirs := fsfclient.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ours, err := usi.Start(ctx, []string{buildEngine(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer ours.Close()
	if _, err := ours.Handshake(ctx); err != nil {
		t.Fatal(err)
	}
	for _, pos := range []struct {
		sfen  string
		moves []string
	}{
		{"", nil},
		{"", []string{"2e3d", "4a2c"}},
		{"4k/5/5/P4/KGSBR w - 1", nil},
		{"+r1+bk1/5/2+P2/1+S3/1K3 w Gg 12", nil},
	} {
		t.Run(pos.sfen, func(t *testing.T) {
			var res [2]usi.PerftResult
			for i, c := range []*usi.Client{ours, theirs} {
				if err := c.Position(pos.sfen, pos.moves); err != nil {
					t.Fatal(err)
				}
				if res[i], err = c.Perft(ctx, 3); err != nil {
					t.Fatal(err)
				}
			}
			if res[0].Nodes != res[1].Nodes || len(res[0].Moves) != len(res[1].Moves) {
				t.Errorf("%q %v: ours %d nodes in %d moves, fairy-stockfish %d in %d", pos.sfen, pos.moves, res[0].Nodes, len(res[0].Moves), res[1].Nodes, len(res[1].Moves))
			}
			for m, n := range res[1].Moves {
				if res[0].Moves[m] != n {
					t.Errorf("%q %v %s: ours %d, fairy-stockfish %d", pos.sfen, pos.moves, m, res[0].Moves[m], n)
				}
			}
		})
	}
}

// TestPerftFlagBounded: -perft refuses a depth it could never finish (a typo such as 99)
// at once, with the bound.
func TestPerftFlagBounded(t *testing.T) {
	bin := buildEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "-perft", "99").CombinedOutput()
	if ctx.Err() != nil {
		t.Fatal("usi -perft 99 is still counting after 20 s")
	}
	if code := exitCode(err); code != 2 || !strings.HasPrefix(string(out), "usi: -perft 99: want a depth from 1 to 15") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// Each bad command line gives exit 2 and one line on stderr, prefixed once, with the bad
// value as typed; -h prints the help on stdout and exits 0.
func TestBadCommandLines(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-perft", "x"}, cli.ExitUsage, `"x"`},
		{[]string{"-perft", "5q"}, cli.ExitUsage, `"5q"`},
		{[]string{"-perft", "2", "-sfen", "rbsgk/4p"}, cli.ExitUsage, `-sfen "rbsgk/4p"`},
		{[]string{"-bogus"}, cli.ExitUsage, "-bogus"},
		{[]string{"extra", "-perft", "2"}, cli.ExitUsage, `unexpected argument "extra"`},
		{[]string{"-h"}, 0, ""},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out, errs bytes.Buffer
			code := cli.RunOne(cli.Command{Name: "usi", Run: serve}, c.args, &out, &errs)
			msg := errs.String()
			if c.code == 0 {
				if code != 0 || msg != "" || !strings.Contains(out.String(), "usage: usi") {
					t.Errorf("%q: exit %d, stdout %q, stderr %q; want the help", c.args, code, out.String(), msg)
				}
				return
			}
			if code != c.code || strings.Count(msg, "\n") != 1 || strings.Count(msg, "usi:") != 1 || !strings.Contains(msg, c.want) {
				t.Errorf("%q: exit %d, stderr %q; want exit %d, one line with %q", c.args, code, msg, c.code, c.want)
			}
		})
	}
}
