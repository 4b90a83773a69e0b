package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/engine/nnue"
)

// sample is the shipped sample of the training games (datasets/README.md): 100 games.
var sample = filepath.Join("..", "..", "datasets", "evaluation", "fsf5000-sample.jsonl.gz")

// balanced is the shipped openings file.
var balanced = filepath.Join("..", "..", "datasets", "openings", "balanced.sfen")

func run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := program.Run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestFitAndInfo fits a tiny network to the sample and reads the file back.
func TestFitAndInfo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tiny.nnue")
	code, out, stderr := run("fit", "-o", file, "-hidden1", "4", "-hidden2", "2", "-epochs", "2", "-json", sample)
	if code != 0 {
		t.Fatalf("train fit: exit %d: %s", code, stderr)
	}
	var s fitSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	if s.Games != 100 || s.Train == 0 || s.Held == 0 || len(s.Epochs) == 0 || s.Bytes < 2*nnue.NumFeatures*4 {
		t.Errorf("summary %+v", s)
	}
	checkSnakeCase(t, out)
	if !strings.Contains(stderr, "epoch 1: train loss") {
		t.Errorf("no epoch line on stderr: %q", stderr)
	}
	net, err := nnue.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if h1, h2 := net.Sizes(); h1 != 4 || h2 != 2 || !strings.Contains(net.Header.Data, "100 games") || !strings.HasPrefix(net.Header.Command, "train fit -o ") {
		t.Errorf("header %+v", net.Header)
	}
	code, out, stderr = run("info", file)
	if code != 0 || !strings.Contains(out, "halfkp-5x5") || !strings.Contains(out, "4×2") {
		t.Errorf("train info: exit %d, %q %q", code, out, stderr)
	}
	code, out, stderr = run("info", "-json", file)
	var h headerJSON
	if err := json.Unmarshal([]byte(out), &h); code != 0 || err != nil || h.FeatureSet != "halfkp-5x5" || h.Hidden1 != 4 || h.File != file {
		t.Errorf("train info -json: exit %d, %v, %q %q", code, err, out, stderr)
	}
	checkSnakeCase(t, out)
}

// checkSnakeCase fails the test unless every key of the JSON object text, at any depth, is
// snake_case, as docs/architecture.md#commands promises.
func checkSnakeCase(t *testing.T, text string) {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !snakeCase.MatchString(k) {
					t.Errorf("JSON key %q is not snake_case", k)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"fit", sample}, 2, "-o FILE is required"},
		{[]string{"fit", "-o", "x.nnue"}, 2, "no record files"},
		{[]string{"fit", "-o", filepath.Join(t.TempDir(), "x.nnue"), "-lambda", "2", sample}, 2, "-lambda 2"},
		{[]string{"fit", "-o", filepath.Join(t.TempDir(), "x.nnue"), "-batch", "0", sample}, 2, "netfit: batch 0: need 1 or more"}, // issue 33: printed the options struct, exit 1
		{[]string{"fit", "-o", filepath.Join(t.TempDir(), "x.nnue"), "-lr", "0", sample}, 2, "netfit: learning rate 0: need a positive number"},
		{[]string{"info", sample}, 1, "not an evaluation file"},
		{[]string{"info", "/dev/zero"}, 1, "/dev/zero: not a regular file"}, // issue 33: was read whole
		{[]string{"info"}, 2, "want one evaluation file"},
		{[]string{"loop"}, 2, "want one run directory"},
		{[]string{"loop", "-sprt", "elo0=5,elo1=0", t.TempDir()}, 2, "-sprt"},
		{[]string{"loop", "-openings", "missing.sfen", t.TempDir()}, 2, "-openings missing.sfen"},
		{[]string{"loop", "-openings", balanced, "-games", "0", t.TempDir()}, 1, "games 0"},
		{[]string{"loop", "-openings", balanced, "-ladder", filepath.Join("..", "..", "datasets", "ladder", "ladder.json"), "-anchors", "fsf-1k,nobody", t.TempDir()}, 1, "nobody is not an anchor"},
		{[]string{"loop", "-openings", balanced, "-cap-fast", "300", t.TempDir()}, 1, "playout cap of 300 fast playouts"},
		{[]string{"curve", t.TempDir()}, 1, "provenance.json"},
		{[]string{"curve", "-reference", "built-in", t.TempDir()}, 2, `"built-in": want LABEL=ELO`},
		{[]string{"curve", "-reference", "built-in=strong", t.TempDir()}, 2, `the Elo "strong" is not a finite number`},
		{[]string{"curve", "-reference", "=369", t.TempDir()}, 2, "want LABEL=ELO"},
	} {
		t.Run(c.want, func(t *testing.T) {
			code, _, stderr := run(c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("train %v: exit %d, stderr %q; want exit %d and one line with %q", c.args, code, stderr, c.code, c.want)
			}
		})
	}
}

// TestLinear fits the hand-set weights to the sample: the fit lowers the training loss.
func TestLinear(t *testing.T) {
	code, out, stderr := run("linear", sample)
	if code != 0 {
		t.Fatalf("train linear: exit %d: %s", code, stderr)
	}
	var s linearSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if !(s.Result.TrainAfter < s.Result.TrainBefore) || s.Weights.ValueScale != 700 {
		t.Errorf("summary %+v", s)
	}
	checkSnakeCase(t, out)
}

// TestLinearPriorsFile fits the value and the prior weights to the shipped self-play
// games (their records keep the visits of the most visited moves), writes them to a
// linear evaluation file, and reads back what the summary printed. The fit starts from
// the weights that played those games, so it can only lower the training cross-entropy.
func TestLinearPriorsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fit.lin")
	code, out, stderr := run("linear", "-o", path, "../../datasets/selfplay/mcts400/games-0-of-1.jsonl.gz")
	if code != 0 {
		t.Fatalf("train linear: exit %d: %s", code, stderr)
	}
	var s linearSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if s.Priors == nil || !(s.Priors.TrainAfter < s.Priors.TrainBefore) || s.Priors.Train == 0 {
		t.Fatalf("prior fit %+v", s.Priors)
	}
	w, h, err := eval.ReadWeightsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if w != s.Weights || !strings.HasPrefix(h.Command, "train linear -o ") || !strings.Contains(h.Data, "priors:") {
		t.Errorf("file holds %+v, header %+v; the summary said %+v", w, h, s.Weights)
	}
}

// TestLoopAndCurve is the CI mini-loop through the command: two generations from zero
// (the hand-set evaluation, a network of 4×2 with a policy head of 2 fitted from random
// weights), four self-play games a generation with a Gumbel root and the playout cap, each
// network rated by one game pair against each of two anchors of a ladder written here,
// and the learning curve drawn from the run's logs.
func TestLoopAndCurve(t *testing.T) {
	dir := t.TempDir()
	lad := tinyLadder(t, dir)
	runDir := filepath.Join(dir, "run")
	args := []string{"loop", "-initial", "handset", "-hidden1", "4", "-hidden2", "2", "-policy", "2", "-openings", balanced,
		"-generations", "2", "-games", "4", "-playouts", "16", "-gumbel-moves", "4", "-cap-fast", "4", "-cap-prob", "0.5",
		"-ladder", lad, "-anchors", "hand-8,random", "-rate-games", "2", "-rate-playouts", "16", "-max-plies", "40", "-epochs", "1", "-json", runDir}
	code, out, stderr := run(args...)
	if code != 0 {
		t.Fatalf("train loop: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("train loop -json printed %d lines, want 3 (generations 0 to 2): %q", len(lines), out)
	}
	var g struct {
		Generation int    `json:"generation"`
		Games      int    `json:"games"`
		Positions  int    `json:"positions"`
		Targets    int    `json:"targets"`
		Policy     int    `json:"policy_examples"`
		Result     string `json:"result"`
		Rating     *struct {
			Games int `json:"games"`
		} `json:"rating"`
	}
	if err := json.Unmarshal([]byte(lines[2]), &g); err != nil || g.Generation != 2 || g.Games != 4 || g.Result != "promoted" ||
		!(g.Targets > 0 && g.Targets < g.Positions) || g.Policy == 0 || g.Rating == nil || g.Rating.Games != 4 {
		t.Errorf("generation 2's line %q (%v)", lines[2], err)
	}
	var prov struct {
		Config struct {
			SelfPlay map[string]any `json:"selfplay"`
		} `json:"config"`
	}
	b, _ := os.ReadFile(filepath.Join(runDir, "provenance.json"))
	if err := json.Unmarshal(b, &prov); err != nil || prov.Config.SelfPlay["gumbel_moves"] != 4.0 || prov.Config.SelfPlay["cap_fast"] != 4.0 {
		t.Errorf("provenance's self-play %v (%v)", prov.Config.SelfPlay, err)
	}
	// Run again: nothing to do, nothing printed.
	if code, out, stderr := run(args...); code != 0 || out != "" {
		t.Errorf("train loop again: exit %d, %q, %s", code, out, stderr)
	}
	code, out, stderr = run("curve", "-format", "svg", "-reference", "the built-in network=369", runDir)
	if code != 0 || !strings.Contains(out, "generation 2: Elo") || !strings.Contains(out, "after 8 self-play games") {
		t.Fatalf("train curve: exit %d, %q, %s", code, out, stderr)
	}
	for _, f := range []string{"learning-curve-cpu.svg", "learning-curve-games.svg"} {
		svg, err := os.ReadFile(filepath.Join(runDir, f))
		if err != nil {
			t.Error(err)
		} else if !bytes.Contains(svg, []byte("the built-in network")) {
			t.Errorf("%s has no legend entry for the --reference line", f)
		}
	}
}

// TestFitBothHeads: the sample's games are Fairy-Stockfish against itself (player kind
// usi), so every position has a policy target, the move played; a fit from the built-in
// network with -policy-only keeps its value network as it is (the held-out value loss of
// the start and of the result agree) and gives it a policy head that info shows.
func TestFitBothHeads(t *testing.T) {
	file := filepath.Join(t.TempDir(), "policy.nnue")
	code, out, stderr := run("fit", "-o", file, "-init", filepath.Join("..", "..", "datasets", "evaluation", "fsf5000-64x16.nnue"), "-policy", "4", "-policy-only", "-epochs", "2", "-json", sample)
	if code != 0 {
		t.Fatalf("train fit: exit %d: %s", code, stderr)
	}
	var s fitSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	if s.Policy != 4 || s.Hidden1 != 64 || s.Labelled != s.Train || s.InitHeld == nil ||
		s.HeldMetrics.Value != s.InitHeld.Value || s.HeldMetrics.Labelled != s.Held ||
		!(s.HeldMetrics.Top1 > 0 && s.HeldMetrics.Top1 <= s.HeldMetrics.Top3 && s.HeldMetrics.Top3 <= 1) {
		t.Errorf("summary %+v, held %+v, start %+v", s, s.HeldMetrics, s.InitHeld)
	}
	checkSnakeCase(t, out)
	code, out, stderr = run("info", file)
	if code != 0 || !strings.Contains(out, "policy:      64×2 → 4, move features moves-5x5") {
		t.Errorf("train info: exit %d, %q %q", code, out, stderr)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"policy-only without init", []string{"fit", "-o", file, "-policy-only", sample}},
		{"init of another size", []string{"fit", "-o", file, "-init", "builtin", "-hidden1", "8", sample}},
		{"negative policy", []string{"fit", "-o", file, "-policy", "-1", sample}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if code, _, stderr := run(c.args...); code != 2 {
				t.Errorf("exit %d, %q; want 2", code, stderr)
			}
		})
	}
}

// TestFitPolicySize: from a file with a policy head of 8 units, -policy-only keeps that size
// unless -policy asks for another, which is drawn afresh (the value network still kept as
// it is); train info shows the size asked for.
func TestFitPolicySize(t *testing.T) {
	start := filepath.Join("..", "..", "datasets", "evaluation", "zero40-64x16-p8.nnue")
	for _, c := range []struct {
		name  string
		flags []string
		want  int
	}{
		{"the file's size", nil, 8},
		{"the same size asked for", []string{"-policy", "8"}, 8},
		{"a larger head", []string{"-policy", "12"}, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "policy.nnue")
			args := append([]string{"fit", "-o", file, "-init", start, "-policy-only", "-epochs", "1", "-json"}, c.flags...)
			code, out, stderr := run(append(args, sample)...)
			if code != 0 {
				t.Fatalf("train fit: exit %d: %s", code, stderr)
			}
			var s fitSummary
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatalf("summary %q: %v", out, err)
			}
			if s.Policy != c.want || s.InitHeld == nil || s.HeldMetrics.Value != s.InitHeld.Value {
				t.Errorf("policy %d, held value %v, start %+v; want policy %d and the start's value", s.Policy, s.HeldMetrics.Value, s.InitHeld, c.want)
			}
			code, out, stderr = run("info", file)
			if want := fmt.Sprintf("policy:      64×2 → %d, ", c.want); code != 0 || !strings.Contains(out, want) {
				t.Errorf("train info: exit %d, %q %q; want %q", code, out, stderr, want)
			}
		})
	}
}

// tinyLadder writes a ladder of two anchors for the loop's tests into dir: the hand-set
// evaluation at 8 playouts (Elo 0) and uniformly random moves (Elo -600).
func tinyLadder(t *testing.T, dir string) string {
	t.Helper()
	lad := filepath.Join(dir, "ladder.json")
	if err := os.WriteFile(lad, []byte(`{"zero":"hand-8","draw_parameter":0.5,"anchors":[
{"name":"hand-8","spec":"mcts:EvalFile=handset,playouts=8,Threads=1","elo":0},
{"name":"random","spec":"random","elo":-600}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return lad
}

// buildTrain builds this command into dir for the Slurm tests' jobs, and returns its path.
func buildTrain(t *testing.T, dir string) string {
	t.Helper()
	binary := filepath.Join(dir, "train")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return binary
}
