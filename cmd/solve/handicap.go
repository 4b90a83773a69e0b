package main

import (
	"context"

	"github.com/shogilab/shogilab/internal/cli"

	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/shogilab/shogilab/rules/minishogi"
)

func runHandicap(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f mateFlags
	fs := flag.NewFlagSet("solve handicap", flag.ContinueOnError)
	f.register(fs)
	split := fs.Int("split", 0, "instead of solving, write the subproblems after `K` plies to --split-file (see solve shard, solve merge)")
	splitFile := fs.String("split-file", "", "with --split: the subproblem `FILE` (default NAME.split)")
	names := strings.Join(minishogi.HandicapNames(), ", ")
	if err := cli.ParseHelp(fs, args, stdout, `usage: solve handicap NAME [flags]

Solves a Minishogi handicap start (`+names+`): the shortest
forced mate of Sente, the handicap receiver, against Gote, who moves first. See solve mate
for the methods and the output.`); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one handicap name (%s), got %d arguments", names, fs.NArg())
	}
	root, err := minishogi.Handicap(fs.Arg(0))
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if *split > 0 {
		path := *splitFile
		if path == "" {
			path = fs.Arg(0) + ".split"
		}
		if err := cli.CheckOutputFile(path); err != nil {
			return fmt.Errorf("--split-file: %w", err)
		}
		return writeSplit(path, fs.Arg(0), root, minishogi.Sente, *split, f.maxPlies, stdout)
	}
	return solveMate(ctx, f, fs.Arg(0), root, minishogi.Sente, stdout, stderr)
}
