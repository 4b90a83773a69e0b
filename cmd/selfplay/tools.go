package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/selfplay"
)

const mergeUsage = `usage: selfplay merge -o OUT [--games N] [--json] FILES...

Combines shard files into OUT (gzip when it ends in .gz), sorted by id. Fails,
writing nothing, when an id is in two files or missing (ids 0..N-1 with
--games, else 0..the largest id found), or a file ends in a partial record.`

func runMerge(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	out := fs.String("o", "", "merged output file (required)")
	games := fs.Int("games", 0, "games the run must hold, ids 0..N-1 (0: up to the largest id)")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object")
	if err := cli.ParseHelp(fs, args, stdout, mergeUsage); err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("-o OUT is required")
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no input files")
	}
	if err := cli.CheckOutputFile(*out); err != nil {
		return err
	}
	sum, err := selfplay.Merge(ctx, fs.Args(), *out, *games)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(sum)
	}
	_, err = fmt.Fprintf(stdout, "merged %d games from %d files into %s\n", sum.Games, sum.Files, sum.Out)
	return err
}

const verifyUsage = `usage: selfplay verify [--seed N] [--json] FILES...

Replays every record with the rules: legal moves, and the termination, result
and plies the moves lead to. Stops at the first bad record, naming its file
and line.`

func runVerify(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	seed := fs.String("seed", "", "also check that the seeds are those of this base seed")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object")
	if err := cli.ParseHelp(fs, args, stdout, verifyUsage); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usagef("no input files")
	}
	var opts selfplay.VerifyOptions
	if *seed != "" {
		if _, err := fmt.Sscan(*seed, &opts.Seed); err != nil {
			return cli.Usagef("--seed %q is not a number", *seed)
		}
		opts.CheckSeeds = true
	}
	sum, err := selfplay.Verify(ctx, fs.Args(), opts)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(sum)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ok\t%d games, %d plies, %d files\n", sum.Games, sum.Plies, sum.Files)
	fmt.Fprintf(tw, "results\tsente %d, gote %d, draw %d\n", sum.Results[record.Sente], sum.Results[record.Gote], sum.Results[record.Draw])
	for _, t := range slices.Sorted(maps.Keys(sum.Terminations)) {
		fmt.Fprintf(tw, "  %s\t%d\n", t, sum.Terminations[t])
	}
	return tw.Flush()
}
