// Command selfplay plays Minishogi games between engine configurations and
// writes game records (JSON Lines, datasets/README.md), on one machine or as
// one shard of a cluster job array; it merges shards, verifies records with
// the rules and exports games to KIF and CSA.
//
//	selfplay [run flags]                       play (see selfplay -h)
//	selfplay merge -o all.jsonl [--games N] FILES...
//	selfplay verify [--seed N] FILES...
//	selfplay export --format kif|csa|parquet [--id N] [--out DIR] FILES...
//	selfplay openings -o FILE [--count N] [--judge SPEC] [--margin CP]
//
// The work is in package selfplay; this file is flags, wiring and output.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/shogilab/shogilab/internal/cli"
)

// exitInterrupted is the exit status after SIGINT or SIGTERM (128 + SIGINT, the shell's
// convention), so that a batch script can tell a clean stop that must be resumed from a
// finished shard.
const exitInterrupted = cli.ExitInterrupted

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status. SIGTERM stops the work as
// an interrupt does (a cluster scheduler's stop).
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// interruptible reports a failure after an interrupt as the interrupt (exit 130).
	interruptible := func(err error) error {
		if err != nil && ctx.Err() != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("%w: %v", ctx.Err(), err)
		}
		return err
	}
	program := cli.Program{
		Name:    "selfplay",
		Intro:   "selfplay plays Minishogi games and writes records (JSON Lines, datasets/README.md).",
		Default: "run",
		Commands: []cli.Command{
			{Name: "run", Summary: "play games (selfplay run -h for the flags)", Run: func(args []string, stdout, stderr io.Writer) error {
				return interruptible(runPlay(ctx, args, stdout, stderr))
			}},
			{Name: "merge", Summary: "combine shard files; fails on a missing or duplicate id", Run: func(args []string, stdout, stderr io.Writer) error {
				return runMerge(args, stdout)
			}},
			{Name: "verify", Summary: "replay every record with the rules", Run: func(args []string, stdout, stderr io.Writer) error {
				return runVerify(args, stdout)
			}},
			{Name: "export", Summary: "write games as KIF or CSA, or as Parquet tables", Run: func(args []string, stdout, stderr io.Writer) error {
				return runExport(args, stdout)
			}},
			{Name: "openings", Summary: "make a suite of balanced openings (random walks judged by an engine)", Run: func(args []string, stdout, stderr io.Writer) error {
				return interruptible(runOpenings(ctx, args, stdout, stderr))
			}},
		},
	}
	return program.Run(args, stdout, stderr)
}

// parseFlags parses args with fs, printing usage on -h and turning a bad
// flag into a one-line error.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer, usage string) error {
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return cli.ParseFlags(fs, args, stdout)
}
