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

	"github.com/shogilab/shogilab/datasets/evaluation"
	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/train/data"
	"github.com/shogilab/shogilab/train/netfit"
)

// fitSummary is what train fit reports with --json.
type fitSummary struct {
	File      string         `json:"file"`
	Bytes     int            `json:"bytes"`
	Hidden1   int            `json:"hidden1"`
	Hidden2   int            `json:"hidden2"`
	Policy    int            `json:"policy"`         // the policy head's hidden size (0: none)
	Init      string         `json:"init,omitempty"` // the file the fit started from
	Labelled  int            `json:"labelled"`       // training positions with a policy target
	Games     int            `json:"games"`
	Positions int            `json:"positions"`
	Train     int            `json:"train"`
	Held      int            `json:"held_out"`
	Lambda    float64        `json:"lambda"`
	Epochs    []netfit.Epoch `json:"epochs"`
	BestEpoch int            `json:"best_epoch"`
	HeldLoss  float64        `json:"held_loss"`
	// HeldMetrics is the kept network's figures on the held-out positions (the best
	// epoch's), InitHeld the starting network's, for a fine-tune to be judged against.
	HeldMetrics netfit.Metrics  `json:"held"`
	InitHeld    *netfit.Metrics `json:"init_held,omitempty"`
	LoadSec     float64         `json:"load_seconds"`
	FitSeconds  float64         `json:"fit_seconds"`
}

func runFit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train fit", flag.ContinueOnError)
	d := netfit.DefaultOptions()
	out := fs.String("o", "", "output evaluation file (required)")
	mirror := fs.Bool("mirror", false, "add the mirror image (files reversed) of every training position")
	h1 := fs.Int("hidden1", d.Hidden1, "accumulator size per side")
	h2 := fs.Int("hidden2", d.Hidden2, "hidden layer size")
	policy := fs.Int("policy", defaultPolicy, "the policy head's hidden size (0: a value network alone)")
	policyOnly := fs.Bool("policy-only", false, "with -init: train the policy head alone, the -init network's value and feature transformer kept as they are")
	initFrom := fs.String("init", "", "start from this evaluation file, or builtin (the shipped network): its sizes, its weights; a policy head it lacks, or one of another size than an explicit -policy, is drawn afresh")
	fo := addFitFlags(fs, netfit.DefaultHyper())
	lambda, heldOut := &fo.Lambda, &fo.HeldOut
	seed := fs.Uint64("seed", d.Seed, "seed of the initial weights and the order of positions")
	generation := fs.Int("generation", 0, "generation number written into the file")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object")
	if err := cli.ParseHelp(fs, args, stdout, "usage: train fit -o FILE [flags] RECORDS...\n\n"+
		"Fits a small NNUE network (engine/nnue) to the positions of game records (JSON\n"+
		"Lines, plain or gzip, or Parquet games and positions tables) and of labels tables\n"+
		"(train label): the value's target of a position is lambda·result + (1-lambda)·root\n"+
		"value for the side to move, averaged over its occurrences (a labelled position: the\n"+
		"labeller's value, and the result of its game where known); the policy's, where to\n"+
		"move: the recorded search's visit shares, the move played by an external (usi)\n"+
		"engine, or the labeller's best move (train/data). The loss is the value's squared\n"+
		"error plus policy-weight times the policy's cross-entropy. Games are held out by a\n"+
		"hash of their id, labelled positions by a hash of the position. Adam on\n"+
		"minibatches, the epoch with the least held-out loss is kept. The same inputs, flags\n"+
		"and --threads give the same file, byte for byte."); err != nil {
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
	o := netfit.Options{Hidden1: *h1, Hidden2: *h2, Policy: *policy, Seed: *seed, PolicyOnly: *policyOnly}
	fo.Apply(&o)
	if *initFrom != "" {
		start, err := readInit(*initFrom)
		if err != nil {
			return err
		}
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if (set["hidden1"] && *h1 != start.Hidden1) || (set["hidden2"] && *h2 != start.Hidden2) {
			return cli.Usagef("-hidden1 %d -hidden2 %d: the -init network is %d×%d", *h1, *h2, start.Hidden1, start.Hidden2)
		}
		o.Hidden1, o.Hidden2, o.Start = start.Hidden1, start.Hidden2, start
		if start.Policy != nil {
			if set["policy"] && *policy != start.Policy.Hidden {
				// A head of another size cannot start from the file's: it is drawn
				// afresh, as for a file without one (a larger head on the same
				// accumulator, docs/policy.md).
				fmt.Fprintf(stderr, "train: -policy %d: the -init network's policy head has %d units; a head of %d is drawn afresh\n", *policy, start.Policy.Hidden, *policy)
				start.Policy = nil
			} else {
				o.Policy = start.Policy.Hidden
			}
		}
	}
	if *policyOnly && *initFrom == "" {
		return cli.Usagef("-policy-only needs -init")
	}
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
		fmt.Fprintf(stderr, "train: epoch %d: train loss %.4f, held-out loss %.4f (%s), %.1f s\n", e.N, e.TrainLoss, e.HeldLoss, describeMetrics(e.Held), e.Seconds)
	}
	lam := float32(*lambda)
	samples := netfit.Samples
	if o.Policy > 0 {
		samples = netfit.PolicySamples
	}
	train, held := samples(set.Train, lam), samples(set.Held, lam)
	labelled := 0
	for i := range train {
		if train[i].Probs != nil {
			labelled++
		}
	}
	if o.Policy > 0 && labelled == 0 {
		// An untrained head would give every move a prior drawn at random.
		fmt.Fprintln(stderr, "train: no training position has a policy target: the network gets no policy head")
		o.Policy, o.PolicyOnly = 0, false
		if o.Start != nil && o.Start.Policy != nil {
			o.Start.Policy = nil
		}
	}
	var initHeld *netfit.Metrics
	if o.Start != nil {
		m := netfit.Measure(o.Start, held)
		initHeld = &m
		fmt.Fprintf(stderr, "train: the -init network on the held-out positions: %s\n", describeMetrics(m))
	}
	fitStart := time.Now()
	model, eps, err := netfit.Fit(train, held, o)
	finish()
	if err != nil {
		return err
	}
	fitSec := time.Since(fitStart).Seconds()
	net, err := nnue.Quantise(model, nnue.Header{
		Generation: *generation,
		Data:       fmt.Sprintf("%s; lambda %g; %d with a policy target", set.Describe(), *lambda, labelled),
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
	s := fitSummary{File: *out, Bytes: len(bin), Hidden1: o.Hidden1, Hidden2: o.Hidden2, Policy: o.Policy, Init: *initFrom,
		Labelled: labelled, Games: set.Games, Positions: set.Positions, Train: len(set.Train), Held: len(set.Held),
		Lambda: *lambda, Epochs: eps, HeldLoss: math.Inf(1), InitHeld: initHeld, LoadSec: load, FitSeconds: fitSec}
	for _, e := range eps {
		if e.HeldLoss < s.HeldLoss {
			s.BestEpoch, s.HeldLoss, s.HeldMetrics = e.N, e.HeldLoss, e.Held
		}
	}
	if len(set.Held) == 0 {
		s.BestEpoch, s.HeldLoss = len(eps), 0
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(s)
	}
	fmt.Fprintf(stdout, "%s: %d bytes, %d×%d, policy %d; %d training positions (%d with a policy target), %d held out; best epoch %d of %d, held-out loss %.4f (%s); %.1f s\n",
		*out, len(bin), o.Hidden1, o.Hidden2, o.Policy, len(set.Train), labelled, len(set.Held), s.BestEpoch, len(eps), s.HeldLoss, describeMetrics(s.HeldMetrics), fitSec)
	return nil
}

// defaultPolicy is train fit's policy head size: 8 units. On 726 Fairy-Stockfish games
// (datasets/README.md, the policy head) 16 units did no better held out (cross-entropy
// 2.018 against 2.005, top-1 38.0% against 38.7%) and cost more a node.
const defaultPolicy = 8

// readInit reads the network a fit starts from: an evaluation file, or builtin.
func readInit(name string) (*nnue.Model, error) {
	if name == "builtin" {
		net, err := nnue.Decode(evaluation.Builtin)
		if err != nil {
			return nil, err
		}
		return net.Model(), nil
	}
	net, err := nnue.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return net.Model(), nil
}

// describeMetrics is a model's held-out figures in one phrase.
func describeMetrics(m netfit.Metrics) string {
	s := fmt.Sprintf("value %.4f", m.Value)
	if m.Labelled > 0 && !math.IsNaN(m.Policy) {
		s += fmt.Sprintf(", policy cross-entropy %.4f, top-1 %.3f, top-3 %.3f", m.Policy, m.Top1, m.Top3)
	}
	return s
}

func runInfo(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("train info", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the header as one JSON object")
	if err := cli.ParseHelp(fs, args, stdout, "usage: train info [-json] FILE\n\nPrints the header of an evaluation file, after checking the whole file:\nits value network and its policy head (none in a version 1 file)."); err != nil {
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
		j := headerJSON{File: fs.Arg(0), Version: h.Version, Family: h.Family,
			FeatureSet: h.FeatureSet, Inputs: nnue.NumFeatures, Hidden1: h.Hidden1, Hidden2: h.Hidden2,
			Policy: h.Policy, Generation: h.Generation, Data: h.Data, Command: h.Command}
		if h.Policy > 0 {
			j.MoveFeatureSet, j.MoveFeatures = h.MoveFeatureSet, nnue.NumMoveFeatures
		}
		return json.NewEncoder(stdout).Encode(j)
	}
	policy := "none (the hand-set priors apply)"
	if h.Policy > 0 {
		policy = fmt.Sprintf("%d×2 → %d, move features %s (%d rows)", h.Hidden1, h.Policy, h.MoveFeatureSet, nnue.NumMoveFeatures)
	}
	fmt.Fprintf(stdout, "file:        %s\nversion:     %d\nfamily:      %s\nfeatures:    %s (%d inputs)\nsizes:       %d×2 → %d → 1\npolicy:      %s\ngeneration:  %d\ndata:        %s\ncommand:     %s\n",
		fs.Arg(0), h.Version, h.Family, h.FeatureSet, nnue.NumFeatures, h.Hidden1, h.Hidden2, policy, h.Generation, h.Data, h.Command)
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
	// The policy head: its hidden size (0: none) and move features.
	Policy         int    `json:"policy"`
	MoveFeatureSet string `json:"move_feature_set,omitempty"`
	MoveFeatures   int    `json:"move_features,omitempty"`
	Generation     int    `json:"generation"`
	Data           string `json:"data"`
	Command        string `json:"command"`
}

// addFitFlags adds the flags of a network fit's hyperparameters (netfit.Hyper: Adam on
// minibatches, early stopping, the targets' mix and the held-out split), which train fit
// and train loop share, with d's values as defaults.
func addFitFlags(fs *flag.FlagSet, d netfit.Hyper) *netfit.Hyper {
	o := d
	fs.IntVar(&o.Epochs, "epochs", d.Epochs, "the most passes of a fit over the training positions")
	fs.IntVar(&o.Patience, "patience", d.Patience, "stop a fit after this many epochs without a better held-out loss")
	fs.IntVar(&o.Batch, "batch", d.Batch, "positions per minibatch")
	fs.Float64Var(&o.LearningRate, "lr", d.LearningRate, "Adam's learning rate")
	fs.IntVar(&o.Threads, "threads", d.Threads, "goroutines per minibatch of a fit (the network depends on it, with the seed)")
	fs.Float64Var(&o.Decay, "decay", d.Decay, "weight decay of the first layer's king-square rows (AdamW)")
	fs.Float64Var(&o.PolicyWeight, "policy-weight", d.PolicyWeight, "weight of the policy's cross-entropy against the value's squared error in the loss")
	fs.Float64Var(&o.Lambda, "lambda", d.Lambda, "weight of the game's result in the value's target; the rest is the search's root value")
	fs.Float64Var(&o.HeldOut, "held-out", d.HeldOut, "fraction of games held out, chosen by a hash of the game id")
	return &o
}
