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
	initial := fs.String("initial", d.Initial, "the first best network: builtin or an evaluation file")
	openings := fs.String("openings", filepath.Join("datasets", "openings", "balanced.sfen"), "file of start positions (SFEN lines) for every match")
	games := fs.Int("games", d.Games, "self-play games per generation")
	playouts := fs.Int("playouts", d.Playouts, "playouts per move in self-play")
	noise := fs.Float64("noise", d.Noise, "weight of Dirichlet noise in the root priors in self-play")
	temp := fs.Int("temperature-plies", d.TemperaturePlies, "self-play plies whose moves are drawn in proportion to visits")
	maxPlies := fs.Int("max-plies", d.MaxPlies, "play limit of every game: a game reaching it is a draw (0: none)")
	window := fs.Int("window", d.Window, "a fit sees the games of this many latest generations")
	lambda := fs.Float64("lambda", d.Lambda, "weight of the game's result in the target; the rest is the search's root value")
	heldOut := fs.Float64("held-out", d.HeldOut, "fraction of games held out, chosen by a hash of the game id")
	fit := addFitFlags(fs, d.Fit)
	gatePlayouts := fs.Int("gate-playouts", d.GatePlayouts, "playouts per move in the gate match")
	gateGames := fs.Int("gate-games", d.GateGames, "the gate match's bound in games")
	sprtText := fs.String("sprt", "elo0=0,elo1=20", "the gate's SPRT (as match --sprt)")
	anchor := fs.String("anchor", "", "the learning curve's fixed opponent, a player spec (e.g. 'usi:/usr/games/fairy-stockfish,nodes=2000'); default the built-in network at --anchor-playouts")
	anchorPlayouts := fs.Int("anchor-playouts", d.AnchorPlayouts, "playouts per move of the loop's networks (and the default anchor) in anchor matches")
	anchorGames := fs.Int("anchor-games", d.AnchorGames, "games of an anchor match")
	anchorEvery := fs.Int("anchor-every", d.AnchorEvery, "play the anchor every this many generations (and at the last)")
	seed := fs.Uint64("seed", d.Seed, "seed of every random choice of the run")
	parallel := fs.Int("parallel", 1, "games played at once (1 keeps a resumed run identical to an uninterrupted one)")
	slurm := fs.Int("slurm", 0, "play each generation's self-play as a Slurm job array of this many shards (sbatch --wait)")
	selfplayBin := fs.String("selfplay", "", "with --slurm: the selfplay binary, reachable from the compute nodes")
	sbatchArgs := fs.String("sbatch-args", "", "with --slurm: further sbatch flags, space-separated")
	asJSON := fs.Bool("json", false, "print each generation's line (as in RUN/loop.jsonl) instead of a sentence")
	if err := cli.ParseHelp(fs, args, stdout, "usage: train loop [flags] RUN\n\n"+
		"The self-play learning loop (train/loop): each generation the best network plays\n"+
		"itself, a candidate is fitted from its weights to the latest games, an SPRT match\n"+
		"gates it against the best, and the best after the gate plays a fixed anchor for\n"+
		"the learning curve (train curve RUN). RUN holds gen-NNN/ (records, candidate.nnue,\n"+
		"the matches), best.nnue, loop.jsonl (one line per generation) and provenance.json.\n"+
		"Run it again on RUN to resume after a kill: finished steps are not redone."); err != nil {
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
	abs, _ := filepath.Abs(*openings)
	c := d
	c.Dir, c.Generations, c.Initial, c.Openings, c.OpeningsName = fs.Arg(0), *gens, *initial, ops, abs
	c.Games, c.Playouts, c.Noise, c.TemperaturePlies, c.MaxPlies = *games, *playouts, *noise, *temp, *maxPlies
	c.Window, c.Lambda, c.HeldOut = *window, *lambda, *heldOut
	c.Fit = *fit
	c.GatePlayouts, c.GateGames, c.SPRT = *gatePlayouts, *gateGames, test
	c.Anchor, c.AnchorPlayouts, c.AnchorGames, c.AnchorEvery = *anchor, *anchorPlayouts, *anchorGames, *anchorEvery
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
		fmt.Fprintf(&b, "%d games, %d positions; fit on %d examples (%d held out): held-out loss %.4f → %.4f (epoch %d of %d); ",
			g.Games, g.Positions, g.TrainExamples, g.HeldExamples, float64(g.StartHeldLoss), float64(g.HeldLoss), g.BestEpoch, g.Epochs)
		if m := g.Gate; m != nil {
			fmt.Fprintf(&b, "gate +%d =%d -%d, Elo %s, LLR %.2f (%s): %s; ", m.Wins, m.Draws, m.Losses, eloText(m), float64(m.LLR), m.State, g.Result)
		}
	}
	fmt.Fprintf(&b, "best %s", g.After)
	if m := g.Anchor; m != nil {
		fmt.Fprintf(&b, "; against the anchor %s", eloText(m))
		if m.Games > 0 {
			fmt.Fprintf(&b, " (+%d =%d -%d)", m.Wins, m.Draws, m.Losses)
		}
		if m.From > 0 {
			fmt.Fprintf(&b, " (the match of generation %d)", m.From)
		}
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
