package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/train/data"
	"github.com/shogilab/shogilab/train/loop"
	"github.com/shogilab/shogilab/train/netfit"
)

// fitSummary is what train fit reports with --json.
type fitSummary struct {
	File       string         `json:"file"`
	Bytes      int            `json:"bytes"`
	Hidden1    int            `json:"hidden1"`
	Hidden2    int            `json:"hidden2"`
	Games      int            `json:"games"`
	Positions  int            `json:"positions"`
	Train      int            `json:"train"`
	Held       int            `json:"held_out"`
	Lambda     float64        `json:"lambda"`
	Epochs     []netfit.Epoch `json:"epochs"`
	BestEpoch  int            `json:"best_epoch"`
	HeldLoss   float64        `json:"held_loss"`
	LoadSec    float64        `json:"load_seconds"`
	FitSeconds float64        `json:"fit_seconds"`
}

func runFit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train fit", flag.ContinueOnError)
	d := netfit.DefaultOptions()
	out := fs.String("o", "", "output evaluation file (required)")
	lambda := fs.Float64("lambda", 0.5, "weight of the game's result in the target; the rest is the search's root value")
	heldOut := fs.Float64("held-out", 0.1, "fraction of games held out, chosen by a hash of the game id")
	mirror := fs.Bool("mirror", false, "add the mirror image (files reversed) of every training position")
	h1 := fs.Int("hidden1", d.Hidden1, "accumulator size per side")
	h2 := fs.Int("hidden2", d.Hidden2, "hidden layer size")
	fo := addFitFlags(fs, loop.FitOptions{Epochs: d.Epochs, Patience: d.Patience, Batch: d.Batch,
		LearningRate: d.LearningRate, Threads: d.Threads, Decay: d.Decay})
	seed := fs.Uint64("seed", d.Seed, "seed of the initial weights and the order of positions")
	generation := fs.Int("generation", 0, "generation number written into the file")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: train fit -o FILE [flags] RECORDS...\n\n"+
			"Fits a small NNUE network (engine/nnue) to the positions of game records (JSON\n"+
			"Lines, plain or gzip, or Parquet tables): the target of a position is\n"+
			"lambda·result + (1-lambda)·root value for the side to move, averaged over its\n"+
			"occurrences; games are held out by a hash of their id. Adam on minibatches, the\n"+
			"epoch with the least held-out loss is kept. The same records, flags and\n"+
			"--threads give the same file, byte for byte.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args, stdout); err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("-o FILE is required")
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no record files")
	}
	if !(*lambda >= 0 && *lambda <= 1) {
		return cli.Usagef("-lambda %v: need 0 to 1", *lambda)
	}
	o := netfit.Options{Hidden1: *h1, Hidden2: *h2, Epochs: fo.Epochs, Patience: fo.Patience, Batch: fo.Batch,
		LearningRate: fo.LearningRate, Threads: fo.Threads, Seed: *seed, Decay: fo.Decay}
	if err := o.Validate(); err != nil {
		// Before the records are read: a bad flag is a usage error.
		return cli.Usagef("%v", err)
	}
	if err := cli.CheckOutputFile(*out); err != nil {
		return err
	}
	start := time.Now()
	fmt.Fprintf(stderr, "train: reading %d files\n", fs.NArg())
	set, err := data.Load(fs.Args(), data.Options{HeldOut: *heldOut, Mirror: *mirror})
	if err != nil {
		return err
	}
	load := time.Since(start).Seconds()
	fmt.Fprintf(stderr, "train: %s\n", set.Describe())
	total := fo.Epochs * ((len(set.Train) + fo.Batch - 1) / max(fo.Batch, 1))
	update, finish := cli.NewProgress(stderr, total, "training")
	o.OnBatch = func(done, _ int) { update(done) }
	o.OnEpoch = func(e netfit.Epoch) {
		fmt.Fprintf(stderr, "train: epoch %d: train loss %.4f, held-out loss %.4f, %.1f s\n", e.N, e.TrainLoss, e.HeldLoss, e.Seconds)
	}
	lam := float32(*lambda)
	fitStart := time.Now()
	model, eps, err := netfit.Fit(netfit.Samples(set.Train, lam), netfit.Samples(set.Held, lam), o)
	finish()
	if err != nil {
		return err
	}
	fitSec := time.Since(fitStart).Seconds()
	net, err := nnue.Quantise(model, nnue.Header{
		Generation: *generation,
		Data:       fmt.Sprintf("%s; lambda %g", set.Describe(), *lambda),
		Command:    "train fit " + strings.Join(args, " "),
	})
	if err != nil {
		return err
	}
	bin, err := net.MarshalBinary()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(*out, bin); err != nil {
		return err
	}
	s := fitSummary{File: *out, Bytes: len(bin), Hidden1: *h1, Hidden2: *h2, Games: set.Games, Positions: set.Positions,
		Train: len(set.Train), Held: len(set.Held), Lambda: *lambda, Epochs: eps, HeldLoss: math.Inf(1), LoadSec: load, FitSeconds: fitSec}
	for _, e := range eps {
		if e.HeldLoss < s.HeldLoss {
			s.BestEpoch, s.HeldLoss = e.N, e.HeldLoss
		}
	}
	if len(set.Held) == 0 {
		s.BestEpoch, s.HeldLoss = len(eps), 0
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(s)
	}
	fmt.Fprintf(stdout, "%s: %d bytes, %d×%d; %d training positions, %d held out; best epoch %d of %d, held-out loss %.4f; %.1f s\n",
		*out, len(bin), *h1, *h2, len(set.Train), len(set.Held), s.BestEpoch, len(eps), s.HeldLoss, fitSec)
	return nil
}

func runInfo(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("train info", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the header as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: train info [-json] FILE\n\nPrints the header of an evaluation file, after checking the whole file.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one evaluation file, got %d arguments", fs.NArg())
	}
	net, err := nnue.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	h := net.Header
	if *asJSON {
		return json.NewEncoder(stdout).Encode(headerJSON{File: fs.Arg(0), Version: h.Version, Family: h.Family,
			FeatureSet: h.FeatureSet, Inputs: nnue.NumFeatures, Hidden1: h.Hidden1, Hidden2: h.Hidden2,
			Generation: h.Generation, Data: h.Data, Command: h.Command})
	}
	fmt.Fprintf(stdout, "file:        %s\nversion:     %d\nfamily:      %s\nfeatures:    %s (%d inputs)\nsizes:       %d×2 → %d → 1\ngeneration:  %d\ndata:        %s\ncommand:     %s\n",
		fs.Arg(0), h.Version, h.Family, h.FeatureSet, nnue.NumFeatures, h.Hidden1, h.Hidden2, h.Generation, h.Data, h.Command)
	return nil
}

// headerJSON is train info's JSON: the header's fields under snake_case keys, as every
// command's JSON has them (docs/architecture.md#commands). nnue.Header has no tags of its
// own: a loop run's provenance.json (datasets/loop) keeps it under its Go field names.
type headerJSON struct {
	File       string `json:"file"`
	Version    int    `json:"version"`
	Family     string `json:"family"`
	FeatureSet string `json:"feature_set"`
	Inputs     int    `json:"inputs"`
	Hidden1    int    `json:"hidden1"`
	Hidden2    int    `json:"hidden2"`
	Generation int    `json:"generation"`
	Data       string `json:"data"`
	Command    string `json:"command"`
}

// addFitFlags adds the flags of a network fit's optimiser (Adam on minibatches, early
// stopping), which train fit and train loop share, with d's values as defaults.
func addFitFlags(fs *flag.FlagSet, d loop.FitOptions) *loop.FitOptions {
	o := d
	fs.IntVar(&o.Epochs, "epochs", d.Epochs, "the most passes of a fit over the training positions")
	fs.IntVar(&o.Patience, "patience", d.Patience, "stop a fit after this many epochs without a better held-out loss")
	fs.IntVar(&o.Batch, "batch", d.Batch, "positions per minibatch")
	fs.Float64Var(&o.LearningRate, "lr", d.LearningRate, "Adam's learning rate")
	fs.IntVar(&o.Threads, "threads", d.Threads, "goroutines per minibatch of a fit (the network depends on it, with the seed)")
	fs.Float64Var(&o.Decay, "decay", d.Decay, "weight decay of the first layer's king-square rows (AdamW)")
	return &o
}
