package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/selfplay"
)

const openingsUsage = `usage: selfplay openings -o FILE [flags]

Makes a suite of balanced openings: random walks from the start position, each
kept when a judge engine (by default Fairy-Stockfish at depth 14, one thread)
scores it within --margin centipawns for the side to move. Walk i follows from
--seed and i alone, and the judge is asked at a depth with a cleared hash, so the
same flags give the same file, and a smaller --count a prefix of it, whatever
--parallel. The file has one SFEN a line, with the walk and the score after '#'
(gzip-compressed when FILE ends in .gz); match and selfplay read it with
--start @FILE. Every verdict goes to a journal (FILE.journal unless --journal
names one) as it comes, so a killed run resumes where it stopped; the default
journal is removed once FILE is written.`

// defaultJudge is Fairy-Stockfish at depth 14 with one thread: deterministic, and some
// tenths of a second a position.
const defaultJudge = "usi:fairy-stockfish,depth=14,option.Threads=1,option.Hash=16"

func runOpenings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("openings", flag.ContinueOnError)
	out := fs.String("o", "", "output file (required)")
	count := fs.Int("count", 100, "openings to keep")
	plies := fs.String("plies", "2-8", "length of the random walks, MIN-MAX plies")
	judge := fs.String("judge", defaultJudge, "the engine that judges a position: a usi player spec with a depth or node limit")
	margin := fs.Int("margin", 100, "keep a position scored within ±margin centipawns for the side to move")
	seed := fs.Uint64("seed", 1, "seed of the walks")
	parallel := fs.Int("parallel", 1, "judges at once (a core each)")
	journal := fs.String("journal", "", "file of the verdicts so far, kept (default: FILE.journal, removed at the end)")
	asJSON := fs.Bool("json", false, "print a summary as one JSON object")
	if err := cli.ParseHelp(fs, args, stdout, openingsUsage); err != nil {
		return err
	}
	switch {
	case *out == "":
		return cli.Usagef("-o FILE is required")
	case fs.NArg() > 0:
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	case *parallel < 1:
		return cli.Usagef("--parallel %d: need at least 1", *parallel)
	}
	keepJournal := *journal != ""
	if !keepJournal {
		*journal = *out + ".journal"
	}
	if err := cli.CheckOutputFile(*out); err != nil {
		return err
	}
	lo, hi, ok := strings.Cut(*plies, "-")
	minPlies, err1 := strconv.Atoi(lo)
	maxPlies, err2 := strconv.Atoi(hi)
	if !ok || err1 != nil || err2 != nil {
		return cli.Usagef("--plies %q is not MIN-MAX, as 2-8", *plies)
	}
	spec, err := selfplay.ParsePlayerSpec(resolveFSF(*judge), selfplay.PlayerSpec{})
	if err != nil {
		return fmt.Errorf("%w (--judge)", err)
	}
	if err := spec.CheckEngine(ctx); err != nil {
		return err
	}
	began := time.Now()
	walks := 0
	progress := newProgress(stderr, "openings", 10*time.Second)
	search := selfplay.OpeningSearch{
		Count: *count, MinPlies: minPlies, MaxPlies: maxPlies, Judge: spec, Margin: *margin, Seed: *seed,
		Parallel: *parallel, Journal: *journal,
		Progress: func(kept, w int) {
			walks = w
			progress.update(selfplay.Progress{Done: kept, Total: *count, Elapsed: time.Since(began)})
		},
	}
	openings, err := selfplay.GenerateOpenings(ctx, search)
	progress.finish()
	if err != nil {
		return err
	}
	header := []string{
		fmt.Sprintf("%d balanced Minishogi openings: random walks of %s plies from the start position, kept when", len(openings), *plies),
		fmt.Sprintf("the judge scores them within ±%d centipawns for the side to move; %d walks.", *margin, walks),
		fmt.Sprintf("Made by: selfplay openings -o %s --count %d --plies %s --margin %d --seed %d --judge '%s'", filepath.Base(*out), *count, *plies, *margin, *seed, *judge),
		fmt.Sprintf("Each line: SFEN # the walk's moves, the judge's score in centipawns, the walk's number, and its block: the %d positions judged", selfplay.JudgeBlock),
		"one after another by one new process of the judge (selfplay.OpeningSearch.JudgeBlock judges a block again).",
	}
	if err := atomicfile.Write(*out, func(w io.Writer) error {
		if strings.HasSuffix(*out, ".gz") {
			zw := gzip.NewWriter(w)
			if err := selfplay.WriteOpenings(zw, header, openings); err != nil {
				return err
			}
			return zw.Close()
		}
		return selfplay.WriteOpenings(w, header, openings)
	}); err != nil {
		return err
	}
	if !keepJournal {
		os.Remove(*journal)
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(struct {
			File     string  `json:"file"`
			Openings int     `json:"openings"`
			Walks    int     `json:"walks"`
			Seconds  float64 `json:"seconds"`
		}{*out, len(openings), walks, time.Since(began).Seconds()})
	}
	_, err = fmt.Fprintf(stdout, "%d openings of %d walks in %s (%.0f s)\n", len(openings), walks, *out, time.Since(began).Seconds())
	return err
}

// resolveFSF lets the default judge name fairy-stockfish without a path: Debian installs
// it in /usr/games, which is not on every PATH.
func resolveFSF(spec string) string {
	const name = "usi:fairy-stockfish,"
	if !strings.HasPrefix(spec, name) {
		return spec
	}
	if _, err := os.Stat("/usr/games/fairy-stockfish"); err == nil {
		if _, err := exec.LookPath("fairy-stockfish"); err != nil {
			return "usi:/usr/games/fairy-stockfish," + strings.TrimPrefix(spec, name)
		}
	}
	return spec
}
