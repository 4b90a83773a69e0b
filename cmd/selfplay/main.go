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
	"io"
	"os"

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
// an interrupt does (a cluster scheduler's stop): every subcommand stops on its own, leaving
// whole records and no partial file under a final name, and exits with status 130.
func run(args []string, stdout, stderr io.Writer) int {
	program := cli.Program{
		Name:    "selfplay",
		Intro:   "selfplay plays Minishogi games and writes records (JSON Lines, datasets/README.md).",
		Default: "run",
		Commands: []cli.Command{
			{Name: "run", Summary: "play games (selfplay run -h for the flags)", Run: runPlay, Graceful: true},
			{Name: "merge", Summary: "combine shard files; fails on a missing or duplicate id", Run: runMerge, Graceful: true},
			{Name: "verify", Summary: "replay every record with the rules", Run: runVerify, Graceful: true},
			{Name: "export", Summary: "write games as KIF or CSA, or as Parquet tables", Run: runExport, Graceful: true},
			{Name: "openings", Summary: "make a suite of balanced openings (random walks judged by an engine)", Run: runOpenings, Graceful: true},
		},
	}
	return program.Run(args, stdout, stderr)
}
