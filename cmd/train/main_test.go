package main

import (
	"bytes"
	"encoding/json"
	"github.com/shogilab/shogilab/engine/eval"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/engine/nnue"
)

// sample is the shipped sample of the training games (datasets/README.md): 100 games.
var sample = filepath.Join("..", "..", "datasets", "evaluation", "fsf5000-sample.jsonl.gz")

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
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"fit", sample}, 2, "-o FILE is required"},
		{[]string{"fit", "-o", "x.nnue"}, 2, "no record files"},
		{[]string{"fit", "-o", filepath.Join(t.TempDir(), "x.nnue"), "-lambda", "2", sample}, 2, "-lambda 2"},
		{[]string{"info", sample}, 1, "not an evaluation file"},
		{[]string{"info"}, 2, "want one evaluation file"},
	} {
		code, _, stderr := run(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("train %v: exit %d, stderr %q; want exit %d and one line with %q", c.args, code, stderr, c.code, c.want)
		}
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
