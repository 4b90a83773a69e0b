package datasets_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/train/loop"
)

// TestLoopTable checks the README's table of the shipped loop run against the run's
// loop.jsonl, line by line: held-out losses, the gate's W–D–L, LLR and verdict, and the
// best's Elo against the anchor with its interval, to the table's rounding. It also checks
// that each verdict follows the gate rule the README states (promoted on H1, or at the
// bound with a positive LLR), from the gate's own numbers.
func TestLoopTable(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n### The learning loop\n")
	if !ok {
		t.Fatal("README.md has no section The learning loop")
	}
	section, _, _ = strings.Cut(section, "\n#")
	gens, err := loop.ReadLog(filepath.Join("loop", "run1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(gens) != 6 || gens[0].N != 0 || gens[0].Result != "initial" {
		t.Fatalf("loop/run1: %d generations; want generation 0 and 5 more", len(gens))
	}
	var rows int
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 8 {
			continue
		}
		cell := func(i int) string { return strings.ReplaceAll(strings.TrimSpace(cells[i]), "−", "-") }
		var n int
		if _, err := fmt.Sscanf(cell(1), "%d", &n); err != nil {
			continue // the header and its rule
		}
		rows++
		if n < 1 || n >= len(gens) {
			t.Fatalf("README loop row %d: no such generation in loop.jsonl", n)
		}
		g := gens[n]
		want := fmt.Sprintf("%.3f → %.3f", float64(g.StartHeldLoss), float64(g.HeldLoss))
		if got := cell(2); got != want {
			t.Errorf("generation %d: README losses %q; loop.jsonl says %q", n, got, want)
		}
		want = fmt.Sprintf("%d–%d–%d", g.Gate.Wins, g.Gate.Draws, g.Gate.Losses)
		if got := cell(3); got != want {
			t.Errorf("generation %d: README gate %q; loop.jsonl says %q", n, got, want)
		}
		want = fmt.Sprintf("%+.2f", float64(g.Gate.LLR))
		if got := cell(4); got != want {
			t.Errorf("generation %d: README LLR %q; loop.jsonl says %q", n, got, want)
		}
		if got := cell(5); got != g.Result {
			t.Errorf("generation %d: README verdict %q; loop.jsonl says %q", n, got, g.Result)
		}
		bound := g.Gate.Games >= 200 // the run's -gate-games
		rule := g.Gate.State == "H1" || (g.Gate.State == "continue" && bound && g.Gate.LLR > 0)
		if (g.Result == "promoted") != rule {
			t.Errorf("generation %d: %s with gate %s, LLR %.2f after %d games; the README's rule says otherwise",
				n, g.Result, g.Gate.State, float64(g.Gate.LLR), g.Gate.Games)
		}
		if g.Anchor.Exact {
			if got := cell(6); got != "(the anchor itself)" {
				t.Errorf("generation %d: README anchor %q; loop.jsonl says the best is the anchor", n, got)
			}
			continue
		}
		want = fmt.Sprintf("%+.0f [%+.0f, %+.0f]", math.Round(float64(g.Anchor.Elo)), math.Round(float64(g.Anchor.Low)), math.Round(float64(g.Anchor.High)))
		if got := cell(6); got != want {
			t.Errorf("generation %d: README anchor %q; loop.jsonl says %q", n, got, want)
		}
	}
	if rows != len(gens)-1 {
		t.Errorf("README loop table has %d rows; loop.jsonl has %d generations after the initial one", rows, len(gens)-1)
	}
}

// TestLinearFile reads the shipped linear evaluation file and checks its header against
// what datasets/README.md says of it: the fit's command and the digest of its games.
func TestLinearFile(t *testing.T) {
	w, h, err := eval.ReadWeightsFile(filepath.Join("evaluation", "selfplay1000-linear.lin"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{h.Command, "sha256 6957630626ef815e"} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README.md does not say %q, from the file's header", want)
		}
	}
	if !strings.Contains(h.Data, "sha256 6957630626ef815e") {
		t.Errorf("the file's data digest is %q; README.md says sha256 6957630626ef815e", h.Data)
	}
	if w == eval.DefaultWeights() {
		t.Error("the fitted weights are the hand-set ones")
	}
}
