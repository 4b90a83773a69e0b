package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/usi"
)

func TestSetOption(t *testing.T) {
	e := New()
	for _, ok := range [][2]string{{"Threads", "2"}, {"usi_hash", "8"}, {"Hash", "8"}, {"Seed", "99"},
		{"CPuct", "2.5"}, {"FPUReduction", "0"}, {"MateDepth", "1"}, {"MoveOverhead", "0"},
		{"Repetition", "draw"}, {"MaxPlies", "200"}, {"Twins", "on"}} {
		if err := e.SetOption(ok[0], ok[1]); err != nil {
			t.Errorf("%s=%s: %v", ok[0], ok[1], err)
		}
	}
	if e.set.Player.Search.Threads != 2 || e.set.Player.Search.Seed != 99 || e.set.Player.Search.CPuct != 2.5 || e.set.Player.Eval.MateDepth != 1 || e.set.Rules.MaxPlies != 200 || e.set.Player.Search.Twins != mcts.TwinsOn {
		t.Errorf("options not applied: %+v %+v", e.set.Player, e.set.Rules)
	}
	for _, bad := range [][2]string{{"Threads", "0"}, {"Threads", "x"}, {"CPuct", "-1"}, {"CPuct", "NaN"},
		{"MateDepth", "2"}, {"Repetition", "sometimes"}, {"Ponder", "true"}, {"Twins", "yes"}} {
		if err := e.SetOption(bad[0], bad[1]); err == nil || !strings.HasPrefix(err.Error(), "engine: ") && !strings.HasPrefix(err.Error(), "minishogi: ") && !strings.HasPrefix(err.Error(), "mcts: ") {
			t.Errorf("%s=%s: error %v", bad[0], bad[1], err)
		}
	}
}

func TestGoInfoLines(t *testing.T) {
	e := New()
	e.SetOption("USI_Hash", "8")
	if err := e.SetPosition("", []string{"2e3d"}); err != nil {
		t.Fatal(err)
	}
	var lines []string
	best, err := e.Go(context.Background(), usi.GoParams{Nodes: 2000}, func(in usi.SearchInfo) { lines = append(lines, in.Format()) })
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 {
		t.Fatal("no info line")
	}
	last := lines[len(lines)-1]
	for _, field := range []string{"depth ", "seldepth ", "nodes 2000 ", "nps ", "score cp ", " pv " + best.Move} {
		if !strings.Contains(last, field) {
			t.Errorf("info %q lacks %q", last, field)
		}
	}
}

// FuzzSetOption: any name and value either fail with an error or leave a configuration
// that a player accepts; nothing panics.
func FuzzSetOption(f *testing.F) {
	for _, o := range New().Options() {
		f.Add(o.Name, o.Default)
	}
	f.Add("CPuct", "1e39")
	f.Add("Threads", "-1")
	f.Fuzz(func(t *testing.T, name, value string) {
		e := New()
		if err := e.SetOption(name, value); err != nil {
			return
		}
		if err := e.set.Player.Validate(); err != nil {
			t.Errorf("%s=%q accepted but the config is invalid: %v", name, value, err)
		}
	})
}
