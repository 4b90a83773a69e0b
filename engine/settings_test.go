package engine

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestSettingDefaults: every entry's Default is the value the engine starts with, which
// comes from mcts.DefaultConfig and eval.DefaultConfig; setting it changes nothing.
func TestSettingDefaults(t *testing.T) {
	for _, s := range AllSettings() {
		got := DefaultSettings()
		if err := s.Set(&got, s.Default); err != nil {
			t.Errorf("%s: its default %q: %v", s.Name, s.Default, err)
			continue
		}
		if !reflect.DeepEqual(got, DefaultSettings()) {
			t.Errorf("%s: setting its default %q changes the default settings", s.Name, s.Default)
		}
		if !s.IsDefault(s.Default) {
			t.Errorf("%s: IsDefault(%q) is false", s.Name, s.Default)
		}
	}
	d := DefaultSettings()
	if d.Player.Search.MaxNodes != 256<<20/32 || d.MoveOverhead != 30*time.Millisecond || d.Rules != (minishogi.GameOptions{}) {
		t.Errorf("default settings %+v", d)
	}
}

// TestSettingsApply: a value other than the default changes the settings, and the field
// each setting names gets it.
func TestSettingsApply(t *testing.T) {
	for _, s := range AllSettings() {
		var other string
		switch s.Kind {
		case Int:
			other = strconv.FormatInt(s.Max, 10)
			if s.checkInt != nil {
				other = strconv.FormatInt(s.Min, 10) // the largest hash may not fit this machine
			}
		case Check:
			other = "true"
		case Float:
			other = "0.5"
			if s.IsDefault(other) {
				other = "0.25"
			}
		case Choice:
			other = s.Choices[0]
			if s.IsDefault(other) {
				other = s.Choices[1]
			}
		case Text:
			other = testEvalFile(t)
		}
		got := DefaultSettings()
		if err := s.Set(&got, other); err != nil {
			t.Errorf("%s=%s: %v", s.Name, other, err)
			continue
		}
		if reflect.DeepEqual(got, DefaultSettings()) {
			t.Errorf("%s=%s changes nothing", s.Name, other)
		}
	}
	st := DefaultSettings()
	for _, kv := range [][2]string{{"threads", "3"}, {"HASH", "64"}, {"Seed", "7"}, {"cpuct", "2.5"},
		{"FPUReduction", "0"}, {"VirtualLoss", "2"}, {"Twins", "OFF"}, {"MateDepth", "1"}, {"Noise", "0.25"},
		{"TemperaturePlies", "10"}, {"MoveOverhead", "5"}, {"Repetition", "draw"}, {"MaxPlies", "200"}, {"usi_ponder", "TRUE"}} {
		s, ok := FindSetting(kv[0])
		if !ok {
			t.Fatalf("no setting %q", kv[0])
		}
		if err := s.Set(&st, kv[1]); err != nil {
			t.Fatalf("%s=%s: %v", kv[0], kv[1], err)
		}
	}
	sc := st.Player.Search
	if sc.Threads != 3 || sc.MaxNodes != 64<<20/mcts.NodeBytes || sc.Seed != 7 || sc.CPuct != 2.5 || sc.FPUReduction != 0 ||
		sc.VirtualLoss != 2 || sc.Twins != mcts.TwinsOff || st.Player.Eval.MateDepth != 1 || sc.DirichletEpsilon != 0.25 ||
		sc.TemperaturePlies != 10 || st.MoveOverhead != 5*time.Millisecond || st.Rules.Repetition != minishogi.RepetitionDraws ||
		st.Rules.MaxPlies != 200 || !st.Ponder {
		t.Errorf("settings not applied: %+v", st)
	}
	if err := st.Player.Validate(); err != nil {
		t.Error(err)
	}
}

func TestSettingErrors(t *testing.T) {
	for _, c := range []struct{ name, value, want string }{
		{"Threads", "0", `engine: option Threads: "0" is not an integer from 1 to 256`},
		{"Threads", "two", `engine: option Threads: "two" is not an integer from 1 to 256`},
		{"Threads", "1024", `engine: option Threads: "1024" is not an integer from 1 to 256`}, // issue 33: isready took 1.4 s
		{"CPuct", "0", `engine: option CPuct: "0" is not a number above 0`},
		{"CPuct", "NaN", `engine: option CPuct: "NaN" is not a number above 0`},
		{"CPuct", "1e39", `engine: option CPuct: "1e39" is not a number above 0`},
		{"FPUReduction", "-0.1", `engine: option FPUReduction: "-0.1" is not a number of 0 or more`},
		{"Noise", "1.5", `engine: option Noise: "1.5" is not a number from 0 to 1`},
		{"MateDepth", "2", `engine: option MateDepth: "2" is not one of 0, 1, 3, 5, 7`},
		{"Repetition", "sometimes", `engine: option Repetition: "sometimes" is not one of first-mover-loses, gote-wins, draw`},
		{"USI_Ponder", "yes", `engine: option USI_Ponder: "yes" is not true or false`},
	} {
		t.Run(c.name+"="+c.value, func(t *testing.T) {
			s, _ := FindSetting(c.name)
			st := DefaultSettings()
			err := s.Set(&st, c.value)
			if err == nil || err.Error() != c.want {
				t.Errorf("%s=%s: error %v; want %s", c.name, c.value, err, c.want)
			}
			if !reflect.DeepEqual(st, DefaultSettings()) {
				t.Errorf("%s=%s: a refused value changed the settings", c.name, c.value)
			}
		})
	}
	// A file that is not an evaluation file is refused, naming the file, and the engine
	// keeps the evaluator it had.
	bad := filepath.Join(t.TempDir(), "bad.nnue")
	if err := os.WriteFile(bad, []byte("not a network"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := FindSetting("EvalFile")
	st := DefaultSettings()
	if err := s.Set(&st, testEvalFile(t)); err != nil {
		t.Fatal(err)
	}
	net := st.Player.Eval.Net
	err := s.Set(&st, bad)
	if want := "engine: option EvalFile: nnue: " + bad + ": not an evaluation file"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("EvalFile=%s: error %v; want %s...", bad, err, want)
	}
	if st.Player.Eval.Net != net {
		t.Error("a refused EvalFile changed the network")
	}
	if _, ok := FindSetting("Ponder"); ok {
		t.Error("found a setting Ponder")
	}
}

func TestSettingKeys(t *testing.T) {
	want := map[string]string{"Threads": "threads", "USI_Hash": "usi_hash", "Seed": "seed", "CPuct": "c_puct",
		"FPUReduction": "fpu_reduction", "VirtualLoss": "virtual_loss", "Twins": "twins", "MateDepth": "mate_depth",
		"Noise": "noise", "TemperaturePlies": "temperature_plies", "MoveOverhead": "move_overhead",
		"Repetition": "repetition", "MaxPlies": "max_plies"}
	seen := map[string]bool{}
	for _, s := range AllSettings() {
		if w, ok := want[s.Name]; ok && s.Key() != w {
			t.Errorf("%s: key %q, want %q", s.Name, s.Key(), w)
		}
		for _, name := range append([]string{s.Name}, s.Aliases...) {
			if seen[strings.ToLower(name)] {
				t.Errorf("two settings are called %q (names are matched without case)", name)
			}
			seen[strings.ToLower(name)] = true
		}
		if s.Doc == "" {
			t.Errorf("%s has no doc", s.Name)
		}
	}
}

func TestSettingRange(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		s    Setting
		want string
	}{
		{Setting{Kind: Int, Min: 1, Max: 8}, "an integer from 1 to 8"},
		{Setting{Kind: Float, Low: 0, High: 1}, "a number from 0 to 1"},
		{Setting{Kind: Float, Low: 0, High: inf}, "a number of 0 or more"},
		{Setting{Kind: Float, Low: 0, High: inf, OpenLow: true}, "a number above 0"},
		{Setting{Kind: Choice, Choices: []string{"a", "b"}}, "one of a, b"},
		{Setting{Kind: Text}, "a text"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := c.s.Range(); got != c.want {
				t.Errorf("%+v: %q, want %q", c.s, got, c.want)
			}
		})
	}
}

func TestPlayoutNodes(t *testing.T) {
	for _, c := range []struct {
		playouts int64
		want     int
	}{{1, 1 << 16}, {400, 1 << 16}, {1000, 128000}, {100000, 1 << 22}, {math.MaxInt64, 1 << 22}} {
		t.Run(fmt.Sprintf("playouts=%d", c.playouts), func(t *testing.T) {
			if got := PlayoutNodes(c.playouts); got != c.want {
				t.Errorf("PlayoutNodes(%d) = %d, want %d", c.playouts, got, c.want)
			}
		})
	}
}

// testEvalFile writes a small network (every weight zero but a few, which make the value
// differ from the hand-set one) and returns its path.
func testEvalFile(t *testing.T) string {
	t.Helper()
	m, err := nnue.NewModel(4, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.B1 {
		m.B1[i] = 0.5
	}
	m.W2[0], m.B2[1], m.W3[0], m.W3[1] = 1, 0.25, 0.5, -0.5
	net, err := nnue.Quantise(m, nnue.Header{Data: "test"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.nnue")
	data, err := net.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBuiltinEval: the default evaluation is the shipped network, the same as reading its
// file (datasets/evaluation); EvalFile=handset turns it off, and builtin back on.
func TestBuiltinEval(t *testing.T) {
	want, err := nnue.ReadFile(shippedNet)
	if err != nil {
		t.Fatal(err)
	}
	st := DefaultSettings()
	if !reflect.DeepEqual(st.Player.Eval.Net, want) {
		t.Fatalf("the default network is not %s", shippedNet)
	}
	s, _ := FindSetting("EvalFile")
	if err := s.Set(&st, HandSetEval); err != nil || st.Player.Eval.Net != nil {
		t.Fatalf("EvalFile=%s: network %v, error %v; want none", HandSetEval, st.Player.Eval.Net != nil, err)
	}
	for _, v := range []string{BuiltinEval, "<empty>"} {
		t.Run(v, func(t *testing.T) {
			st.Player.Eval.Net = nil
			if err := s.Set(&st, v); err != nil || st.Player.Eval.Net != BuiltinNet() {
				t.Errorf("EvalFile=%s: error %v, or not the built-in network", v, err)
			}
		})
	}
}

// TestEvalFileLinear: a linear evaluation file (train linear) replaces the weights and
// turns the network off; handset and builtin restore the default weights.
func TestEvalFileLinear(t *testing.T) {
	w := eval.DefaultWeights()
	w.Board[minishogi.Pawn], w.PriorCheck = 123, 1.75
	path := filepath.Join(t.TempDir(), "fit.lin")
	data, err := eval.MarshalWeights(w, eval.FileHeader{Data: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := FindSetting("EvalFile")
	st := DefaultSettings()
	if err := s.Set(&st, path); err != nil || st.Player.Eval.Net != nil || st.Player.Eval.Weights != w {
		t.Fatalf("EvalFile=%s: error %v, network %v, weights %+v", path, err, st.Player.Eval.Net != nil, st.Player.Eval.Weights)
	}
	for _, v := range []string{HandSetEval, BuiltinEval} {
		t.Run(v, func(t *testing.T) {
			if err := s.Set(&st, v); err != nil || st.Player.Eval.Weights != eval.DefaultWeights() {
				t.Errorf("EvalFile=%s after a linear file: error %v, weights not the defaults", v, err)
			}
		})
	}
}
