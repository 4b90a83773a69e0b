package mawaristats

import (
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/mawari"
)

// TestCaptions: with every piece landing face up each throw scores 4, so the mean score is
// 4 and the only score 4, with probability 1; a player needs 14 turns (seven corners two
// throws apart), so the first player wins in round 14 and no simulation is mentioned when
// none was run. The standard rules are named as the standard preset's, and rules that are
// no preset's as the chosen ones.
func TestCaptions(t *testing.T) {
	p := mawari.Probabilities{0, 1, 0, 0, 0}
	r := preset(t, "standard")
	a, err := Analyze(r, p)
	if err != nil {
		t.Fatal(err)
	}
	presets, err := ComparePresets(mawari.Presets(), r.Players, p)
	if err != nil {
		t.Fatal(err)
	}
	sens, err := ProbabilitySensitivity(r, mawari.DefaultProbabilities(), DefaultScales)
	if err != nil {
		t.Fatal(err)
	}
	c := Study{Exact: a, Presets: presets, Sensitivity: sens, Scales: DefaultScales, Probabilities: "every piece face up"}.Captions()
	for _, want := range []string{"under the standard rules of Mawari shogi, every piece face up: exact probabilities (bars,",
		"Mean score 4.000 squares; the most likely score is 4, with probability 1.0000."} {
		if !strings.Contains(c.ThrowScore, want) {
			t.Errorf("throw caption lacks %q:\n%s", want, c.ThrowScore)
		}
	}
	if !strings.Contains(c.GameLength, "standard 14.00") || strings.Contains(c.GameLength, "simulated") {
		t.Errorf("length caption:\n%s", c.GameLength)
	}
	if !strings.Contains(c.SensitivityLength, "scaled in turn by 0 to 2 times its base value (marks at each step of 0.25)") {
		t.Errorf("sensitivity caption:\n%s", c.SensitivityLength)
	}
	r.Players = 3
	a, err = Analyze(r, p)
	if err != nil {
		t.Fatal(err)
	}
	c = Study{Exact: a, Presets: presets, Probabilities: "every piece face up"}.Captions()
	if !strings.Contains(c.ThrowScore, "under the chosen rules") || !strings.Contains(c.GameLength, "3 players") {
		t.Errorf("three players: %s\n%s", c.ThrowScore, c.GameLength)
	}
}
