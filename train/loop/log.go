package loop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/shogilab/shogilab/analysis/ladder"
	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/engine/nnue"
)

// Generation is one line of loop.jsonl.
type Generation struct {
	N    int    `json:"generation"`
	Best string `json:"best"` // the network that played the generation's self-play
	// Self-play and fit (none in generation 0).
	Games     int `json:"games,omitempty"`
	Positions int `json:"positions,omitempty"` // of this generation's games
	// Targets is the positions of this generation's games whose move was a full search,
	// a policy target (all of them without the playout cap).
	Targets         int `json:"targets,omitempty"`
	WindowGames     int `json:"window_games,omitempty"`
	WindowPositions int `json:"window_positions,omitempty"`
	TrainExamples   int `json:"train_examples,omitempty"`
	HeldExamples    int `json:"held_examples,omitempty"`
	// PolicyExamples is the training examples with a policy target.
	PolicyExamples int `json:"policy_examples,omitempty"`
	Epochs         int `json:"epochs,omitempty"`
	BestEpoch      int `json:"best_epoch,omitempty"`
	// StartHeldLoss is the best network's loss on the held-out examples, before the fit.
	StartHeldLoss Num `json:"start_held_loss,omitempty"`
	TrainLoss     Num `json:"train_loss,omitempty"`
	HeldLoss      Num `json:"held_loss,omitempty"`
	// Gate: the candidate against the best, where there is a gate.
	Gate *MatchResult `json:"gate,omitempty"`
	// Result is "promoted" or "rejected" ("initial" for generation 0); without a gate
	// every candidate is promoted.
	Result string `json:"result"`
	// After is the best after the generation.
	After string `json:"best_after"`
	// Rating is the generation's network on the ladder: the candidate's, the initial
	// network's in generation 0.
	Rating *LadderRating `json:"rating,omitempty"`
	// Anchor is the match against a fixed anchor of runs before the ladder
	// (datasets/loop/run1), read, no longer played.
	Anchor *MatchResult `json:"anchor,omitempty"`
}

// LadderRating is a network's place on the ladder (analysis/ladder) from its gauntlet: Elo with
// its 95% likelihood interval, and the games against each anchor.
type LadderRating struct {
	Of      string               `json:"of"` // initial or gen-NNN
	Elo     Num                  `json:"elo"`
	Low     Num                  `json:"elo_low"`
	High    Num                  `json:"elo_high"`
	Games   int                  `json:"games"`
	Results []ladder.AnchorScore `json:"results"`
}

// MatchResult is a match's result from the first player's side (selfplay.Match is the
// match itself: its players, openings and rules).
type MatchResult struct {
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	Score  Num `json:"score"`
	Elo    Num `json:"elo"`
	Low    Num `json:"elo_low"`
	High   Num `json:"elo_high"`
	// LLR and State are the SPRT's (gate only).
	LLR   Num    `json:"llr,omitempty"`
	State string `json:"sprt,omitempty"`
	// Of names the network whose match this is; From is the generation it was played
	// in, when an anchor result is carried over from an earlier generation.
	Of   string `json:"of,omitempty"`
	From int    `json:"from,omitempty"`
	// Exact marks a result known without playing (the anchor against itself).
	Exact bool `json:"exact,omitempty"`
}

// Num is a float64 that JSON writes as null when it is not finite (an Elo of a score of 0
// or 1 is infinite), and reads back from null as NaN.
type Num float64

// MarshalJSON writes null for NaN and ±Inf.
func (x Num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads null as NaN.
func (x *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = Num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*x = Num(f)
	return nil
}

// loadNet reads an evaluation file, or the built-in network.
func loadNet(name string) (*nnue.Net, error) {
	switch name {
	case engine.BuiltinEval:
		return engine.BuiltinNet(), nil
	case engine.HandSetEval:
		return nil, errors.New("loop: the hand-set evaluation is no network")
	}
	return nnue.ReadFile(name)
}

// provenance writes RUN/provenance.json on the first run and checks a resume against it.
func (c *Config) provenance() error {
	path := c.path("provenance.json")
	var kept Provenance
	if err := readJSON(path, &kept); err == nil {
		// The window may grow, as KataGo's does over a run: the rest is compared.
		was := kept.Config
		grown := c.WindowPositions > was.WindowPositions
		if grown {
			was.WindowPositions = c.WindowPositions
		}
		want, _ := json.Marshal(c)
		have, _ := json.Marshal(was)
		if !bytes.Equal(want, have) {
			return fmt.Errorf("loop: %s was started with another configuration (%s); use the same flags or another run directory", c.Dir, configDiff(have, want))
		}
		if !grown {
			return nil
		}
		return c.growWindow(path, kept)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	p := Provenance{Command: c.Command, Started: time.Now().UTC().Truncate(time.Second), Version: c.Version, Config: *c}
	if c.Initial != engine.HandSetEval {
		n, err := loadNet(c.Initial)
		if err != nil {
			return fmt.Errorf("loop: initial network: %w", err)
		}
		p.Initial = &n.Header
	}
	return writeJSON(path, p)
}

// growWindow records in the provenance kept at path that the replay window grows to
// c.WindowPositions from the first generation whose fit has not run: a fit already made
// keeps the window it saw, so the log stays what the recorded commands make.
func (c *Config) growWindow(path string, kept Provenance) error {
	from := 1
	for {
		if _, err := os.Stat(c.path(genDir(from), StepFit+".json")); err != nil {
			break
		}
		from++
	}
	if len(kept.Windows) == 0 {
		kept.Windows = []WindowChange{{From: 1, Positions: kept.Config.WindowPositions, Command: kept.Command}}
	}
	kept.Windows = append(kept.Windows, WindowChange{From: from, Positions: c.WindowPositions, Command: c.Command})
	kept.Config.WindowPositions = c.WindowPositions
	return writeJSON(path, kept)
}

// Provenance is RUN/provenance.json: how the run was made.
type Provenance struct {
	Command string       `json:"command"`
	Started time.Time    `json:"started"`
	Version string       `json:"version"`
	Config  Config       `json:"config"`
	Initial *nnue.Header `json:"initial_network,omitempty"` // none from the hand-set evaluation
	// Windows is the replay window's schedule when a resume grew it (none while it kept
	// the first command's): each change, from the first, with the generation whose fit
	// first saw it and the command that set it. Config holds the last.
	Windows []WindowChange `json:"window_schedule,omitempty"`
}

// WindowChange is one entry of a run's window schedule.
type WindowChange struct {
	From      int    `json:"from_generation"`
	Positions int    `json:"window_positions"`
	Command   string `json:"command"`
}

// configDiff names the first setting that differs between two configurations' JSON.
func configDiff(have, want []byte) string {
	var a, b map[string]any
	_ = json.Unmarshal(have, &a)
	_ = json.Unmarshal(want, &b)
	keys := make([]string, 0, len(b))
	for k := range b {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		x, _ := json.Marshal(a[k])
		y, _ := json.Marshal(b[k])
		if !bytes.Equal(x, y) {
			return fmt.Sprintf("%s was %s, now %s", k, x, y)
		}
	}
	return "the settings differ"
}

// ReadLog reads the lines of RUN/loop.jsonl. A partial last line (a run killed while
// writing it) is ignored.
func ReadLog(dir string) ([]Generation, error) {
	b, err := os.ReadFile(filepath.Join(dir, "loop.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("loop: %w", err)
	}
	var gens []Generation
	for i, l := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var g Generation
		if err := json.Unmarshal(l, &g); err != nil {
			if i == bytes.Count(b, []byte("\n")) { // the last line, with no newline: cut short
				break
			}
			return nil, fmt.Errorf("loop: %s line %d: %w", filepath.Join(dir, "loop.jsonl"), i+1, err)
		}
		if g.N != len(gens) {
			return nil, fmt.Errorf("loop: %s line %d: generation %d, want %d", filepath.Join(dir, "loop.jsonl"), i+1, g.N, len(gens))
		}
		gens = append(gens, g)
	}
	return gens, nil
}

// appendLog adds a generation's line to loop.jsonl, cutting a partial last line first.
func (c *Config) appendLog(g Generation) error {
	path := c.path("loop.jsonl")
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("loop: %w", err)
	}
	if i := bytes.LastIndexByte(b, '\n'); i+1 != len(b) {
		b = b[:i+1] // a line cut short by a kill
	}
	line, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	b = append(append(b, line...), '\n')
	if err := writeAtomic(path, func() ([]byte, error) { return b, nil }); err != nil {
		return err
	}
	if c.OnGeneration != nil {
		c.OnGeneration(g)
	}
	return nil
}
