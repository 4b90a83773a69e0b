package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/analysis/ladder"
)

// TestLadderCommands runs analyze ladder as a user does, on the shipped ladder: fit writes a
// ladder whose anchors are the shipped file's (the same records give the same fit: the
// ratings themselves are checked against a second method in go test ./datasets), and rate
// places a player from its gauntlet records, in text and in JSON. Bad usage is one line.
func TestLadderCommands(t *testing.T) {
	data := filepath.Join("..", "..", "datasets", "ladder")
	records, _ := filepath.Glob(filepath.Join(data, "rr", "*", "games-0-of-1.jsonl.gz"))
	if len(records) != 28 {
		t.Fatalf("%d round-robin record files; want 28", len(records))
	}
	out := filepath.Join(t.TempDir(), "ladder.json")
	args := append([]string{"ladder", "fit", "--anchors", filepath.Join(data, "anchors.json"), "-o", out}, records...)
	if code, _, stderr := runArgs(args...); code != 0 {
		t.Fatalf("ladder fit: exit %d, %s", code, stderr)
	}
	got, err := ladder.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ladder.ReadFile(filepath.Join(data, "ladder.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Anchors) != len(want.Anchors) {
		t.Fatalf("fit has %d anchors; the shipped ladder %d", len(got.Anchors), len(want.Anchors))
	}
	for i, a := range got.Anchors {
		if w := want.Anchors[i]; a.Name != w.Name || a.Games != w.Games || a.Elo-w.Elo > 1e-9 || w.Elo-a.Elo > 1e-9 {
			t.Errorf("anchor %d: %s %+.3f in %d games; shipped %s %+.3f in %d", i, a.Name, a.Elo, a.Games, w.Name, w.Elo, w.Games)
		}
	}

	gauntlet, _ := filepath.Glob(filepath.Join(data, "gauntlet", "shogilab-163722a-1k-vs-*", "games-0-of-1.jsonl.gz"))
	rate := append([]string{"ladder", "rate", "--ladder", filepath.Join(data, "ladder.json"), "--player", "shogilab-163722a-1k"}, gauntlet...)
	code, stdout, stderr := runArgs(rate...)
	if code != 0 || !strings.HasPrefix(stdout, "shogilab-163722a-1k on the ladder (fsf-1k rated 0): ") || strings.Count(stdout, "\n  against ") != 8 {
		t.Errorf("ladder rate: exit %d, %q, %s", code, stdout, stderr)
	}
	code, stdout, _ = runArgs(append([]string{"ladder", "rate", "--json"}, rate[2:]...)...)
	var r struct {
		Name    string
		Elo     float64
		Results []json.RawMessage
	}
	if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil || r.Name != "shogilab-163722a-1k" || len(r.Results) != 8 {
		t.Errorf("ladder rate --json: exit %d, %v, %q", code, err, stdout)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ladder"}, "needs fit or rate"},
		{[]string{"ladder", "rate", gauntlet[0]}, "rate needs --ladder and --player"},
		{[]string{"ladder", "fit", gauntlet[0]}, "fit needs --anchors"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			if code, _, stderr := runArgs(c.args...); code == 0 || !oneLine(stderr) || !strings.Contains(stderr, c.want) {
				t.Errorf("analyze %v: exit %d, %q; want one line with %q", c.args, code, stderr, c.want)
			}
		})
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}
