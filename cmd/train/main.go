// Command train fits evaluators to game records and inspects evaluation files:
//
//	train fit -o net.nnue [flags] FILES   fit a network to records (JSON Lines or Parquet)
//	train linear [flags] FILES            fit the hand-set value weights to records (JSON out)
//	train label -o DIR [flags] FILES      label positions with a USI engine's deep search (Parquet out)
//	train info FILE                       print an evaluation file's header
//	train loop [flags] RUN                the self-play learning loop, resumable
//	train curve [flags] RUN               plot a loop's learning curve (Elo against generation)
//
// Run train SUBCOMMAND -h for a subcommand's flags.
package main

import (
	"os"

	"github.com/shogilab/shogilab/internal/cli"
)

var program = cli.Program{
	Name:  "train",
	Intro: "train fits the engine's evaluators to game records and writes evaluation files (docs/architecture.md).",
	Commands: []cli.Command{
		{Name: "fit", Summary: "fit an NNUE network to the positions of game records; write an evaluation file", Run: runFit},
		{Name: "linear", Summary: "fit the hand-set evaluation's value weights to game records (Texel-style, L-BFGS); print them as JSON", Run: runLinear},
		{Name: "loop", Summary: "the self-play learning loop: play, fit a candidate, gate it by SPRT, promote or reject; resumable", Run: runLoop, Graceful: true},
		{Name: "curve", Summary: "plot the learning curve of a loop run: Elo of each generation's best against the anchor", Run: runCurve},
		{Name: "label", Summary: "label positions of records and SFEN files with a USI engine's deep search; write a Parquet labels table; sharded, resumable", Run: runLabel, Graceful: true},
		{Name: "info", Summary: "print the header of an evaluation file", Run: runInfo},
	},
}

func main() { os.Exit(program.Run(os.Args[1:], os.Stdout, os.Stderr)) }
