package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// Each bad command line gives its exit status and one line on stderr, prefixed once, with
// the bad value as typed.
func TestBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, cli.ExitUsage, "need --out DIR"},
		{[]string{"--out", dir}, cli.ExitUsage, "need --out DIR"},
		{[]string{"--out", dir, "--max", "0", "x.jsonl"}, cli.ExitUsage, "--max 0"},
		{[]string{"--out", dir, "--max", "-5x", "x.jsonl"}, cli.ExitUsage, `"-5x"`},
		{[]string{"--bogus"}, cli.ExitUsage, "-bogus"},
		// A flag after the records file is still a flag.
		{[]string{"x.jsonl", "--out", dir, "--fsf", "/nonexistent/fsf"}, cli.ExitFailure, "--fsf /nonexistent/fsf: no such program"},
	} {
		t.Run(c.want, func(t *testing.T) {
			var out, errs bytes.Buffer
			code := cli.RunOne(cli.Command{Name: "tactics", Run: run}, c.args, &out, &errs)
			msg := errs.String()
			if code != c.code || strings.Count(msg, "\n") != 1 || strings.Count(msg, "tactics:") != 1 || !strings.Contains(msg, c.want) {
				t.Errorf("%q: exit %d, stderr %q; want exit %d, one line with %q", c.args, code, msg, c.code, c.want)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	var out, errs bytes.Buffer
	if code := cli.RunOne(cli.Command{Name: "tactics", Run: run}, []string{"-h"}, &out, &errs); code != 0 || !strings.Contains(out.String(), "usage: tactics") || errs.Len() > 0 {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, out.String(), errs.String())
	}
}

// TestGamesTable: tactics reads a games table as it reads the same games as JSON Lines, as
// every record reader does (docs/architecture.md#records; issue 33: it refused Parquet): the
// suite files and the counts are the same.
func TestGamesTable(t *testing.T) {
	fsf := fsftest.Path(t)
	dir := t.TempDir()
	// Games that start from the suite's first mate of each length (datasets/tactics, each
	// confirmed by Fairy-Stockfish) and play one legal move: tactics looks at each start.
	jsonl := filepath.Join(dir, "games.jsonl")
	f, err := os.Create(jsonl)
	if err != nil {
		t.Fatal(err)
	}
	w := record.NewWriter(f)
	for id, n := range []int{3, 5, 7} {
		b, err := os.ReadFile(fmt.Sprintf("../../datasets/tactics/mate%d.sfen", n))
		if err != nil {
			t.Fatal(err)
		}
		sfen, _, _ := strings.Cut(string(b), "\n")
		pos, err := ms.ParseSFEN(sfen)
		if err != nil {
			t.Fatal(err)
		}
		player := record.Player{Name: "random", Kind: record.KindRandom}
		g := &record.Game{ID: id, Variant: "minishogi", Start: sfen, Moves: []string{pos.LegalMoves(nil)[0].String()},
			Result: record.Draw, Termination: record.MaxPlies, Plies: 1, Players: record.Players{Sente: player, Gote: player},
			Rules: record.Rules{Repetition: record.RepetitionFirstMoverLoses, MaxPlies: 1}, Version: "test"}
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	f.Close()
	games := filepath.Join(dir, "games.parquet")
	if _, err := table.Convert(context.Background(), []string{jsonl}, games, filepath.Join(dir, "positions.parquet")); err != nil {
		t.Fatal(err)
	}
	suite := func(in string) (string, string) {
		out := filepath.Join(dir, "suite-"+filepath.Base(in))
		var stdout, stderr bytes.Buffer
		if code := cli.RunOne(cli.Command{Name: "tactics", Run: run}, []string{"--out", out, "--fsf", fsf, "--max", "2", in}, &stdout, &stderr); code != 0 {
			t.Fatalf("tactics %s: exit %d, %s", in, code, stderr.String())
		}
		var files []string
		for _, n := range []string{"mate3.sfen", "mate5.sfen", "mate7.sfen"} {
			b, err := os.ReadFile(filepath.Join(out, n))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, string(b))
		}
		return stdout.String(), strings.Join(files, "|")
	}
	fromLines, linesSuite := suite(jsonl)
	fromTable, tableSuite := suite(games)
	if fromTable != fromLines || tableSuite != linesSuite {
		t.Errorf("from the games table %q %q; from the same games as JSON Lines %q %q", fromTable, tableSuite, fromLines, linesSuite)
	}
	if want := "mate in 3: 1, in 5: 1, in 7: 1;"; !strings.HasPrefix(fromLines, want) {
		t.Errorf("from JSON Lines %q, want %q: the suite's three mates", fromLines, want)
	}
}
