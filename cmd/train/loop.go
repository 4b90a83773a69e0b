package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/selfplay"
	"github.com/shogilab/shogilab/train/loop"
)

func runLoop(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train loop", flag.ContinueOnError)
	d := loop.DefaultConfig()
	gens := fs.Int("generations", 5, "generations the run holds when the command ends (a resume may raise it)")
	initial := fs.String("initial", d.Initial, "the first best network: builtin, an evaluation file, or handset (the hand-set evaluation and priors: the first fit starts from random weights)")
	hidden1 := fs.Int("hidden1", d.Net.Hidden1, "with -initial handset: the fitted network's accumulator size per side")
	hidden2 := fs.Int("hidden2", d.Net.Hidden2, "with -initial handset: its hidden layer's size")
	policy := fs.Int("policy", d.Net.Policy, "with -initial handset: its policy head's hidden size (0: none)")
	openings := fs.String("openings", filepath.Join("datasets", "openings", "book.sfen.gz"), "file of start positions (SFEN lines) for every match")
	games := fs.Int("games", d.SelfPlay.Games, "self-play games per generation")
	playouts := fs.Int("playouts", d.SelfPlay.Playouts, "playouts of a full search in self-play")
	gumbel := fs.Int("gumbel-moves", d.SelfPlay.GumbelMoves, "self-play with a Gumbel root of this many sampled moves (0: PUCT with -noise and -temperature-plies)")
	noise := fs.Float64("noise", d.SelfPlay.Noise, "without a Gumbel root: weight of Dirichlet noise in the root priors in self-play")
	temp := fs.Int("temperature-plies", d.SelfPlay.TemperaturePlies, "without a Gumbel root: self-play plies whose moves are drawn in proportion to visits")
	forced := fs.Float64("forced-playouts", d.SelfPlay.ForcedPlayouts, "without a Gumbel root: KataGo's forced playouts k, pruned from the targets (0: off)")
	capFast := fs.Int("cap-fast", d.SelfPlay.CapFast, "playout cap randomization: playouts of a fast search, not a policy target (0: off)")
	capProb := fs.Float64("cap-prob", d.SelfPlay.CapProb, "playout cap randomization: probability of a full search")
	maxPlies := fs.Int("max-plies", d.MaxPlies, "play limit of every game: a game reaching it is a draw (0: none)")
	window := fs.Int("window", d.WindowPositions, "replay window in positions: a fit sees the latest generations' games until they hold this many (a resume may raise it)")
	fit := addFitFlags(fs, d.Fit)
	ladderFile := fs.String("ladder", d.Rate.Ladder, "the rating ladder each generation's network is placed on")
	anchors := fs.String("anchors", strings.Join(d.Rate.Anchors, ","), "the ladder's anchors the gauntlet plays, comma-separated")
	rateGames := fs.Int("rate-games", d.Rate.Games, "games against each anchor (pairs)")
	ratePlayouts := fs.Int("rate-playouts", d.Rate.Playouts, "playouts per move of the loop's networks in the gauntlet")
	gatePlayouts := fs.Int("gate-playouts", 1000, "playouts per move in the gate match")
	gateGames := fs.Int("gate-games", 0, "the gate match's bound in games (0: no gate, every candidate becomes the best)")
	sprtText := fs.String("sprt", "elo0=0,elo1=20", "the gate's SPRT (as match --sprt); a candidate is promoted only on H1")
	seed := fs.Uint64("seed", d.Seed, "seed of every random choice of the run")
	parallel := fs.Int("parallel", 1, "games played at once (1 keeps a resumed run identical to an uninterrupted one)")
	slurm := fs.Int("slurm", 0, "play each generation's self-play as a Slurm job array of this many shards (sbatch --wait)")
	selfplayBin := fs.String("selfplay", "", "with --slurm: the selfplay binary, reachable from the compute nodes")
	sbatchArgs := fs.String("sbatch-args", "", "with --slurm: further sbatch flags, space-separated")
	asJSON := fs.Bool("json", false, "print each generation's line (as in RUN/loop.jsonl) instead of a sentence")
	if err := cli.ParseHelp(fs, args, stdout, "usage: train loop [flags] RUN\n\n"+
		"The self-play learning loop (train/loop): each generation the best network plays\n"+
		"itself (a Gumbel root and the playout cap by default), a candidate is fitted from\n"+
		"its weights to a replay window of the latest positions (value and policy), an\n"+
		"optional SPRT gate promotes it only on H1, and it is rated on the ladder for the\n"+
		"learning curve (train curve RUN). RUN holds gen-NNN/ (a STEP.json per finished\n"+
		"step, records, candidate.nnue, the matches, times.json), best.nnue, loop.jsonl\n"+
		"(one line per generation) and provenance.json.\n"+
		"Run it again on RUN to resume after a kill: finished steps are not redone; a\n"+
		"resume may raise -generations and -window (provenance.json keeps the window's\n"+
		"schedule)."); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one run directory, got %d arguments", fs.NArg())
	}
	if err := cli.CheckOutputDir(fs.Arg(0)); err != nil {
		return err
	}
	test, err := sprt.Parse(*sprtText)
	if err != nil {
		return cli.Usagef("-sprt %q: %s", *sprtText, strings.TrimPrefix(err.Error(), "sprt: "))
	}
	ops, err := selfplay.ReadOpenings(*openings)
	if err != nil {
		return cli.Usagef("-openings %s: %s", *openings, strings.TrimPrefix(err.Error(), "selfplay: "))
	}
	// The openings file as given, not made absolute: the run's provenance.json is shipped
	// and holds no machine's paths (a Slurm job script gets the absolute path).
	c := d
	c.Dir, c.Generations, c.Initial, c.Openings, c.OpeningsName = fs.Arg(0), *gens, *initial, ops, *openings
	c.Net = loop.NetSizes{Hidden1: *hidden1, Hidden2: *hidden2, Policy: *policy}
	c.SelfPlay = loop.SelfPlay{Games: *games, Playouts: *playouts, GumbelMoves: *gumbel, Noise: *noise, TemperaturePlies: *temp,
		ForcedPlayouts: *forced, CapFast: *capFast, CapProb: *capProb}
	if *capFast == 0 {
		c.SelfPlay.CapProb = 0
	}
	c.MaxPlies, c.WindowPositions, c.Fit = *maxPlies, *window, *fit
	c.Rate = loop.Rating{Ladder: *ladderFile, Anchors: strings.Split(*anchors, ","), Games: *rateGames, Playouts: *ratePlayouts}
	c.GateGames, c.SPRT = *gateGames, test
	if *gateGames > 0 {
		c.GatePlayouts = *gatePlayouts
	}
	c.Seed, c.Parallel = *seed, *parallel
	c.Command = "train loop " + strings.Join(args, " ")
	if *slurm > 0 {
		if *selfplayBin == "" {
			return cli.Usagef("-slurm needs -selfplay BINARY")
		}
		c.Slurm = &loop.Slurm{Selfplay: *selfplayBin, Shards: *slurm, Args: strings.Fields(*sbatchArgs)}
	}

	// One progress display per step; a new step ends the last one's.
	var step string
	var update func(int)
	finish := func() {}
	c.Progress = func(s string, done, total int) {
		if s != step || update == nil {
			finish()
			step = s
			update, finish = cli.NewProgress(stderr, total, s)
		}
		update(done)
	}
	c.OnGeneration = func(g loop.Generation) {
		finish()
		update, step = nil, ""
		if *asJSON {
			json.NewEncoder(stdout).Encode(g)
			return
		}
		fmt.Fprintln(stdout, describe(g))
	}
	err = loop.Run(ctx, c)
	finish()
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%w; run the same command again to resume (%v)", ctx.Err(), err)
	}
	return err
}

// describe is a generation's line in words.
func describe(g loop.Generation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "generation %d: ", g.N)
	if g.N > 0 {
		start := "random weights"
		if !math.IsNaN(float64(g.StartHeldLoss)) {
			start = fmt.Sprintf("%.4f", float64(g.StartHeldLoss))
		}
		fmt.Fprintf(&b, "%d games, %d positions (%d targets); fit on %d examples (%d with a policy target, %d held out) from %d positions: held-out loss %s → %.4f (epoch %d of %d); ",
			g.Games, g.Positions, g.Targets, g.TrainExamples, g.PolicyExamples, g.HeldExamples, g.WindowPositions, start, float64(g.HeldLoss), g.BestEpoch, g.Epochs)
		if m := g.Gate; m != nil {
			fmt.Fprintf(&b, "gate +%d =%d -%d, Elo %s, LLR %.2f (%s): %s; ", m.Wins, m.Draws, m.Losses, eloText(m), float64(m.LLR), m.State, g.Result)
		}
	}
	fmt.Fprintf(&b, "best %s", g.After)
	if r := g.Rating; r != nil {
		fmt.Fprintf(&b, "; %s on the ladder %s (%d games)", r.Of, eloText(&loop.MatchResult{Elo: r.Elo, Low: r.Low, High: r.High}), r.Games)
	}
	return b.String()
}

func eloText(m *loop.MatchResult) string {
	if m.Exact {
		return "0 (the anchor itself)"
	}
	f := func(x loop.Num) string {
		if math.IsNaN(float64(x)) {
			return "?"
		}
		return fmt.Sprintf("%+.0f", float64(x))
	}
	return fmt.Sprintf("%s [%s, %s]", f(m.Elo), f(m.Low), f(m.High))
}
