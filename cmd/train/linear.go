package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/train/data"
	"github.com/shogilab/shogilab/train/linfit"
)

// linearSummary is what train linear prints: the fitted weights and the losses.
type linearSummary struct {
	Weights eval.Weights   `json:"weights"`
	Result  linfit.Report  `json:"result"`
	Priors  *linfit.Report `json:"priors,omitempty"` // the prior fit, with -priors
	Lambda  float64        `json:"lambda"`
	File    string         `json:"file,omitempty"`
	Seconds float64        `json:"seconds"`
}

func runLinear(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train linear", flag.ContinueOnError)
	lambda := fs.Float64("lambda", 0.5, "weight of the game's result in the target; the rest is the search's root value")
	heldOut := fs.Float64("held-out", 0.1, "fraction of games held out, chosen by a hash of the game id")
	priors := fs.Bool("priors", true, "also fit the prior weights to the visit shares of the records' searches (positions without them are left out of that fit)")
	out := fs.String("o", "", "write the weights to this linear evaluation `file` (engine/eval/file.go), which the engine loads with EvalFile")
	if err := cli.ParseHelp(fs, args, stdout, "usage: train linear [flags] RECORDS...\n\n"+
		"Fits the value weights of the hand-set evaluation (eval.Weights: piece values on the\n"+
		"board and in hand, king safety, Threat, Tempo) to the positions of game records by\n"+
		"L-BFGS (train/linfit), starting from the defaults; with -priors also the prior weights\n"+
		"(the policy from move features) to the visit shares of the searches, by cross-entropy.\n"+
		"Prints the fitted weights and the losses before and after as JSON, and with -o writes\n"+
		"them to a linear evaluation file for the engine's EvalFile."); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no record files")
	}
	if !(*lambda >= 0 && *lambda <= 1) {
		return cli.Usagef("-lambda %v: need 0 to 1", *lambda)
	}
	if *out != "" {
		if err := cli.CheckOutputFile(*out); err != nil {
			return err
		}
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
	sum := linearSummary{Result: res, Lambda: *lambda, File: *out}
	describe := set.Describe()
	if *priors {
		ps, err := data.LoadPolicy(fs.Args(), data.Options{HeldOut: *heldOut})
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "train: priors: %s\n", ps.Describe())
		if len(ps.Train) == 0 {
			// Records of external engines carry no visits: the value fit alone is asked for.
			fmt.Fprintln(stderr, "train: priors: no searched positions with visits; the prior weights stay as they are")
		} else {
			var pr linfit.Report
			if w, pr, err = linfit.FitPriors(ps.Train, ps.Held, w); err != nil {
				return err
			}
			sum.Priors = &pr
			describe += "; priors: " + ps.Describe()
		}
	}
	sum.Weights = w
	if *out != "" {
		h := eval.FileHeader{Data: describe, Command: "train linear " + strings.Join(args, " ")}
		data, err := eval.MarshalWeights(w, h)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(*out, data); err != nil {
			return err
		}
	}
	sum.Seconds = time.Since(start).Seconds()
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(sum)
}
