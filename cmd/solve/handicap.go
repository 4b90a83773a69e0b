package main

import (
	"context"

	"github.com/shogilab/shogilab/internal/cli"

	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/solver"
)

func runHandicap(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f mateFlags
	fs := flag.NewFlagSet("solve handicap", flag.ContinueOnError)
	f.register(fs)
	split := fs.Int("split", 0, "instead of solving, write the subproblems after `K` plies to --split-file (see solve shard, solve merge)")
	splitFile := fs.String("split-file", "", "with --split: the subproblem `FILE` (default NAME.split)")
	splitReplies := fs.String("split-replies", "", "with --split: follow only the defender's replies of the certificate `CERT` above the subproblems (a split that can show a lower bound only)")
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
		var fixed map[minishogi.Code]minishogi.Move
		if *splitReplies != "" {
			if fixed, err = readFixedReplies(*splitReplies, root, minishogi.Sente); err != nil {
				return err
			}
		}
		return writeSplit(path, fs.Arg(0), root, minishogi.Sente, *split, f.maxPlies, fixed, stdout)
	}
	if *splitReplies != "" {
		return cli.Usagef("--split-replies is for a split (--split K)")
	}
	return solveMate(ctx, f, fs.Arg(0), root, minishogi.Sente, stdout, stderr)
}

// readFixedReplies reads the defender's replies of a certificate of root's, for
// --split-replies.
func readFixedReplies(path string, root minishogi.Position, attacker minishogi.Color) (map[minishogi.Code]minishogi.Move, error) {
	f, err := solver.OpenFile(path)
	if err != nil {
		return nil, fmt.Errorf("--split-replies: %w", err)
	}
	defer f.Close()
	croot, cattacker, cert, err := solver.ReadCertificate(f)
	if err != nil {
		return nil, fmt.Errorf("--split-replies: %s: %w", path, err)
	}
	if croot.Code() != root.Code() || cattacker != attacker {
		return nil, fmt.Errorf("--split-replies: %s: a certificate of %s with attacker %v, not of %s with attacker %v", path, croot.SFEN(), cattacker, root.SFEN(), attacker)
	}
	return cert.Replies, nil
}
