package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/train/data"
	"github.com/shogilab/shogilab/train/linfit"
)

// linearSummary is what train linear prints: the fitted weights and the losses.
type linearSummary struct {
	Weights eval.Weights  `json:"weights"`
	Result  linfit.Result `json:"result"`
	Lambda  float64       `json:"lambda"`
	Seconds float64       `json:"seconds"`
}

func runLinear(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train linear", flag.ContinueOnError)
	lambda := fs.Float64("lambda", 0.5, "weight of the game's result in the target; the rest is the search's root value")
	heldOut := fs.Float64("held-out", 0.1, "fraction of games held out, chosen by a hash of the game id")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: train linear [flags] RECORDS...\n\n"+
			"Fits the value weights of the hand-set evaluation (eval.Weights: piece values on the\n"+
			"board and in hand, king safety, Threat, Tempo) to the positions of game records by\n"+
			"L-BFGS (train/linfit), starting from the defaults, and prints the fitted weights and\n"+
			"the losses before and after as JSON. The engine does not load them yet.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no record files")
	}
	if !(*lambda >= 0 && *lambda <= 1) {
		return cli.Usagef("-lambda %v: need 0 to 1", *lambda)
	}
	start := time.Now()
	set, err := data.Load(fs.Args(), data.Options{HeldOut: *heldOut})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "train: %s\n", set.Describe())
	w, res, err := linfit.Fit(set.Train, set.Held, eval.DefaultWeights(), float32(*lambda))
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(linearSummary{Weights: w, Result: res, Lambda: *lambda, Seconds: time.Since(start).Seconds()})
}
