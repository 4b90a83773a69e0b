// Command selfplay plays Minishogi games between engine configurations and
// writes game records (JSON Lines, datasets/README.md), on one machine or as
// one shard of a cluster job array; it merges shards, verifies records with
// the rules and exports games to KIF and CSA.
//
//	selfplay [run flags]                       play (see selfplay -h)
//	selfplay merge -o all.jsonl [--games N] FILES...
//	selfplay verify [--seed N] FILES...
//	selfplay export --format kif|csa|parquet [--id N] [-o DIR] FILES...
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
	"strings"
	"syscall"
)

// exitInterrupted is the exit status after SIGINT or SIGTERM (128 + SIGINT,
// the shell's convention), so that a batch script can tell a clean stop that
// must be resumed from a finished shard.
const exitInterrupted = 130

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd, rest := "run", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, rest = args[0], args[1:]
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch cmd {
	case "run":
		err = runPlay(ctx, rest, stdout, stderr)
	case "merge":
		err = runMerge(rest, stdout)
	case "verify":
		err = runVerify(rest, stdout)
	case "export":
		err = runExport(rest, stdout)
	case "openings":
		err = runOpenings(ctx, rest, stdout, stderr)
	case "help":
		fmt.Fprint(stdout, topUsage)
		return 0
	default:
		err = fmt.Errorf("unknown command %q (want run, merge, verify, export or openings; selfplay -h)", cmd)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "selfplay") {
		msg = "selfplay: " + msg
	}
	fmt.Fprintln(stderr, msg)
	if ctx.Err() != nil {
		return exitInterrupted
	}
	return 1
}

const topUsage = `selfplay plays Minishogi games and writes records (JSON Lines, datasets/README.md).

Usage:
  selfplay [run] [flags]                          play games (selfplay run -h for the flags)
  selfplay merge -o OUT [--games N] FILES...      combine shard files; fails on a missing or duplicate id
  selfplay verify [--seed N] FILES...             replay every record with the rules
  selfplay export --format kif|csa|parquet FILES... write games as KIF or CSA, or as Parquet tables
  selfplay openings -o FILE [--count N]           make a suite of balanced openings (random walks judged by an engine)
`

// parseFlags parses args with fs, printing usage on -h and turning a bad
// flag into a one-line error.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer, usage string) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return err
	}
	if err != nil {
		return fmt.Errorf("selfplay %s: %v", fs.Name(), err)
	}
	return nil
}
