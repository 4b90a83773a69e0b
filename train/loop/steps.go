package loop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/shogilab/shogilab/analysis/ladder"
	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/internal/filelock"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/selfplay"
	"github.com/shogilab/shogilab/train/data"
	"github.com/shogilab/shogilab/train/netfit"
)

// Run runs the loop in c.Dir until it holds c.Generations generations, resuming what
// is there.
func Run(ctx context.Context, c Config) error {
	if err := c.validate(); err != nil {
		return err
	}
	lad, err := ladder.ReadFile(c.Rate.Ladder)
	if err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	for _, a := range c.Rate.Anchors {
		if _, ok := lad.Anchor(a); !ok {
			return fmt.Errorf("loop: %s is not an anchor of the ladder %s", a, c.Rate.Ladder)
		}
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
	for g := len(gens); g <= c.Generations; g++ {
		line, err := c.generation(ctx, lad, g, gens)
		if err != nil {
			return err
		}
		gens = append(gens, line)
	}
	return nil
}

// generation runs (or resumes) generation g after the lines before: generation 0 is the
// initial network's rating alone.
func (c *Config) generation(ctx context.Context, lad *ladder.Ladder, g int, before []Generation) (Generation, error) {
	if g == 0 {
		line := Generation{N: 0, Best: "initial", After: "initial", Result: "initial"}
		r, err := step(c, 0, StepRate, func() (LadderRating, error) { return c.rate(ctx, lad, 0, "initial") })
		if err != nil {
			return line, err
		}
		line.Rating = &r
		return line, c.log(line)
	}
	prev := before[len(before)-1]
	line := Generation{N: g, Best: prev.After}

	sp, err := step(c, g, StepSelfplay, func() (selfplayResult, error) { return c.selfplay(ctx, g, line.Best) })
	if err != nil {
		return line, err
	}
	line.Games, line.Positions, line.Targets = sp.Games, sp.Positions, sp.Targets

	fit, err := step(c, g, StepFit, func() (fitResult, error) { return c.fit(ctx, g, line.Best) })
	if err != nil {
		return line, err
	}
	line.WindowGames, line.WindowPositions, line.TrainExamples, line.HeldExamples = fit.Games, fit.Positions, fit.Train, fit.Held
	line.PolicyExamples, line.Epochs, line.BestEpoch = fit.Policy, len(fit.Epochs), fit.BestEpoch
	line.StartHeldLoss, line.TrainLoss, line.HeldLoss = fit.StartHeldLoss, fit.TrainLoss, fit.HeldLoss

	line.Result, line.After = "promoted", genDir(g)
	if c.GateGames > 0 {
		gate, err := step(c, g, StepGate, func() (MatchResult, error) { return c.gate(ctx, g, line.Best) })
		if err != nil {
			return line, err
		}
		line.Gate = &gate
		if !Promotes(gate) {
			line.Result, line.After = "rejected", line.Best
		}
	}

	r, err := step(c, g, StepRate, func() (LadderRating, error) { return c.rate(ctx, lad, g, genDir(g)) })
	if err != nil {
		return line, err
	}
	line.Rating = &r

	if line.Result == "promoted" {
		if err := copyFile(c.network(line.After), c.path("best.nnue")); err != nil {
			return line, err
		}
	}
	return line, c.log(line)
}

// log appends a generation's line to loop.jsonl: the last step, whose result is the line.
func (c *Config) log(line Generation) error {
	if err := c.appendLog(line); err != nil {
		return err
	}
	return c.hook(line.N, StepLog)
}

// Promotes is the gate's rule: the SPRT accepted H1. A match that reached its bound
// undecided promotes nothing, whatever its log-likelihood ratio: an undecided test has not
// shown a gain (an earlier rule, any positive LLR at the bound, promoted a candidate at
// LLR 0.07, docs/tactics.md#replays).
func Promotes(m MatchResult) bool { return m.State == string(sprt.H1) }

// mctsText is the spec of the toolkit's engine with network name at playouts, with the
// self-play's search settings when selfPlay (a command line's --sente too). Every player of
// the loop searches a fixed number of playouts, so it runs the whole mate search at every
// expansion (MateExpandDepth=5): at equal playouts that plays better than the engine's
// default, which leaves mates longer than one for the nodes the search returns to and wins
// at equal time (docs/tactics.md, "The mate search where the search returns": -77 Elo at
// 1,000 playouts, +68 at 100 ms). Its priors are the network's softmax at temperature 1
// (PolicyTemperature=1), not the engine's default 1.3: a Gumbel root's policy target is
// built on the priors' logits, and a temperature there would flatten each generation's
// targets again, compounding from network to network.
func (c *Config) mctsText(name, role string, playouts int, selfPlay bool) string {
	text := fmt.Sprintf("mcts:name=%s,EvalFile=%s,playouts=%d,Threads=1,MateExpandDepth=5,PolicyTemperature=1", role, c.network(name), playouts)
	if !selfPlay {
		return text
	}
	sp := c.SelfPlay
	if sp.GumbelMoves > 0 {
		text += fmt.Sprintf(",GumbelMoves=%d", sp.GumbelMoves)
	} else {
		text += fmt.Sprintf(",Noise=%g,TemperaturePlies=%d", sp.Noise, sp.TemperaturePlies)
		if sp.ForcedPlayouts > 0 {
			text += fmt.Sprintf(",ForcedPlayouts=%g", sp.ForcedPlayouts)
		}
	}
	if sp.CapFast > 0 {
		text += fmt.Sprintf(",cap-fast=%d,cap-prob=%g", sp.CapFast, sp.CapProb)
	}
	return text
}

func (c *Config) mcts(name, role string, playouts int, selfPlay bool) (selfplay.PlayerSpec, error) {
	s, err := selfplay.ParsePlayerSpec(c.mctsText(name, role, playouts, selfPlay), selfplay.PlayerSpec{})
	if err != nil {
		return s, fmt.Errorf("loop: %w", err)
	}
	return s, nil
}

type selfplayResult struct {
	Games     int      `json:"games"`
	Positions int      `json:"positions"`
	Targets   int      `json:"targets"` // moves that were full searches
	Files     []string `json:"files"`   // relative to the generation's directory
	// ArrayCPU is the CPU seconds a Slurm job array's tasks logged (Slurm.run), handed to
	// the step's times (StepTime.ArrayCPU), where the CPU is kept, and not written here.
	ArrayCPU float64 `json:"-"`
}

func (r selfplayResult) cpuElsewhere() float64 { return r.ArrayCPU }

// selfplay plays generation g's games with network best.
func (c *Config) selfplay(ctx context.Context, g int, best string) (selfplayResult, error) {
	spec, err := c.mcts(best, "best", c.SelfPlay.Playouts, true)
	if err != nil {
		return selfplayResult{}, err
	}
	m := selfplay.Match{A: spec, B: spec, Openings: c.Openings, Rules: c.rules(), Seed: c.seed(g, seedSelfplay), Version: c.Version}
	out := c.path(genDir(g), "records")
	res := selfplayResult{}
	if c.Slurm != nil {
		if res.ArrayCPU, err = c.Slurm.run(ctx, c, g, c.mctsText(best, "best", c.SelfPlay.Playouts, true), out); err != nil {
			return res, err
		}
	} else {
		r := &selfplay.Run{Match: m, Games: c.SelfPlay.Games, Parallel: max(c.Parallel, 1), OutDir: out}
		r.Progress = func(p selfplay.Progress) { c.progress(StepSelfplay, p.Done, p.Total) }
		if _, err := r.Execute(ctx); err != nil {
			return selfplayResult{}, err
		}
	}
	files, err := recordFiles(out)
	if err != nil {
		return selfplayResult{}, err
	}
	for _, f := range files {
		rel, _ := filepath.Rel(c.path(genDir(g)), f)
		res.Files = append(res.Files, rel)
		n, positions, targets, err := countGames(f)
		if err != nil {
			return res, err
		}
		res.Games += n
		res.Positions += positions
		res.Targets += targets
	}
	if res.Games != c.SelfPlay.Games {
		return res, fmt.Errorf("loop: generation %d: the self-play holds %d games, want %d", g, res.Games, c.SelfPlay.Games)
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

// countGames counts the records of a file (plain, gzip or a games table), their positions
// (plies + 1 each) and the moves that were policy targets (record.MoveStats.Target).
func countGames(path string) (games, positions, targets int, err error) {
	r := table.NewReader([]string{path}, table.Options{Fields: record.FieldPlies | record.FieldStats})
	defer r.Close()
	for {
		g, err := r.Read()
		if err == io.EOF {
			return games, positions, targets, nil
		}
		if err != nil {
			return 0, 0, 0, fmt.Errorf("loop: %w", err)
		}
		games++
		positions += g.Plies + 1
		for _, s := range g.Stats {
			if s.Target() {
				targets++
			}
		}
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
	Generations   []int   `json:"generations"` // of the window, newest first
	Games         int     `json:"games"`
	Positions     int     `json:"positions"`
	Train         int     `json:"train"`
	Held          int     `json:"held"`
	Policy        int     `json:"policy"` // training examples with a policy target
	Epochs        []Epoch `json:"epochs"`
	BestEpoch     int     `json:"best_epoch"`
	StartHeldLoss Num     `json:"start_held_loss"`
	TrainLoss     Num     `json:"train_loss"`
	HeldLoss      Num     `json:"held_loss"`
	Data          string  `json:"data"`
}

// window is the replay window of generation g's fit: the record files of generations g,
// g-1, ... until they hold WindowPositions positions, and those generations.
func (c *Config) window(g int) (files []string, gens []int, err error) {
	positions := 0
	for k := g; k >= 1 && positions < c.WindowPositions; k-- {
		var sp selfplayResult
		if err := readJSON(c.path(genDir(k), StepSelfplay+".json"), &sp); err != nil {
			return nil, nil, fmt.Errorf("loop: generation %d: its self-play is not done: %w", k, err)
		}
		for _, f := range sp.Files {
			files = append(files, c.path(genDir(k), f))
		}
		gens = append(gens, k)
		positions += sp.Positions
	}
	return files, gens, nil
}

// fit fits generation g's candidate to the window's positions: from network best's
// weights, or from random weights of the sizes Net when best is the hand-set evaluation.
// The value learns λ·result + (1-λ)·root value, the policy the searches' targets
// (train/data: a Gumbel root's improved policy, pruned visits; fast moves none).
func (c *Config) fit(ctx context.Context, g int, best string) (fitResult, error) {
	var res fitResult
	files, gens, err := c.window(g)
	if err != nil {
		return res, err
	}
	set, err := data.Load(files, data.Options{HeldOut: c.Fit.HeldOut})
	if err != nil {
		return res, err
	}
	res.Generations, res.Games, res.Positions, res.Train, res.Held, res.Data = gens, set.Games, set.Positions, len(set.Train), len(set.Held), set.Describe()
	o := netfit.Options{Seed: c.seed(g, seedFit)}
	c.Fit.Apply(&o)
	if c.network(best) == engine.HandSetEval {
		o.Hidden1, o.Hidden2, o.Policy = c.Net.Hidden1, c.Net.Hidden2, c.Net.Policy
	} else {
		start, err := loadNet(c.network(best))
		if err != nil {
			return res, err
		}
		o.Start = start.Model()
		o.Hidden1, o.Hidden2 = start.Sizes()
		o.Policy = start.PolicySize()
	}
	samples := netfit.Samples
	if o.Policy > 0 {
		samples = netfit.PolicySamples
	} else {
		o.PolicyWeight = 0
	}
	lam := float32(c.Fit.Lambda)
	train, held := samples(set.Train, lam), samples(set.Held, lam)
	for i := range train {
		if train[i].Probs != nil {
			res.Policy++
		}
	}
	res.StartHeldLoss = Num(math.NaN())
	if o.Start != nil {
		res.StartHeldLoss = Num(netfit.Loss(o.Start, held, o.PolicyWeight))
	}
	o.OnBatch = func(done, total int) { c.progress(StepFit, done, total) }
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
	net, err := nnue.Quantise(fitted, nnue.Header{Generation: g, Data: fmt.Sprintf("loop generation %d: %s; lambda %g", g, set.Describe(), c.Fit.Lambda), Command: c.Command})
	if err != nil {
		return res, fmt.Errorf("loop: generation %d: %w", g, err)
	}
	return res, writeAtomic(c.network(genDir(g)), net.MarshalBinary)
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

// gate plays generation g's candidate against network best, an SPRT.
func (c *Config) gate(ctx context.Context, g int, best string) (MatchResult, error) {
	a, err := c.mcts(genDir(g), "candidate", c.GatePlayouts, false)
	if err != nil {
		return MatchResult{}, err
	}
	b, err := c.mcts(best, "best", c.GatePlayouts, false)
	if err != nil {
		return MatchResult{}, err
	}
	m, err := c.play(ctx, StepGate, selfplay.Match{A: a, B: b, Seed: c.seed(g, seedGate)}, c.GateGames, c.path(genDir(g), "gate"), &c.SPRT)
	if err != nil {
		return MatchResult{}, err
	}
	m.Of = genDir(g)
	return *m, nil
}

// rate places network name, generation g's, on the ladder: Rate.Games games against each
// of Rate.Anchors, in RUN/gen-NNN/rate/NAME-vs-ANCHOR/, from the openings in pairs.
func (c *Config) rate(ctx context.Context, lad *ladder.Ladder, g int, name string) (LadderRating, error) {
	res := LadderRating{Of: name}
	a, err := c.mcts(name, name, c.Rate.Playouts, false)
	if err != nil {
		return res, err
	}
	gauntlet := lad.NewGauntlet(name)
	for i, anchor := range c.Rate.Anchors {
		an, _ := lad.Anchor(anchor)
		b, err := selfplay.ParsePlayerSpec(an.Spec, selfplay.PlayerSpec{})
		if err != nil {
			return res, fmt.Errorf("loop: anchor %s: %w", anchor, err)
		}
		b.Name = anchor
		if err := b.CheckEngine(ctx); err != nil {
			return res, fmt.Errorf("loop: anchor %s: %w", anchor, err)
		}
		m := selfplay.Match{A: a, B: b, Seed: selfplay.GameSeed(c.seed(g, seedRate), i)}
		dir := c.path(genDir(g), "rate", name+"-vs-"+anchor)
		if _, err := c.play(ctx, StepRate, m, c.Rate.Games, dir, nil); err != nil {
			return res, err
		}
		files, err := recordFiles(dir)
		if err != nil {
			return res, err
		}
		rd := table.NewReader(files, table.Options{Fields: record.FieldPlayers | record.FieldResult})
		for {
			r, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err == nil {
				err = gauntlet.Add(r)
			}
			if err != nil {
				rd.Close()
				return res, fmt.Errorf("loop: rating %s: %w", name, err)
			}
		}
		rd.Close()
	}
	r, err := gauntlet.Rate()
	if err != nil {
		return res, fmt.Errorf("loop: rating %s: %w", name, err)
	}
	res.Elo, res.Low, res.High, res.Results = Num(r.Elo), Num(r.Low), Num(r.High), r.Results
	for _, x := range r.Results {
		res.Games += x.Wins + x.Draws + x.Losses
	}
	return res, nil
}
