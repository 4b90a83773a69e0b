package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = program.Run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// oneLine reports whether s is a single line ending in a newline.
func oneLine(s string) bool { return strings.Count(s, "\n") == 1 && strings.HasSuffix(s, "\n") }

func TestDispatcher(t *testing.T) {
	if code, _, stderr := runArgs(); code != 2 || !oneLine(stderr) || !strings.HasPrefix(stderr, "analyze: no subcommand") {
		t.Errorf("no args: %d %q", code, stderr)
	}
	if code, _, stderr := runArgs("chess"); code != 2 || !oneLine(stderr) || !strings.Contains(stderr, `unknown subcommand "chess"`) {
		t.Errorf("unknown: %d %q", code, stderr)
	}
	if code, stdout, _ := runArgs("-h"); code != 0 || !strings.Contains(stdout, "mawari") {
		t.Errorf("-h: %d %q", code, stdout)
	}
	code, stdout, _ := runArgs("mawari", "-h")
	if code != 0 {
		t.Errorf("mawari -h exit %d", code)
	}
	for _, want := range []string{"standard", "lap", "jump", "gold", "generous", "table", "-probs", "-all-backs", "-spoil-effect", "-corner-jump", "-gold-step", "-promotion", "-point"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("mawari -h does not mention %q", want)
		}
	}
	if code, stdout, _ := runArgs("mawari", "fit", "-h"); code != 0 || !strings.Contains(stdout, "outcome,count") {
		t.Errorf("mawari fit -h: %d %q", code, stdout)
	}
}

func TestMawariBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--probs", "0.5,0.4,0,0,0"}, "analyze mawari: probabilities sum to 0.9; want 1"},
		{[]string{"--probs", "1.2,-0.2,0,0,0"}, "analyze mawari: probability of face is -0.2"},
		{[]string{"--probs", "0.5,0.5"}, "have 2 fields"},
		{[]string{"--preset", "chess"}, `analyze mawari: unknown preset "chess"`},
		{[]string{"--all-backs", "9"}, `--all-backs "9"; want 8, 20 or jump`},
		{[]string{"--point", "25"}, "--point 25; want 20, 30, 50 or 100"},
		{[]string{"--promotion", "sideways"}, `unknown promotion rule "sideways"`},
		{[]string{"--spoil", "1"}, "spoil probability 1"},
		{[]string{"--spoil-effect", "forward"}, `--spoil-effect "forward"`},
		{[]string{"--players", "5"}, "5 players"},
		{[]string{"--games", "-1"}, "--games -1"},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		// A face once in a million throws: refused in seconds, not analysed for minutes.
		{[]string{"--probs", "0.999999,0.000001,0,0,0"}, "leave a player stuck too long"},
		// An output directory that cannot be made fails before the analysis.
		{[]string{"--out", "main.go/plots"}, "--out: output directory"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append([]string{"mawari", "--out", "", "--games", "0", "--throws", "0"}, tc.args...)
			start := time.Now()
			code, stdout, stderr := runArgs(args...)
			if code == 0 || !oneLine(stderr) || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Errorf("%v: exit %d, stderr %q, stdout %d bytes; want a one-line error containing %q", tc.args, code, stderr, len(stdout), tc.want)
			}
			if took := time.Since(start); took > time.Minute {
				t.Errorf("%v: the error took %v", tc.args, took)
			}
		})
	}
}

type mawariJSON struct {
	Preset              string             `json:"preset"`
	ProbabilitiesSource string             `json:"probabilities_source"`
	ThrowPMF            map[string]float64 `json:"throw_pmf"`
	MeanTurns           float64            `json:"mean_turns"`
	WinProbability      []float64          `json:"win_probability"`
	Simulation          struct {
		Games        int       `json:"games"`
		WinFrequency []float64 `json:"win_frequency"`
		MeanTurns    float64   `json:"mean_turns"`
		MeanTurnsSE  float64   `json:"mean_turns_stderr"`
	} `json:"simulation"`
	Presets []struct {
		Name string `json:"name"`
	} `json:"presets"`
	Plots []string `json:"plots"`
}

func runJSON(t *testing.T, args ...string) mawariJSON {
	t.Helper()
	code, stdout, stderr := runArgs(append([]string{"mawari", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var got mawariJSON
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v: output is not JSON: %v", args, err)
	}
	if dec.More() {
		t.Fatalf("%v: more than one JSON object", args)
	}
	return got
}

func TestMawariJSONDefaults(t *testing.T) {
	dir := t.TempDir()
	got := runJSON(t, "--games", "2000", "--throws", "20000", "--seed", "7", "--out", dir)
	if got.Preset != "standard" || got.ProbabilitiesSource != "estimate (docs/rules.md defaults)" {
		t.Errorf("preset %q, source %q", got.Preset, got.ProbabilitiesSource)
	}
	sum := 0.0
	for _, p := range got.ThrowPMF {
		sum += p
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("throw_pmf sums to %v", sum)
	}
	// Four backs score 8 and one side with three faces does too: 0.45^4 + 4·0.085·0.45^3.
	if want := math.Pow(0.45, 4) + 4*0.085*math.Pow(0.45, 3); math.Abs(got.ThrowPMF["8"]-want) > 1e-12 {
		t.Errorf("P(8) = %v; want %v", got.ThrowPMF["8"], want)
	}
	// Seven corner stops, one per eight turns on average (see mawaristats' renewal test).
	if math.Abs(got.MeanTurns-56) > 1e-9 {
		t.Errorf("mean_turns %v; want 56", got.MeanTurns)
	}
	if len(got.WinProbability) != 2 || math.Abs(got.WinProbability[0]+got.WinProbability[1]-1) > 1e-10 || got.WinProbability[0] <= 0.5 {
		t.Errorf("win_probability %v", got.WinProbability)
	}
	if got.Simulation.Games != 2000 || math.Abs(got.Simulation.MeanTurns-56) > 5*got.Simulation.MeanTurnsSE {
		t.Errorf("simulation %+v", got.Simulation)
	}
	if len(got.Presets) != 6 {
		t.Errorf("%d presets compared; want 6", len(got.Presets))
	}
	names := []string{"throw_score", "game_length", "game_length_cdf", "sensitivity_length", "sensitivity_advantage"}
	if len(got.Plots) != len(names) {
		t.Errorf("plots %v", got.Plots)
	}
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			if i < len(got.Plots) && got.Plots[i] != filepath.Join(dir, "mawari_"+name+".pdf") {
				t.Errorf("plot %d is %s; want mawari_%s.pdf (a paper's PDF by default)", i, got.Plots[i], name)
			}
		})
	}
	captions, err := os.ReadFile(filepath.Join(dir, "captions.md"))
	if err != nil || !strings.Contains(string(captions), "**Figure mawari_game_length.** Round in which a game of Mawari shogi ends, two players") ||
		!strings.Contains(string(captions), "2,000 games of the standard rules simulated from seeds 7..") {
		t.Errorf("captions.md (%v):\n%s", err, captions)
	}
}

// checkFigure checks that a figure was written both ways: stem.png decodes as a PNG and
// stem.svg is an SVG document.
func checkFigure(t *testing.T, stem string) {
	t.Helper()
	f, err := os.Open(stem + ".png")
	if err != nil {
		t.Error(err)
	} else {
		if _, err := png.DecodeConfig(f); err != nil {
			t.Errorf("%s.png: %v", stem, err)
		}
		f.Close()
	}
	svg, err := os.ReadFile(stem + ".svg")
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("%s.svg: not an SVG document (%v)", stem, err)
	}
}

// Every piece face up: each throw scores 4, a player needs 14 turns and the first always
// wins.
func TestMawariJSONDegenerate(t *testing.T) {
	got := runJSON(t, "--probs", "0,1,0,0,0", "--games", "10", "--throws", "10", "--out", "")
	if got.ProbabilitiesSource != "given with --probs" || len(got.ThrowPMF) != 1 || got.ThrowPMF["4"] != 1 {
		t.Errorf("source %q, throw_pmf %v", got.ProbabilitiesSource, got.ThrowPMF)
	}
	if got.MeanTurns != 14 || got.WinProbability[0] != 1 || got.WinProbability[1] != 0 {
		t.Errorf("mean_turns %v, win_probability %v; want 14 and [1 0]", got.MeanTurns, got.WinProbability)
	}
	if got.Simulation.WinFrequency[0] != 1 {
		t.Errorf("simulated win frequency %v", got.Simulation.WinFrequency)
	}
}

func TestMawariOptionFlags(t *testing.T) {
	// The gold step adds an eighth corner stop: 64 turns.
	if got := runJSON(t, "--gold-step", "--games", "0", "--throws", "0", "--out", ""); math.Abs(got.MeanTurns-64) > 1e-9 {
		t.Errorf("--gold-step: mean_turns %v; want 64", got.MeanTurns)
	}
	// Spoiled throws that do not move: 56/(1-0.2) = 70.
	if got := runJSON(t, "--spoil", "0.2", "--games", "0", "--throws", "0", "--out", ""); math.Abs(got.MeanTurns-70) > 1e-9 {
		t.Errorf("--spoil 0.2: mean_turns %v; want 70", got.MeanTurns)
	}
	// Four backs always, jumping: a jump to the next corner every throw, 7 turns.
	got := runJSON(t, "--probs", "1,0,0,0,0", "--all-backs", "jump", "--players", "3", "--games", "0", "--throws", "0", "--out", "")
	if got.MeanTurns != 7 || len(got.WinProbability) != 3 || got.ThrowPMF["jump"] != 1 {
		t.Errorf("--all-backs jump: %v, %v, %v", got.MeanTurns, got.WinProbability, got.ThrowPMF)
	}
}

func TestMawariTables(t *testing.T) {
	code, stdout, stderr := runArgs("mawari", "--games", "500", "--throws", "1000", "--out", "")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"estimate (docs/rules.md defaults)", "Throw score", "56.000000", "first player's advantage", "Presets", "Sensitivity", "throws/s"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("tables lack %q", want)
		}
	}
	// Not a terminal: plain progress lines, ending with the total.
	if !strings.Contains(stderr, "simulating games: 500/500") {
		t.Errorf("progress %q", stderr)
	}
}

func TestMawariFit(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "counts.csv")
	if err := os.WriteFile(good, []byte("outcome,count\nback,90\nface,88\nside,17\nupright,4\npoint,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs("mawari", "fit", "--json", good)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Estimates map[string]struct{ P, Lower, Upper float64 }
		Probs     string
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Probs != "0.45,0.44,0.085,0.02,0.005" || got.Estimates["side"].P != 0.085 || !(got.Estimates["side"].Lower < 0.085 && got.Estimates["side"].Upper > 0.085) {
		t.Errorf("fit %+v", got)
	}
	if code, stdout, _ := runArgs("mawari", "fit", good); code != 0 || !strings.Contains(stdout, "--probs 0.45,0.44,0.085,0.02,0.005") {
		t.Errorf("table: %d %q", code, stdout)
	}

	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("outcome,count\nback,ninety\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{bad}, "bad.csv line 2: count \"ninety\" is not a non-negative integer"},
		{[]string{filepath.Join(dir, "missing.csv")}, "no such file"},
		{nil, "want one counts file, got 0 arguments"},
		{[]string{"--level", "2", good}, "confidence level 2"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := runArgs(append([]string{"mawari", "fit"}, tc.args...)...)
			if code == 0 || !oneLine(stderr) || !strings.Contains(stderr, tc.want) {
				t.Errorf("fit %v: exit %d, %q; want a one-line error containing %q", tc.args, code, stderr, tc.want)
			}
		})
	}
}
