// Command usi is the shogilab Minishogi engine, speaking USI on stdin and stdout.
//
//	go run ./cmd/usi
//	usi
//	position startpos moves 2e3d
//	go perft 3
//	go movetime 1000
//	d
//	quit
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

func main() {
	os.Exit(cli.RunOne(cli.Command{Name: "usi", Run: serve}, os.Args[1:], os.Stdout, os.Stderr))
}

// serve is the command: -perft counts and exits, else the engine serves USI on stdin.
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("usi", flag.ContinueOnError)
	perft := fs.Int("perft", 0, "instead of serving USI, count the leaves at this depth, print the speed, and exit")
	sfen := fs.String("sfen", minishogi.StartSFEN, "with -perft: the position to count from")
	threads := fs.Int("threads", 1, "with -perft: goroutines (0: all CPUs)")
	if err := cli.ParseHelp(fs, args, stdout, fmt.Sprintf(`usage: usi [flags]

usi is the shogilab Minishogi engine. It reads USI commands on standard input and answers on
standard output: usi, isready, setoption, usinewgame, position startpos|sfen ... [moves ...],
go (nodes, movetime, byoyomi, btime/wtime/binc/winc, infinite, ponder; or perft N; or
mate MS|infinite, a tsume search answered with checkmate), stop, ponderhit, gameover,
d (show the position), quit. It reads commands while it searches: isready is answered at
once, and commands that need the engine idle wait for the search's end. The reply to usi
lists the options: %s.

example: usi -perft 7 -threads 0   (leaves from the start position, and leaves per second)`, optionNames())); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q (the engine reads commands on stdin)", fs.Arg(0))
	}
	if *perft != 0 {
		return runPerft(*sfen, *perft, *threads, stdout, stderr)
	}
	return usi.NewServer(engine.New(), stdout).Serve(os.Stdin)
}

// optionNames lists the engine's settings, the options it announces.
func optionNames() string {
	var names []string
	for _, s := range engine.AllSettings() {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// runPerft counts leaves (bulk counting at the last ply) and reports the speed. The depth
// is bounded as `go perft` bounds it; a deep count shows a progress bar over the root moves
// on a terminal.
func runPerft(sfen string, depth, threads int, stdout, stderr io.Writer) error {
	if depth < 1 || depth > usi.MaxPerftDepth {
		return cli.Usagef("-perft %d: want a depth from 1 to %d (deeper counts could overflow 64 bits; each ply takes about sixteen times longer, and perft 8 already takes seconds)", depth, usi.MaxPerftDepth)
	}
	pos, err := minishogi.ParseSFEN(sfen)
	if err != nil {
		return cli.Usagef("-sfen %q: %v", sfen, err)
	}
	start := time.Now()
	moves := pos.LegalMoves(nil)
	// Perft 8 and deeper take seconds to hours: their progress is shown by root move.
	update, finish := func(int) {}, func() {}
	if depth >= 8 {
		update, finish = cli.NewProgress(stderr, len(moves), fmt.Sprintf("perft %d: root moves", depth))
	}
	var leaves uint64
	for i, m := range moves {
		u := pos.MakeMove(m)
		if threads == 1 {
			leaves += pos.Perft(depth - 1)
		} else {
			leaves += pos.ParallelPerft(depth-1, threads)
		}
		pos.UnmakeMove(m, u)
		update(i + 1)
	}
	finish()
	secs := time.Since(start).Seconds()
	fmt.Fprintf(stdout, "perft %d of %s: %d leaves in %.3f s, %.1f million leaves/s\n", depth, pos.SFEN(), leaves, secs, float64(leaves)/secs/1e6)
	return nil
}
