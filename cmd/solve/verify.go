package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"strings"
	"sync"
	"time"

	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/solver"
	"github.com/shogilab/shogilab/usi"
)

type verifyReport struct {
	File     string  `json:"file"`
	Kind     string  `json:"kind"` // "proof" (an upper bound) or "certificate" (a lower bound)
	SFEN     string  `json:"sfen"`
	Attacker string  `json:"attacker"`
	Plies    int     `json:"plies"`
	Entries  int     `json:"entries"`
	OK       bool    `json:"ok"`
	Claim    string  `json:"claim"`
	Hole     string  `json:"first_hole,omitempty"`
	Seconds  float64 `json:"seconds"` // the check's time, reading the file not counted
	// USI is the report of --usi: the engine whose legal moves the check used, and how its
	// moves compared with ours (solver.CrossCheck).
	USI *usiReport `json:"usi,omitempty"`
}

type usiReport struct {
	Engine        string                `json:"engine"`
	Positions     int                   `json:"positions"`
	Asked         int                   `json:"asked"`
	Counted       int                   `json:"counted"`
	Disagreements []solver.Disagreement `json:"disagreements"`
	Unexplained   int                   `json:"unexplained"`
}

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var asJSON bool
	var engine string
	var engines int
	fs := flag.NewFlagSet("solve verify", flag.ContinueOnError)
	fs.BoolVar(&asJSON, "json", false, "print one JSON object instead of the verdict")
	fs.StringVar(&engine, "usi", "", "check with the legal moves of this USI `ENGINE` (a command, e.g. /usr/games/fairy-stockfish) instead of ours")
	fs.IntVar(&engines, "usi-engines", 2, "with --usi, `N` copies of the engine answering at once")
	if err := cli.ParseHelp(fs, args, stdout, `usage: solve verify FILE [--usi ENGINE] [--json]

Checks a proof file (a mate within N plies: an upper bound) or a disproof certificate (no
mate within N plies: a lower bound), plain or compressed (gzip, xz), on its own, with the
rules engine's move generator, and prints the verdict; on failure, the first hole and the
line of moves that reaches it. Exits with status 1 if the file does not hold.

With --usi ENGINE the legal moves of every position the check needs come from another
engine instead (Fairy-Stockfish with UCI_Variant minishogi, asked by "go perft 1", and "go
perft 2" one ply before the deepest, where only whether a move exists matters), in batches,
each position once; each is compared with our move generator, and every position
where the two differ is listed. A pawn drop that mates, which Fairy-Stockfish lists, is
illegal (docs/rules.md) and is left out of its moves; any other difference also exits with
status 1. The formats and the checks are specified in docs/proofs.md.`); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one file, got %d arguments", fs.NArg())
	}
	var argv []string
	if engine != "" {
		if argv = strings.Fields(engine); len(argv) == 0 {
			return cli.Usagef("--usi: no command")
		}
	}
	if engines < 1 || engines > 64 {
		return cli.Usagef("--usi-engines %d: want 1 to 64", engines)
	}
	path := fs.Arg(0)
	f, err := solver.OpenFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// The file is read as a stream, never whole: the readers stop at their stated limits
	// (solver.MaxEntries, MaxLineBytes, MaxFileBytes) and quote bad input by a short prefix.
	r := bufio.NewReader(f)
	format, err := solver.FileFormat(r)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	var src enginePool
	if argv != nil {
		// The copies start at once: a start is mostly waiting, seconds on a loaded machine.
		src = make(enginePool, engines)
		errs := make([]error, engines)
		var wg sync.WaitGroup
		for i := range src {
			wg.Go(func() { src[i], errs[i] = startLegalMoves(ctx, argv) })
		}
		wg.Wait()
		defer src.close()
		for _, err := range errs {
			if err != nil {
				return err // the copies fail alike: one line says it
			}
		}
	}
	// Each format gives its claim, its check with the rules (check) and its check against
	// the engine (crossCheck); the rest is common.
	rep := verifyReport{File: path}
	var check func() error
	var crossCheck func(solver.CrossOptions) (*solver.CrossCheck, error)
	switch format {
	case solver.ProofFormat:
		root, attacker, proof, err := solver.ReadProof(r)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		rep.Kind, rep.SFEN, rep.Attacker, rep.Plies, rep.Entries = "proof", root.SFEN(), colorName(attacker), proof.Plies, len(proof.Moves)
		rep.Claim = fmt.Sprintf("mate in at most %d plies", proof.Plies)
		check = func() error { return solver.CheckProof(root, proof) }
		crossCheck = func(o solver.CrossOptions) (*solver.CrossCheck, error) {
			return solver.CheckProofWith(ctx, src, root, proof, o)
		}
	case solver.CertificateFormat:
		root, attacker, cert, err := solver.ReadCertificate(r)
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		rep.Kind, rep.SFEN, rep.Attacker, rep.Plies, rep.Entries = "certificate", root.SFEN(), colorName(attacker), cert.Plies, len(cert.Replies)
		rep.Claim = fmt.Sprintf("no mate within %d plies", cert.Plies)
		check = func() error { return solver.CheckCertificate(root, cert) }
		crossCheck = func(o solver.CrossOptions) (*solver.CrossCheck, error) {
			return solver.CheckCertificateWith(ctx, src, root, cert, o)
		}
	default:
		return fmt.Errorf("%s: %s files are not checked by verify", path, format)
	}
	var checkErr error
	var cross *solver.CrossCheck
	start := time.Now()
	if argv == nil {
		checkErr = check()
	} else {
		update, finish := cli.NewGrowingProgress(stderr, "positions asked")
		cross, err = crossCheck(solver.CrossOptions{Progress: update})
		finish()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		checkErr = cross.Verdict
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.OK = checkErr == nil
	if checkErr != nil {
		rep.Hole = checkErr.Error()
	}
	if cross != nil {
		rep.USI = &usiReport{Engine: engine, Positions: cross.Positions, Asked: cross.Asked, Counted: cross.Counted,
			Disagreements: cross.Disagreements, Unexplained: cross.Unexplained()}
		if rep.USI.Disagreements == nil {
			rep.USI.Disagreements = []solver.Disagreement{}
		}
	}
	if asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		printVerify(stdout, rep)
	}
	switch {
	case !rep.OK:
		return fmt.Errorf("%s: the %s does not hold", path, rep.Kind)
	case rep.USI != nil && rep.USI.Unexplained > 0:
		return fmt.Errorf("%s: the move generators disagree on %d positions beyond illegal pawn-drop mates", path, rep.USI.Unexplained)
	}
	return nil
}

func printVerify(w io.Writer, rep verifyReport) {
	fmt.Fprintf(w, "file      %s (%s, %d entries)\nposition  %s (attacker %s)\nclaim     %s\n", rep.File, rep.Kind, rep.Entries, rep.SFEN, rep.Attacker, rep.Claim)
	if u := rep.USI; u != nil {
		fmt.Fprintf(w, "moves     from %s: %d positions used, %d listed, %d by their count of moves alone\n", u.Engine, u.Positions, u.Asked, u.Counted)
		for _, d := range u.Disagreements {
			why := "UNEXPLAINED"
			if d.PawnDropMate {
				why = "illegal pawn-drop mate, left out"
			}
			fmt.Fprintf(w, "differ    %s: only %s: %s; only ours: %s (%s)\n", d.SFEN, u.Engine,
				orNone(d.OnlySource), orNone(d.OnlyOurs), why)
		}
		fmt.Fprintf(w, "agree     all but %d positions (%d unexplained)\n", len(u.Disagreements), u.Unexplained)
	}
	fmt.Fprintf(w, "time      %.1f s\n", rep.Seconds)
	if rep.OK {
		fmt.Fprintln(w, "verdict   holds")
	} else {
		fmt.Fprintf(w, "verdict   FAILS: %s\n", rep.Hole)
	}
}

func orNone(moves []string) string {
	if len(moves) == 0 {
		return "none"
	}
	return strings.Join(moves, " ")
}

// enginePool is copies of one engine that answer a batch of positions between them. A
// `go perft 1` is some 0.2 ms of Fairy-Stockfish's work but costs a handover between its
// threads, which on a loaded machine waits for the scheduler (20,000 positions took 29 s of
// wall time and 3.4 s of CPU at a load of 23 on 2 cores): two copies wait at once.
type enginePool []*usi.Client

func (e enginePool) LegalMoves(ctx context.Context, sfens []string) ([][]string, error) {
	return shareOut(ctx, e, sfens, (*usi.Client).LegalMoves)
}

func (e enginePool) ReplyCounts(ctx context.Context, sfens []string) ([]map[string]int64, error) {
	return shareOut(ctx, e, sfens, (*usi.Client).ReplyCounts)
}

// shareOut splits sfens among the pool's engines, asks each its part at once, and returns the
// answers in order.
func shareOut[T any](ctx context.Context, e enginePool, sfens []string, ask func(*usi.Client, context.Context, []string) ([]T, error)) ([]T, error) {
	out := make([]T, len(sfens))
	errs := make([]error, len(e))
	var wg sync.WaitGroup
	part := (len(sfens) + len(e) - 1) / len(e)
	for i, c := range e {
		lo, hi := min(i*part, len(sfens)), min((i+1)*part, len(sfens))
		if lo == hi {
			continue
		}
		wg.Go(func() {
			answers, err := ask(c, ctx, sfens[lo:hi])
			copy(out[lo:hi], answers)
			errs[i] = err
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func (e enginePool) close() {
	for _, c := range e {
		if c != nil {
			c.Close()
		}
	}
}

// startLegalMoves starts the engine of --usi and sets it up for Minishogi: Fairy-Stockfish
// plays many variants and is told which by UCI_Variant (an engine without that option, such
// as ours, plays Minishogi alone).
func startLegalMoves(ctx context.Context, argv []string) (*usi.Client, error) {
	fail := func(err error) error { return fmt.Errorf("--usi %s: %w", strings.Join(argv, " "), err) }
	c, err := usi.Start(ctx, argv)
	if err != nil {
		if errors.Is(err, iofs.ErrNotExist) {
			return nil, fail(errors.New("no such program"))
		}
		return nil, fail(err)
	}
	info, err := c.Handshake(ctx)
	if err == nil {
		if opt, ok := info.Option("UCI_Variant"); ok {
			err = c.SetOption(opt.Name, "minishogi")
		}
	}
	if err == nil {
		err = c.IsReady(ctx)
	}
	if err != nil {
		c.Close()
		return nil, fail(err)
	}
	return c, nil
}
