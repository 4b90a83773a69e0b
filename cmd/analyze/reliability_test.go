package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestIllegalGamesRejectedAlike: every record analysis rejects a game with an illegal move
// (bad.jsonl line 3, 5d5b: the pawn on 5d moves one square), or with --skip-bad skips it and
// says so; none counts it.
func TestIllegalGamesRejectedAlike(t *testing.T) {
	for _, sub := range []string{"games", "openings", "ratings"} {
		t.Run(sub, func(t *testing.T) {
			code, stdout, stderr := runArgs(sub, "--skip-bad", badRecords)
			if code != 0 || !strings.Contains(stdout, "1 bad records skipped, 1 games with bad moves skipped") {
				t.Errorf("%s --skip-bad: exit %d, %s\n%s", sub, code, stderr, stdout)
			}
		})
	}
	// The games table counts the two good games only (games 0 and 3, both Sente wins).
	_, stdout, _ := runArgs("games", "--json", "--skip-bad", badRecords)
	var g struct {
		Games  int
		Counts struct{ Read, Rejected int }
	}
	if err := json.Unmarshal([]byte(stdout), &g); err != nil || g.Games != 2 || g.Counts.Rejected != 1 {
		t.Errorf("games --skip-bad: %+v, %v", g, err)
	}
}

// TestGamesJSONEmptyAndScoreCount: an empty selection is valid JSON (no NaN: a share of no
// games is null), and sente_score counts the games the table shows.
func TestGamesJSONEmptyAndScoreCount(t *testing.T) {
	code, stdout, stderr := runArgs("games", "--json", "--player", "nobody", smallRecords)
	var empty map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &empty) != nil {
		t.Fatalf("empty selection: exit %d, %s, %q", code, stderr, stdout)
	}
	if s := empty["sente_score"].(map[string]any); s["value"] != nil || s["count"] != 0.0 {
		t.Errorf("empty selection: sente_score %v, want value null and count 0", s)
	}
	// small.jsonl: 7 games, Sente's score 3.5/7 (analysis/testdata/README.md).
	_, stdout, _ = runArgs("games", "--json", smallRecords)
	var full struct {
		SenteScore struct {
			Count int
			Value float64
		} `json:"sente_score"`
	}
	if err := json.Unmarshal([]byte(stdout), &full); err != nil || full.SenteScore.Count != 7 || full.SenteScore.Value != 0.5 {
		t.Errorf("sente_score %+v, %v; want count 7, value 0.5", full.SenteScore, err)
	}
}

// TestPlotsDirCheckedFirst: an --out directory that cannot be made fails before the
// records are read (a missing record file would otherwise be the first error), as a
// mistake in the command line: exit 2.
func TestPlotsDirCheckedFirst(t *testing.T) {
	for _, sub := range []string{"games", "openings", "ratings"} {
		t.Run(sub, func(t *testing.T) {
			code, _, stderr := runArgs(sub, "--out", "main.go/plots", "nosuch.jsonl")
			if code != 2 || !strings.Contains(stderr, "--out: output directory") {
				t.Errorf("%s: exit %d, stderr %q", sub, code, stderr)
			}
		})
	}
}
