package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/filelock"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
	"github.com/shogilab/shogilab/train/data"
	"github.com/shogilab/shogilab/train/netfit"
)

// Config is a loop's configuration. The fields with json tags are its identity: a
// resume must give the same (Generations excepted).
type Config struct {
	Dir         string `json:"-"` // the run directory
	Generations int    `json:"-"` // generations the run holds when Run returns
	// Initial is the first best network: engine.BuiltinEval or an evaluation file.
	Initial string `json:"initial"`
	// Openings are the start positions of every match, used in turn; OpeningsName says
	// where they came from (for provenance).
	Openings     []selfplay.Opening `json:"-"`
	OpeningsName string             `json:"openings"`

	Games            int     `json:"games"`    // self-play games per generation
	Playouts         int     `json:"playouts"` // per move in self-play
	Noise            float64 `json:"noise"`
	TemperaturePlies int     `json:"temperature_plies"`
	MaxPlies         int     `json:"max_plies"` // a game reaching it is a draw (0: none)

	Window  int     `json:"window"` // generations of games a fit sees, the latest
	Lambda  float64 `json:"lambda"` // weight of the game's result in the target
	HeldOut float64 `json:"held_out"`
	// Fit is the fit's options; its sizes are the initial network's and its seed is
	// drawn from Seed, its hooks set by Run.
	Fit FitOptions `json:"fit"`

	GatePlayouts int       `json:"gate_playouts"`
	GateGames    int       `json:"gate_games"` // the gate's bound
	SPRT         sprt.Test `json:"sprt"`

	// Anchor is the fixed opponent of the learning curve, a player spec
	// (selfplay.ParsePlayerSpec); "" is the built-in network at AnchorPlayouts.
	Anchor         string `json:"anchor"`
	AnchorPlayouts int    `json:"anchor_playouts"` // of the loop's networks, and of the default anchor
	AnchorGames    int    `json:"anchor_games"`
	AnchorEvery    int    `json:"anchor_every"`

	Seed    uint64 `json:"seed"`
	Version string `json:"version"` // of the toolkit, written in records

	// Parallel is the games played at once on this machine; Slurm, if set, plays the
	// self-play as a job array instead.
	Parallel int    `json:"-"`
	Slurm    *Slurm `json:"-"`
	// Command is the command line, for provenance and the networks' headers.
	Command string `json:"-"`

	// Hook, if set, is called after each step of a generation ("selfplay", "fit", "gate",
	// "anchor", "log") has finished and its result is on disk; an error stops Run with it
	// (a test's way to kill a run between steps).
	Hook func(gen int, step string) error `json:"-"`
	// Progress, if set, is told how far the running step is.
	Progress func(step string, done, total int) `json:"-"`
	// OnGeneration, if set, sees each generation's line as it is logged.
	OnGeneration func(Generation) `json:"-"`
}

// FitOptions are the netfit options a loop sets.
type FitOptions struct {
	Epochs       int     `json:"epochs"`
	Patience     int     `json:"patience"`
	Batch        int     `json:"batch"`
	LearningRate float64 `json:"learning_rate"`
	Threads      int     `json:"threads"`
	Decay        float64 `json:"decay"`
}

// DefaultConfig is a small loop from the built-in network: 200 games at 800 playouts a
// generation, gated at 1000 playouts by an SPRT of 0 against 20 Elo over at most 300
// games, an anchor match of 100 games every generation.
func DefaultConfig() Config {
	d := netfit.DefaultOptions()
	return Config{
		Initial: engine.BuiltinEval, Games: 200, Playouts: 800, Noise: 0.25, TemperaturePlies: 10, MaxPlies: 256,
		Window: 3, Lambda: 0.5, HeldOut: 0.1,
		Fit:          FitOptions{Epochs: 10, Patience: 2, Batch: d.Batch, LearningRate: 3e-4, Threads: 1, Decay: d.Decay},
		GatePlayouts: 1000, GateGames: 300, SPRT: sprt.Test{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05, Model: sprt.Normalized},
		AnchorPlayouts: 1000, AnchorGames: 100, AnchorEvery: 1,
		Seed: 1, Version: selfplay.Version(), Parallel: 1,
	}
}

// Generation is one line of loop.jsonl.
type Generation struct {
	N    int    `json:"generation"`
	Best string `json:"best"` // the network that played the generation's self-play
	// Self-play and fit (none in generation 0).
	Games         int `json:"games,omitempty"`
	Positions     int `json:"positions,omitempty"` // of this generation's games
	WindowGames   int `json:"window_games,omitempty"`
	TrainExamples int `json:"train_examples,omitempty"`
	HeldExamples  int `json:"held_examples,omitempty"`
	Epochs        int `json:"epochs,omitempty"`
	BestEpoch     int `json:"best_epoch,omitempty"`
	// StartHeldLoss is the best network's loss on the held-out examples, before the fit.
	StartHeldLoss Num `json:"start_held_loss,omitempty"`
	TrainLoss     Num `json:"train_loss,omitempty"`
	HeldLoss      Num `json:"held_loss,omitempty"`
	// Gate: the candidate against the best.
	Gate *MatchResult `json:"gate,omitempty"`
	// Result is "promoted" or "rejected" ("initial" for generation 0).
	Result string `json:"result"`
	// After is the best after the generation.
	After  string       `json:"best_after"`
	Anchor *MatchResult `json:"anchor,omitempty"`
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

// validate checks a configuration before a run.
func (c *Config) validate() error {
	switch {
	case c.Dir == "":
		return errors.New("loop: no run directory")
	case c.Generations < 0:
		return fmt.Errorf("loop: %d generations", c.Generations)
	case len(c.Openings) == 0:
		return errors.New("loop: no openings")
	case c.Games < 1 || c.Playouts < 1 || c.GatePlayouts < 1 || c.AnchorPlayouts < 1:
		return fmt.Errorf("loop: games %d, playouts %d, gate playouts %d, anchor playouts %d: need 1 or more", c.Games, c.Playouts, c.GatePlayouts, c.AnchorPlayouts)
	case c.GateGames < 2 || c.AnchorGames < 2:
		return fmt.Errorf("loop: gate games %d, anchor games %d: need 2 or more (a pair)", c.GateGames, c.AnchorGames)
	case c.Window < 1 || c.AnchorEvery < 1:
		return fmt.Errorf("loop: window %d, anchor every %d: need 1 or more", c.Window, c.AnchorEvery)
	case !(c.Lambda >= 0 && c.Lambda <= 1):
		return fmt.Errorf("loop: lambda %v: need 0 to 1", c.Lambda)
	case c.Parallel < 0:
		return fmt.Errorf("loop: parallel %d", c.Parallel)
	}
	if err := c.SPRT.Validate(); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	if c.Version == "" {
		return errors.New("loop: no version")
	}
	return nil
}

// Paths in the run directory.
func (c *Config) path(parts ...string) string {
	return filepath.Join(append([]string{c.Dir}, parts...)...)
}

func genDir(g int) string { return fmt.Sprintf("gen-%03d", g) }

// network is where generation g's candidate is, or the initial network for "initial".
func (c *Config) network(name string) string {
	if name == "initial" {
		return c.Initial
	}
	return c.path(name, "candidate.nnue")
}

// seed is the seed of a step of generation g.
func (c *Config) seed(g int, step uint64) uint64 {
	return selfplay.GameSeed(selfplay.GameSeed(c.Seed, g), int(step))
}

// Seeds' steps.
const (
	seedSelfplay = iota + 1
	seedFit
	seedGate
	seedAnchor
)

// Run runs the loop in c.Dir until it holds c.Generations generations, resuming what
// is there.
func Run(ctx context.Context, c Config) error {
	if err := c.validate(); err != nil {
		return err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	// One run at a time in a run directory: two would write loop.jsonl in turn and each
	// append the generations the other wrote again.
	lock, err := filelock.Acquire(c.path(".lock"))
	var held *filelock.HeldError
	if errors.As(err, &held) {
		return fmt.Errorf("loop: %s is being run by another train loop (%s): wait for it to end", c.Dir, held)
	}
	if err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	defer lock.Release()
	if err := c.provenance(); err != nil {
		return err
	}
	gens, err := ReadLog(c.Dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if len(gens) == 0 {
		g0, err := c.generationZero(ctx)
		if err != nil {
			return err
		}
		if err := c.appendLog(g0); err != nil {
			return err
		}
		gens = append(gens, g0)
	}
	for g := len(gens); g <= c.Generations; g++ {
		line, err := c.generation(ctx, g, gens)
		if err != nil {
			return err
		}
		gens = append(gens, line)
	}
	return nil
}

// generationZero is the initial network's line: its anchor match, or an exact 0 when it
// is the anchor.
func (c *Config) generationZero(ctx context.Context) (Generation, error) {
	g0 := Generation{N: 0, Best: "initial", After: "initial", Result: "initial"}
	if c.Anchor == "" && c.Initial == engine.BuiltinEval {
		g0.Anchor = &MatchResult{Of: "initial", Exact: true, Score: 0.5}
		return g0, nil
	}
	m, err := c.anchorMatch(ctx, 0, "initial")
	if err != nil {
		return g0, err
	}
	g0.Anchor = m
	return g0, c.hook(0, "anchor")
}

func (c *Config) hook(g int, step string) error {
	if c.Hook == nil {
		return nil
	}
	return c.Hook(g, step)
}

func (c *Config) progress(step string, done, total int) {
	if c.Progress != nil {
		c.Progress(step, done, total)
	}
}

// generation runs (or resumes) generation g after the lines before.
func (c *Config) generation(ctx context.Context, g int, before []Generation) (Generation, error) {
	prev := before[len(before)-1]
	line := Generation{N: g, Best: prev.After}
	dir := c.path(genDir(g))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return line, fmt.Errorf("loop: %w", err)
	}
	times := map[string]float64{}
	_ = readJSON(filepath.Join(dir, "times.json"), &times) // missing at the start

	// 1. Self-play.
	var sp selfplayResult
	if err := readJSON(filepath.Join(dir, "selfplay.json"), &sp); err != nil {
		start := time.Now()
		if sp, err = c.selfplay(ctx, g, line.Best); err != nil {
			return line, err
		}
		if err := writeJSON(filepath.Join(dir, "selfplay.json"), sp); err != nil {
			return line, err
		}
		times["selfplay"] = time.Since(start).Seconds()
		if err := writeJSON(filepath.Join(dir, "times.json"), times); err != nil {
			return line, err
		}
		if err := c.hook(g, "selfplay"); err != nil {
			return line, err
		}
	}
	line.Games, line.Positions = sp.Games, sp.Positions

	// 2. Fit.
	var fr fitResult
	if err := readJSON(filepath.Join(dir, "fit.json"), &fr); err != nil {
		start := time.Now()
		if fr, err = c.fit(ctx, g, line.Best); err != nil {
			return line, err
		}
		if err := writeJSON(filepath.Join(dir, "fit.json"), fr); err != nil {
			return line, err
		}
		times["fit"] = time.Since(start).Seconds()
		if err := writeJSON(filepath.Join(dir, "times.json"), times); err != nil {
			return line, err
		}
		if err := c.hook(g, "fit"); err != nil {
			return line, err
		}
	}
	line.WindowGames, line.TrainExamples, line.HeldExamples = fr.Games, fr.Train, fr.Held
	line.Epochs, line.BestEpoch = len(fr.Epochs), fr.BestEpoch
	line.StartHeldLoss, line.TrainLoss, line.HeldLoss = fr.StartHeldLoss, fr.TrainLoss, fr.HeldLoss

	// 3. Gate.
	var gate MatchResult
	if err := readJSON(filepath.Join(dir, "gate.json"), &gate); err != nil {
		start := time.Now()
		m, err := c.gate(ctx, g, line.Best)
		if err != nil {
			return line, err
		}
		gate = *m
		if err := writeJSON(filepath.Join(dir, "gate.json"), gate); err != nil {
			return line, err
		}
		times["gate"] = time.Since(start).Seconds()
		if err := writeJSON(filepath.Join(dir, "times.json"), times); err != nil {
			return line, err
		}
		if err := c.hook(g, "gate"); err != nil {
			return line, err
		}
	}
	line.Gate = &gate
	line.Result, line.After = "rejected", line.Best
	if Promotes(gate) {
		line.Result, line.After = "promoted", genDir(g)
	}

	// 4. Anchor.
	if g%c.AnchorEvery == 0 || g == c.Generations {
		var a MatchResult
		if err := readJSON(filepath.Join(dir, "anchor.json"), &a); err != nil {
			start := time.Now()
			if last := lastAnchor(before); last != nil && last.Of == line.After {
				a = *last
				if a.From == 0 && !a.Exact {
					a.From = lastAnchorGen(before)
				}
			} else {
				m, err := c.anchorMatch(ctx, g, line.After)
				if err != nil {
					return line, err
				}
				a = *m
			}
			if err := writeJSON(filepath.Join(dir, "anchor.json"), a); err != nil {
				return line, err
			}
			times["anchor"] = time.Since(start).Seconds()
			if err := writeJSON(filepath.Join(dir, "times.json"), times); err != nil {
				return line, err
			}
			if err := c.hook(g, "anchor"); err != nil {
				return line, err
			}
		}
		line.Anchor = &a
	}

	// 5. Promotion and the log.
	if line.Result == "promoted" {
		if err := copyFile(c.network(line.After), c.path("best.nnue")); err != nil {
			return line, err
		}
	}
	if err := c.appendLog(line); err != nil {
		return line, err
	}
	return line, c.hook(g, "log")
}

// Promotes is the gate's rule: the SPRT accepted H1. A match that reached its bound
// undecided promotes nothing, whatever its log-likelihood ratio: an undecided test has not
// shown a gain (an earlier rule, any positive LLR at the bound, promoted a candidate at
// LLR 0.07, docs/tactics.md#replays).
func Promotes(m MatchResult) bool { return m.State == string(sprt.H1) }

// lastAnchor is the latest anchor result of the lines, nil for none.
func lastAnchor(gens []Generation) *MatchResult {
	for i := len(gens) - 1; i >= 0; i-- {
		if gens[i].Anchor != nil {
			return gens[i].Anchor
		}
	}
	return nil
}

func lastAnchorGen(gens []Generation) int {
	for i := len(gens) - 1; i >= 0; i-- {
		if a := gens[i].Anchor; a != nil {
			if a.From != 0 {
				return a.From
			}
			return gens[i].N
		}
	}
	return 0
}

// mcts is the spec of the toolkit's engine with network name at playouts, with the
// self-play's noise when noisy.
func (c *Config) mcts(name, role string, playouts int, noisy bool) (selfplay.PlayerSpec, error) {
	s, err := selfplay.ParsePlayerSpec(c.mctsText(name, role, playouts, noisy), selfplay.PlayerSpec{})
	if err != nil {
		return s, fmt.Errorf("loop: %w", err)
	}
	return s, nil
}

// mctsText is mcts's spec as text (a command line's --sente).
func (c *Config) mctsText(name, role string, playouts int, noisy bool) string {
	text := fmt.Sprintf("mcts:name=%s,EvalFile=%s,playouts=%d,Threads=1", role, c.network(name), playouts)
	if noisy {
		text += fmt.Sprintf(",Noise=%g,TemperaturePlies=%d", c.Noise, c.TemperaturePlies)
	}
	return text
}

func (c *Config) rules() minishogi.GameOptions { return minishogi.GameOptions{MaxPlies: c.MaxPlies} }

type selfplayResult struct {
	Games     int      `json:"games"`
	Positions int      `json:"positions"`
	Files     []string `json:"files"` // relative to the generation's directory
}

// selfplay plays generation g's games with network best.
func (c *Config) selfplay(ctx context.Context, g int, best string) (selfplayResult, error) {
	spec, err := c.mcts(best, "best", c.Playouts, true)
	if err != nil {
		return selfplayResult{}, err
	}
	m := selfplay.Match{A: spec, B: spec, Openings: c.Openings, Rules: c.rules(), Seed: c.seed(g, seedSelfplay), Version: c.Version}
	out := c.path(genDir(g), "records")
	if c.Slurm != nil {
		if err := c.Slurm.run(ctx, c, g, c.mctsText(best, "best", c.Playouts, true), out); err != nil {
			return selfplayResult{}, err
		}
	} else {
		r := &selfplay.Run{Match: m, Games: c.Games, Parallel: max(c.Parallel, 1), OutDir: out}
		r.Progress = func(p selfplay.Progress) { c.progress("self-play", p.Done, p.Total) }
		if _, err := r.Execute(ctx); err != nil {
			return selfplayResult{}, err
		}
	}
	files, err := recordFiles(out)
	if err != nil {
		return selfplayResult{}, err
	}
	res := selfplayResult{}
	for _, f := range files {
		rel, _ := filepath.Rel(c.path(genDir(g)), f)
		res.Files = append(res.Files, rel)
		n, plies, err := countGames(f)
		if err != nil {
			return res, err
		}
		res.Games += n
		res.Positions += plies
	}
	if res.Games != c.Games {
		return res, fmt.Errorf("loop: generation %d: the self-play holds %d games, want %d", g, res.Games, c.Games)
	}
	return res, nil
}

// recordFiles are the shard files of a self-play directory, in shard order.
func recordFiles(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "games-*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("loop: %s: no record files", dir)
	}
	sort.Strings(files)
	return files, nil
}

// countGames counts the records of a file (plain, gzip or a games table) and their positions
// (plies + 1 each), reading the plies alone.
func countGames(path string) (games, positions int, err error) {
	r := table.NewReader([]string{path}, table.Options{Fields: record.FieldPlies})
	defer r.Close()
	for {
		g, err := r.Read()
		if err == io.EOF {
			return games, positions, nil
		}
		if err != nil {
			return 0, 0, fmt.Errorf("loop: %w", err)
		}
		games++
		positions += g.Plies + 1
	}
}

// Epoch is a fit's losses after an epoch (its time is left out: a resumed run's
// results must equal an uninterrupted one's).
type Epoch struct {
	N         int `json:"epoch"`
	TrainLoss Num `json:"train_loss"`
	HeldLoss  Num `json:"held_loss"`
}

type fitResult struct {
	Games         int     `json:"games"`
	Positions     int     `json:"positions"`
	Train         int     `json:"train"`
	Held          int     `json:"held"`
	Epochs        []Epoch `json:"epochs"`
	BestEpoch     int     `json:"best_epoch"`
	StartHeldLoss Num     `json:"start_held_loss"`
	TrainLoss     Num     `json:"train_loss"`
	HeldLoss      Num     `json:"held_loss"`
	Data          string  `json:"data"`
}

// fit fits generation g's candidate from network best to the window's games.
func (c *Config) fit(ctx context.Context, g int, best string) (fitResult, error) {
	var res fitResult
	start, err := loadNet(c.network(best))
	if err != nil {
		return res, err
	}
	var files []string
	for k := max(1, g-c.Window+1); k <= g; k++ {
		var sp selfplayResult
		if err := readJSON(c.path(genDir(k), "selfplay.json"), &sp); err != nil {
			return res, fmt.Errorf("loop: generation %d: its self-play is not done: %w", k, err)
		}
		for _, f := range sp.Files {
			files = append(files, c.path(genDir(k), f))
		}
	}
	set, err := data.Load(files, data.Options{HeldOut: c.HeldOut})
	if err != nil {
		return res, err
	}
	res.Games, res.Positions, res.Train, res.Held, res.Data = set.Games, set.Positions, len(set.Train), len(set.Held), set.Describe()
	lam := float32(c.Lambda)
	// A network with a policy head refines both heads, the policy on the self-play
	// searches' visit shares; one without stays a value network.
	samples, policyWeight := netfit.Samples, 0.0
	if start.HasPolicy() {
		samples, policyWeight = netfit.PolicySamples, netfit.DefaultOptions().PolicyWeight
	}
	train, held := samples(set.Train, lam), samples(set.Held, lam)
	model := start.Model()
	res.StartHeldLoss = Num(netfit.Loss(model, held, policyWeight))
	h1, h2 := start.Sizes()
	o := netfit.Options{Hidden1: h1, Hidden2: h2, Policy: start.PolicySize(), PolicyWeight: policyWeight,
		Epochs: c.Fit.Epochs, Patience: c.Fit.Patience, Batch: c.Fit.Batch,
		LearningRate: c.Fit.LearningRate, Threads: c.Fit.Threads, Decay: c.Fit.Decay, Seed: c.seed(g, seedFit), Start: model}
	o.OnBatch = func(done, total int) { c.progress("fit", done, total) }
	o.Done = ctx.Done()
	fitted, eps, err := netfit.Fit(train, held, o)
	if err != nil {
		return res, err
	}
	for _, e := range eps {
		res.Epochs = append(res.Epochs, Epoch{N: e.N, TrainLoss: Num(e.TrainLoss), HeldLoss: Num(e.HeldLoss)})
	}
	res.HeldLoss = Num(math.Inf(1))
	for _, e := range eps {
		if len(held) == 0 || e.HeldLoss < float64(res.HeldLoss) {
			res.BestEpoch, res.HeldLoss, res.TrainLoss = e.N, Num(e.HeldLoss), Num(e.TrainLoss)
		}
	}
	net, err := nnue.Quantise(fitted, nnue.Header{Generation: g, Data: fmt.Sprintf("loop generation %d: %s; lambda %g", g, set.Describe(), c.Lambda), Command: c.Command})
	if err != nil {
		return res, fmt.Errorf("loop: generation %d: %w", g, err)
	}
	if err := writeAtomic(c.network(genDir(g)), net.MarshalBinary); err != nil {
		return res, err
	}
	return res, nil
}

// loadNet reads an evaluation file, or the built-in network.
func loadNet(name string) (*nnue.Net, error) {
	switch name {
	case engine.BuiltinEval:
		return engine.BuiltinNet(), nil
	case engine.HandSetEval:
		return nil, errors.New("loop: the hand-set evaluation is no network to start a fit from")
	}
	return nnue.ReadFile(name)
}

// play runs a match of a against b in dir, stopped by test when it is not nil, and
// returns a's result.
func (c *Config) play(ctx context.Context, step string, m selfplay.Match, games int, dir string, test *sprt.Test) (*MatchResult, error) {
	m.Pairs, m.Openings, m.Rules, m.Version = true, c.Openings, c.rules(), c.Version
	st := match.NewStandings(true)
	if test != nil {
		st.SetTest(*test)
	}
	r := &selfplay.Run{Match: m, Games: games, Parallel: max(c.Parallel, 1), OutDir: dir}
	r.Progress = func(p selfplay.Progress) { c.progress(step, p.Done, p.Total) }
	if _, err := selfplay.PlayMatch(ctx, r, st, nil); err != nil {
		return nil, fmt.Errorf("loop: %s: %w", step, err)
	}
	e := st.Estimate()
	res := &MatchResult{Games: st.Distinct(), Wins: st.Games.Wins, Draws: st.Games.Draws, Losses: st.Games.Losses,
		Score: Num(e.Score), Elo: Num(e.Elo), Low: Num(e.EloLow), High: Num(e.EloHigh)}
	if v := st.Verdict(); v != nil {
		res.LLR, res.State = Num(v.LLR), string(v.State)
	}
	return res, nil
}

// gate plays generation g's candidate against network best.
func (c *Config) gate(ctx context.Context, g int, best string) (*MatchResult, error) {
	a, err := c.mcts(genDir(g), "candidate", c.GatePlayouts, false)
	if err != nil {
		return nil, err
	}
	b, err := c.mcts(best, "best", c.GatePlayouts, false)
	if err != nil {
		return nil, err
	}
	m, err := c.play(ctx, "gate", selfplay.Match{A: a, B: b, Seed: c.seed(g, seedGate)}, c.GateGames, c.path(genDir(g), "gate"), &c.SPRT)
	if err != nil {
		return nil, err
	}
	m.Of = genDir(g)
	return m, nil
}

// anchorSpec is the anchor player.
func (c *Config) anchorSpec() (selfplay.PlayerSpec, error) {
	if c.Anchor == "" {
		return selfplay.ParsePlayerSpec(fmt.Sprintf("mcts:name=anchor,EvalFile=%s,playouts=%d,Threads=1", engine.BuiltinEval, c.AnchorPlayouts), selfplay.PlayerSpec{})
	}
	s, err := selfplay.ParsePlayerSpec(c.Anchor, selfplay.PlayerSpec{})
	if err != nil {
		return s, fmt.Errorf("loop: anchor: %w", err)
	}
	if s.Name == "" {
		s.Name = "anchor"
	}
	return s, nil
}

// anchorMatch plays network name, the best after generation g, against the anchor.
func (c *Config) anchorMatch(ctx context.Context, g int, name string) (*MatchResult, error) {
	a, err := c.mcts(name, "best", c.AnchorPlayouts, false)
	if err != nil {
		return nil, err
	}
	b, err := c.anchorSpec()
	if err != nil {
		return nil, err
	}
	if err := b.CheckEngine(ctx); err != nil {
		return nil, fmt.Errorf("loop: anchor: %w", err)
	}
	m, err := c.play(ctx, "anchor", selfplay.Match{A: a, B: b, Seed: c.seed(g, seedAnchor)}, c.AnchorGames, c.path(genDir(g), "anchor"), nil)
	if err != nil {
		return nil, err
	}
	m.Of = name
	return m, nil
}

// provenance writes RUN/provenance.json on the first run and checks a resume against it.
func (c *Config) provenance() error {
	path := c.path("provenance.json")
	var kept Provenance
	if err := readJSON(path, &kept); err == nil {
		want, _ := json.Marshal(c)
		have, _ := json.Marshal(kept.Config)
		if !bytes.Equal(want, have) {
			return fmt.Errorf("loop: %s was started with another configuration (%s); use the same flags or another run directory", c.Dir, configDiff(have, want))
		}
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	p := Provenance{Command: c.Command, Started: time.Now().UTC().Truncate(time.Second), Version: c.Version, Config: *c}
	if n, err := loadNet(c.Initial); err == nil {
		p.Initial = n.Header
	} else {
		return fmt.Errorf("loop: initial network: %w", err)
	}
	return writeJSON(path, p)
}

// Provenance is RUN/provenance.json: how the run was made.
type Provenance struct {
	Command string      `json:"command"`
	Started time.Time   `json:"started"`
	Version string      `json:"version"`
	Config  Config      `json:"config"`
	Initial nnue.Header `json:"initial_network"`
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

// writeAtomic writes path through package atomicfile, so that path is whole or keeps what
// it held.
func writeAtomic(path string, content func() ([]byte, error)) error {
	b, err := content()
	if err != nil {
		return fmt.Errorf("loop: %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, b); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	return writeAtomic(path, func() ([]byte, error) {
		b, err := json.MarshalIndent(v, "", "  ")
		return append(b, '\n'), err
	})
}

// readJSON reads a step's result; an error (os.ErrNotExist) means the step is not done.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("loop: %s: %w", path, err)
	}
	return nil
}

func copyFile(from, to string) error {
	return writeAtomic(to, func() ([]byte, error) { return os.ReadFile(from) })
}
