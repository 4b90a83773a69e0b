package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/internal/shard"

	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/train/label"
	"github.com/shogilab/shogilab/train/labels"
)

// labelSummary is what train label reports with --json.
type labelSummary struct {
	label.Summary
	Found    int `json:"found"`    // positions found in the sources, duplicates included
	Distinct int `json:"distinct"` // distinct positions with a legal move
	NoMove   int `json:"no_move"`  // positions found without a legal move (not labelled)
	List     int `json:"list"`     // positions in the run's list (all shards), after --sample and --limit
}

// defaultLabeller is Fairy-Stockfish at depth 10 on one thread (issue 31: some 15 ms a
// position here).
const defaultLabeller = "usi:fairy-stockfish,depth=10,option.Threads=1,option.Hash=16"

func runLabel(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train label", flag.ContinueOnError)
	out := fs.String("o", "", "output directory of the shard's table, labels-I-of-N.parquet (required)")
	engineSpec := fs.String("engine", defaultLabeller, "the labeller: a USI engine spec with depth or nodes, as selfplay's --sente")
	shardFlag := fs.String("shard", "", "this process's shard i/n (default: from Slurm or Kubernetes, else 0/1)")
	shards := fs.Int("shards", 0, "shard count of the run, with a Slurm array task's or a Kubernetes Indexed Job's index as the shard")
	block := fs.Int("block", label.DefaultBlock, "positions labelled by each process of the engine (part of what the labels depend on)")
	keepState := fs.Bool("keep-state", false, "usinewgame before a block's first position only: the engine keeps its hash between positions (about half the CPU at depth 8; part of what the labels depend on)")
	sample := fs.Float64("sample", 0, "keep each distinct position with this probability, by a hash of the position and --seed (0: all)")
	seed := fs.Uint64("seed", 1, "seed of --sample")
	limit := fs.Int("limit", 0, "label only the first N positions of the list (0: all)")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object")
	if err := cli.ParseHelp(fs, args, stdout, "usage: train label -o DIR [flags] FILES...\n\n"+
		"Labels positions with a deep search of a USI engine (Fairy-Stockfish by default) and\n"+
		"writes them as a Parquet labels table (datasets/README.md, \"The labels table\"): the\n"+
		"best move, the score (centipawns or mate) and its value, depth, nodes, and where the\n"+
		"position comes from. FILES are record files (JSON Lines, plain or gzip), games tables\n"+
		"(.parquet) and SFEN files (.sfen, .sfen.gz, one position a line, as\n"+
		"datasets/openings/book.sfen.gz). Every position of every game, and every line of an\n"+
		"SFEN file, is taken once (by board, hands and side to move), in the order of the\n"+
		"files; positions without a legal move are left out. The list is cut into blocks of\n"+
		"--block positions, each labelled by a new process of the engine, usinewgame before\n"+
		"each position (--keep-state: before a block's first only); a shard labels its share\n"+
		"of the blocks. Rows go to a journal as they are labelled: run the same command\n"+
		"again after a kill to resume. The finished shard's journal becomes its table."); err != nil {
		return err
	}
	switch {
	case *out == "":
		return cli.Usagef("-o DIR is required")
	case fs.NArg() == 0:
		return cli.Usagef("no files of positions (record files, games tables, SFEN files)")
	case *block < 1:
		return cli.Usagef("--block %d: need at least 1", *block)
	case !(*sample >= 0 && *sample <= 1):
		return cli.Usagef("--sample %v: need 0 to 1", *sample)
	case *limit < 0:
		return cli.Usagef("--limit %d is negative", *limit)
	}
	lab, err := label.ParseLabeller(*engineSpec)
	if err != nil {
		return cli.Usagef("--engine: %v", err)
	}
	lab.KeepState = *keepState
	for _, f := range fs.Args() {
		if st, err := os.Stat(f); err != nil {
			return cli.Usagef("%v", err)
		} else if st.IsDir() {
			return cli.Usagef("%s is a directory, not a file of positions", f)
		}
	}
	part, ok, err := shard.Select(*shardFlag, *shards, os.Getenv)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if !ok {
		part = shard.Whole
	}
	if err := cli.CheckOutputDir(*out); err != nil {
		return err
	}
	name, options, err := lab.Identify(ctx)
	if err != nil {
		return err
	}

	positions, st, err := label.Collect(label.Sources{Files: fs.Args(), Name: displayPath, Sample: *sample, Seed: *seed, Limit: *limit, Context: ctx})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "train: %d positions from %d games and %d SFEN lines (%d distinct, %d without a move); %d to label, shard %s\n",
		st.Found, st.Games, st.Lines, st.Distinct, st.NoMove, st.Positions, part)
	cmd := []string{"train label", "--engine", lab.String(), "--block", strconv.Itoa(*block)}
	if *keepState {
		cmd = append(cmd, "--keep-state")
	}
	if *sample > 0 {
		cmd = append(cmd, "--sample", strconv.FormatFloat(*sample, 'g', -1, 64), "--seed", strconv.FormatUint(*seed, 10))
	}
	if *limit > 0 {
		cmd = append(cmd, "--limit", strconv.Itoa(*limit))
	}
	for _, f := range fs.Args() {
		cmd = append(cmd, displayPath(f))
	}
	run := label.Run{
		Labeller: lab, Positions: positions, Shard: part, Block: *block, Dir: *out,
		Provenance: labels.Provenance{Command: strings.Join(cmd, " "), Labeller: name, Options: options},
	}
	lo, hi := run.Span()
	update, finish := cli.NewProgress(stderr, hi-lo, "labelling")
	run.OnRow = func(done, _ int) { update(done) }
	sum, err := run.Do(ctx)
	finish()
	if err != nil {
		return err
	}
	s := labelSummary{Summary: sum, Found: st.Found, Distinct: st.Distinct, NoMove: st.NoMove, List: st.Positions}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(s)
	}
	fmt.Fprintf(stdout, "%s: shard %s, %d positions (%d kept from before, %d labelled in %.1f s, %.1f a second)\n",
		sum.File, sum.Shard, sum.Positions, sum.Kept, sum.Labelled, sum.Seconds, sum.PerSecond)
	return nil
}

// displayPath is a file's name in the table (its source column and its command line):
// the path as given when relative, an absolute path relative to the working directory
// when inside it, else its base name, so that no machine's directories are recorded.
func displayPath(path string) string {
	if !filepath.IsAbs(path) {
		return filepath.ToSlash(filepath.Clean(path))
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(path)
}
