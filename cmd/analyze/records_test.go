package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/analysis/gamestats"
	"github.com/shogilab/shogilab/analysis/openings"
	"github.com/shogilab/shogilab/analysis/ratings"
	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/rules/mawari"
)

const (
	smallRecords    = "../../analysis/testdata/small.jsonl"    // 7 games, hand-counted in its README
	handicapRecords = "../../analysis/testdata/handicap.jsonl" // 1 bare-king game gamma beats alpha
	badRecords      = "../../analysis/testdata/bad.jsonl"      // line 2 is not JSON; line 3 has an illegal move
)

func TestOpeningsJSON(t *testing.T) {
	code, stdout, stderr := runArgs("openings", "--json", "--depth", "2", "--min-games", "2", smallRecords)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Lines []struct {
			Moves                      []string
			Games                      int
			SenteWins, GoteWins, Draws int
			Score                      float64
			Interval                   []float64
		}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	if err := json.Unmarshal(raw["lines"], &lines); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"moves", "games", "sente_wins", "gote_wins", "draws", "score", "interval"} {
		if _, ok := lines[0][key]; !ok {
			t.Errorf("lines[0] lacks %q: %v", key, lines[0])
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	// By hand: 2e3d (3 games, 2/1/0), 2e3d 4a3b (2, 1/1/0), 3e2d (2, 1/0/1),
	// 3e2d 4a3b (2, 1/0/1), 5d5c (2, 0/2/0); 5d5c 4a3b has 1 game.
	want := []string{"2e3d", "2e3d 4a3b", "3e2d", "3e2d 4a3b", "5d5c"}
	if len(out.Lines) != len(want) {
		t.Fatalf("lines %+v", out.Lines)
	}
	for i, w := range want {
		if strings.Join(out.Lines[i].Moves, " ") != w {
			t.Errorf("line %d %v; want %s", i, out.Lines[i].Moves, w)
		}
	}
	if l := out.Lines[0]; l.Games != 3 || math.Abs(l.Score-2.0/3) > 1e-12 || len(l.Interval) != 2 || !(l.Interval[0] < l.Score && l.Score < l.Interval[1]) {
		t.Errorf("2e3d: %+v", l)
	}
}

func TestOpeningsCSVAndTable(t *testing.T) {
	code, stdout, _ := runArgs("openings", "--csv", "--depth", "1", smallRecords)
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(rows) != 4 || rows[0][1] != "moves" || rows[1][1] != "2e3d" || rows[1][2] != "3" {
		t.Errorf("csv: exit %d, %v, %q", code, err, rows)
	}
	code, stdout, _ = runArgs("openings", "--depth", "4", smallRecords)
	for _, want := range []string{"7 games read", "2e3d 4a3b 3e2d 3a4b", "r1sgk/2b1p/5/P1BS1/KG2R w -"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
}

func TestGamesAndRatingsJSON(t *testing.T) {
	code, stdout, stderr := runArgs("games", "--json", smallRecords, handicapRecords)
	var g struct {
		Games     int
		SenteWins struct{ Count int } `json:"sente_wins"`
		Counts    struct{ Read int }
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &g) != nil || g.Games != 8 || g.SenteWins.Count != 4 || g.Counts.Read != 8 {
		t.Errorf("games: exit %d %s %+v", code, stderr, g)
	}
	code, stdout, stderr = runArgs("ratings", "--json", "--model", "half-point", smallRecords)
	var r struct {
		Players []struct {
			Name string
			Elo  float64
		}
		LOS map[string]map[string]float64
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &r) != nil || len(r.Players) != 2 {
		t.Fatalf("ratings: exit %d %s %s", code, stderr, stdout)
	}
	// alpha scores 4.5 of 7: -400·log10(1/s - 1) apart.
	s := 4.5 / 7
	if d := r.Players[0].Elo - r.Players[1].Elo; r.Players[0].Name != "alpha" || math.Abs(d+400*math.Log10(1/s-1)) > 1e-6 {
		t.Errorf("ratings %+v", r.Players)
	}
	if los := r.LOS["alpha"]["beta"]; !(los > 0.5 && los < 1) || math.Abs(los+r.LOS["beta"]["alpha"]-1) > 1e-12 {
		t.Errorf("LOS %v", r.LOS)
	}
}

func TestRecordFilters(t *testing.T) {
	code, stdout, _ := runArgs("games", "--json", "--start", "bare-king", smallRecords, handicapRecords)
	if !strings.Contains(stdout, `"games":1,`) || code != 0 {
		t.Errorf("--start bare-king: %s", stdout)
	}
	code, stdout, _ = runArgs("games", "--json", "--player", "gamma", "--since", "2025-01-05", "--until", "2025-01-06", smallRecords, handicapRecords)
	if !strings.Contains(stdout, `"games":1,`) || code != 0 {
		t.Errorf("--player --since --until: %s", stdout)
	}
}

func TestRecordBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"openings"}, "analyze openings: no record files given"},
		{[]string{"openings", "--depth", "0", smallRecords}, "analyze openings: --depth 0"},
		{[]string{"openings", "--csv", "--json", smallRecords}, "analyze openings: --csv and --json"},
		{[]string{"openings", badRecords}, "analyze openings: record: " + badRecords + ":2: not a JSON record"},
		{[]string{"games", "nosuch.jsonl"}, "analyze games: record: open nosuch.jsonl"},
		{[]string{"games", "--start", "queen-odds", smallRecords}, `analyze games: selection: start "queen-odds"`},
		{[]string{"games", "--since", "yesterday", smallRecords}, `analyze games: --since: selection: date "yesterday"`},
		{[]string{"ratings", smallRecords, handicapRecords}, "analyze ratings: the likelihood has no maximum"},
		{[]string{"ratings", "--anchor", "zeta", smallRecords}, `analyze ratings: anchor "zeta"`},
	} {
		t.Run(c.want, func(t *testing.T) {
			code, _, stderr := runArgs(c.args...)
			if code != 1 || !oneLine(stderr) || !strings.HasPrefix(stderr, c.want) {
				t.Errorf("%v: exit %d, stderr %q; want %q...", c.args, code, stderr, c.want)
			}
		})
	}
	// A flag the subcommand does not have is a usage error: exit 2.
	if code, _, stderr := runArgs("ratings", "--depth", "3", smallRecords); code != 2 || !oneLine(stderr) ||
		!strings.HasPrefix(stderr, "analyze ratings: flag provided but not defined: -depth") {
		t.Errorf("ratings --depth: exit %d, stderr %q", code, stderr)
	}
	// Skipping: the bad line and the illegal game are counted, not fatal.
	code, stdout, _ := runArgs("openings", "--skip-bad", badRecords)
	if code != 0 || !strings.Contains(stdout, "1 bad records skipped, 1 games with bad moves skipped") {
		t.Errorf("--skip-bad: exit %d\n%s", code, stdout)
	}
}

func TestRecordHelp(t *testing.T) {
	for _, sub := range []string{"openings", "games", "ratings", "match"} {
		t.Run(sub, func(t *testing.T) {
			code, stdout, _ := runArgs(sub, "-h")
			if code != 0 || !strings.Contains(stdout, "usage: analyze "+sub) || !strings.Contains(stdout, "-plots") {
				t.Errorf("%s -h: exit %d\n%s", sub, code, stdout)
			}
		})
	}
}

// TestRecordPlots: by default the record analyses write paper figures (PDF, a column wide,
// no title) and their captions, all in one captions.md for the three commands; --format and
// --size give the web's PNG and SVG.
func TestRecordPlots(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"openings", "--depth", "4", "--out", dir, smallRecords},
		{"games", "--out", dir, smallRecords},
		{"ratings", "--out", dir, smallRecords},
	} {
		if code, _, stderr := runArgs(args...); code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, stderr)
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"captions.md", "first-moves.pdf", "game-lengths.pdf", "ratings.pdf", "top-lines.pdf"}
	var got []string
	for _, f := range files {
		got = append(got, filepath.Base(f))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("wrote %v; want %v", got, want)
	}
	figuretest.CheckPDF(t, filepath.Join(dir, "game-lengths.pdf"), figure.Column, "game length (plies)", "Sente wins (3)")
	// The captions, one per figure in the order written, state the counts of
	// analysis/testdata/README.md and the command behind each.
	captions, err := os.ReadFile(filepath.Join(dir, "captions.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"**Figure first-moves.** Sente's score (a draw counting half) after each first move from the normal start, with Wilson 95% score intervals, in 7 games of " + smallRecords + ". 2e3d 3 games, score 0.67",
		"**Figure top-lines.** The 2 most played 4-ply lines from the normal start",
		"**Figure game-lengths.** Length of the games by result, a histogram in bins of one ply, in 7 games of " + smallRecords + ". Sente won 3, Gote 3, draws 1",
		"(Resign=proven)", "Made by `analyze games --out " + dir + " " + smallRecords + "`.",
		"**Figure ratings.** Elo ratings of the 2 players, fitted by maximum likelihood (Davidson's model",
	} {
		if !strings.Contains(string(captions), want) {
			t.Errorf("captions.md lacks %q:\n%s", want, captions)
		}
	}
	if n := strings.Count(string(captions), "**Figure "); n != 4 {
		t.Errorf("captions.md has %d captions; want 4", n)
	}
	// For the web: PNG and SVG, full width.
	web := t.TempDir()
	if code, _, stderr := runArgs("games", "--out", web, "--format", "png,svg", "--size", "full", "--titles", smallRecords); code != 0 {
		t.Fatalf("games for the web: exit %d %s", code, stderr)
	}
	checkFigure(t, filepath.Join(web, "game-lengths"))
	if code, _, stderr := runArgs("games", "--out", web, "--size", "a4", smallRecords); code != 2 || !oneLine(stderr) || !strings.Contains(stderr, "want column") {
		t.Errorf("--size a4: exit %d, %q", code, stderr)
	}
}

// TestFiguresPass runs figuretest's checks on every figure the record analyses and analyze
// mawari draw, on the hand-written records and a small Mawari study.
func TestFiguresPass(t *testing.T) {
	rf := &recordFlags{}
	var figs []namedFigure
	summary := gamestats.New()
	tree := openings.NewTree(4)
	collect := ratings.NewCollector()
	for _, path := range []string{smallRecords, handicapRecords} {
		if _, err := rf.stream([]string{path}, record.AllFields, io.Discard, func(g *record.Game) error {
			summary.Add(g)
			if path == smallRecords { // the bare-king game's winner has no loss: no finite rating
				collect.Add(g)
			}
			return tree.Add(g)
		}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := gamesFigures(summary.Report(), "the test games")
	if err != nil {
		t.Fatal(err)
	}
	figs = append(figs, f...)
	if f, err = openingsFigures(tree, tree.Lines(1), 10, "the test games"); err != nil {
		t.Fatal(err)
	}
	figs = append(figs, f...)
	res, err := collect.Fit(ratings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f, err = ratingsFigures(res, "the test games"); err != nil {
		t.Fatal(err)
	}
	figs = append(figs, f...)
	r, err := mawari.LookupPreset("lap") // not the standard preset: a curve of its own
	if err != nil {
		t.Fatal(err)
	}
	rep, err := buildMawariReport(r, "lap", mawari.DefaultProbabilities(), mawari.DefaultProbabilitiesSource, 500, 5000, 3, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f, err = mawariFigures(rep); err != nil {
		t.Fatal(err)
	}
	figs = append(figs, f...)
	if len(figs) != 9 {
		t.Fatalf("%d figures; want 9", len(figs))
	}
	for _, f := range figs {
		figuretest.Check(t, f.name, f.plot)
		if len(f.caption) < 80 {
			t.Errorf("%s: caption %q", f.name, f.caption)
		}
	}
}

// TestParquetReadsAsJSONL: every record analysis gives the same JSON from
// the games table as from the record files it was converted from.
func TestParquetReadsAsJSONL(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.parquet")
	if _, err := table.Convert(context.Background(), []string{smallRecords, handicapRecords}, games, filepath.Join(dir, "positions.parquet")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"openings", "--json", "--depth", "3"},
		{"games", "--json"},
		{"ratings", "--json", "--player", "beta"},
		{"openings", "--json", "--player", "gamma", "--since", "2025-01-02"},
	} {
		code, fromJSONL, stderr := runArgs(append(args, smallRecords, handicapRecords)...)
		if code != 0 {
			t.Fatalf("%v on JSON Lines: %s", args, stderr)
		}
		code, fromParquet, stderr := runArgs(append(args, games)...)
		if code != 0 {
			t.Fatalf("%v on Parquet: %s", args, stderr)
		}
		if fromJSONL != fromParquet || !strings.Contains(fromJSONL, `"read":8`) {
			t.Errorf("%v: JSON Lines gives\n%s\nParquet gives\n%s", args, fromJSONL, fromParquet)
		}
	}
	// A positions table is not a games table: one line naming it.
	code, _, stderr := runArgs("games", filepath.Join(dir, "positions.parquet"))
	if code == 0 || !oneLine(stderr) || !strings.Contains(stderr, "positions.parquet: a positions table, not a games table") {
		t.Errorf("games on a positions table: %d %q", code, stderr)
	}
}

// TestMatchJSON: small.jsonl is a match in pairs (alpha Sente in the even games). By hand
// from its README: pair 0–1 alpha wins both (2 points), pair 2–3 a draw and a loss (1/2),
// pair 4–5 a loss and a win (1); game 6 has no partner. Games 4–1–2; pairs [0 1 1 0 1];
// per-game pair scores 1, 1/4, 1/2: mean 7/12, variance (divided by n) 0.097222, standard
// error sqrt(0.097222/3) = 0.180021, interval 7/12 ± 1.959964·0.180021.
func TestMatchJSON(t *testing.T) {
	code, stdout, stderr := runArgs("match", "--json", smallRecords)
	var m struct {
		A, B                string
		Wins, Draws, Losses int
		Pentanomial         [5]int
		Estimate            struct {
			Score     float64
			ScoreLow  float64 `json:"score_low"`
			ScoreHigh float64 `json:"score_high"`
			Elo       float64
		}
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &m) != nil {
		t.Fatalf("match: exit %d %s %s", code, stderr, stdout)
	}
	if m.A != "alpha" || m.B != "beta" || m.Wins != 4 || m.Draws != 1 || m.Losses != 2 || m.Pentanomial != [5]int{0, 1, 1, 0, 1} {
		t.Errorf("match %+v", m)
	}
	mean, half := 7.0/12, 1.959964*0.180021
	if e := m.Estimate; math.Abs(e.Score-mean) > 1e-9 || math.Abs(e.ScoreLow-(mean-half)) > 1e-5 || math.Abs(e.ScoreHigh-(mean+half)) > 1e-5 ||
		math.Abs(e.Elo+400*math.Log10(1/mean-1)) > 1e-6 {
		t.Errorf("estimate %+v; want score %.4f [%.4f, %.4f]", e, mean, mean-half, mean+half)
	}
	// Records of two matches mixed: game 7 has gamma where the first game had alpha or beta.
	if code, _, stderr := runArgs("match", smallRecords, handicapRecords); code != 1 || !oneLine(stderr) || !strings.Contains(stderr, "game 7") {
		t.Errorf("two matches: exit %d, stderr %q; want a one-line error naming game 7", code, stderr)
	}
}

// TestMatchReplays recounts a planted file in which a deterministic match's openings ran
// out: games 0-5 of small.jsonl, then the same six games again as games 6-11. By hand from
// analysis/testdata/README.md: the three distinct pairs give [0 1 1 0 1] and alpha 3 wins,
// 1 draw and 2 losses; the other six games (three pairs) are replays and count for nothing.
// With --sprt the test sees three pairs, so its LLR is that of [0 1 1 0 1].
func TestMatchReplays(t *testing.T) {
	data, err := os.ReadFile(smallRecords)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")[:6]
	var b strings.Builder
	for copy := range 2 {
		for _, line := range lines {
			var g map[string]any
			if err := json.Unmarshal([]byte(line), &g); err != nil {
				t.Fatal(err)
			}
			g["id"] = g["id"].(float64) + float64(6*copy)
			out, _ := json.Marshal(g)
			b.Write(append(out, '\n'))
		}
	}
	path := filepath.Join(t.TempDir(), "replayed.jsonl")
	os.WriteFile(path, []byte(b.String()), 0o644)
	code, stdout, stderr := runArgs("match", "--json", "--sprt", "elo0=0,elo1=10", path)
	var m struct {
		Games, Pairs        int
		Distinct            int `json:"distinct_games"`
		ReplayedGames       int `json:"replayed_games"`
		ReplayedPairs       int `json:"replayed_pairs"`
		Wins, Draws, Losses int
		Pentanomial         sprt.Pentanomial
		SPRT                struct {
			State string
			LLR   float64
			Pairs int
		}
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &m) != nil {
		t.Fatalf("match: exit %d %s %s", code, stderr, stdout)
	}
	if m.Games != 12 || m.Distinct != 6 || m.ReplayedGames != 6 || m.ReplayedPairs != 3 || m.Pairs != 3 ||
		m.Pentanomial != [5]int{0, 1, 1, 0, 1} || m.Wins != 3 || m.Draws != 1 || m.Losses != 2 {
		t.Errorf("recount %+v", m)
	}
	test, _ := sprt.Parse("elo0=0,elo1=10")
	if want := test.LLR(sprt.Pentanomial{0, 1, 1, 0, 1}); m.SPRT.Pairs != 3 || m.SPRT.State != "continue" || math.Abs(m.SPRT.LLR-want) > 1e-12 {
		t.Errorf("sprt %+v; want LLR %v after 3 pairs", m.SPRT, want)
	}
	code, stdout, _ = runArgs("match", path)
	if code != 0 || !strings.Contains(stdout, "6 games replayed earlier ones and were left out (3 pairs)") {
		t.Errorf("the table does not say what it left out: %s", stdout)
	}
}
