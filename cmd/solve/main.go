// Command solve computes exact game-theoretic values by retrograde analysis.
//
//	solve bushi                    Bushi shogi solved from the empty board (default layout)
//	solve bushi --layout FILE      ... for a layout read from a file
//	solve bushi --all-layouts      every layout, up to rotation of the cube
//	solve bushi --play             the optimal game, move by move
//	solve <subcommand> -h          the subcommand's flags
//
// Each subcommand lives in its own file and is one line of the subcommands table.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// subcommand is one entry of the dispatcher. run parses its own flags from args; a returned
// error is printed as one line, "solve NAME: ERROR", and the command exits with status 2 for
// bad input (usageError) and 1 otherwise.
type subcommand struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// subcommands lists the subcommands; to add one, write its file and add its line here.
var subcommands = []subcommand{
	{"bushi", "Bushi shogi solved outright: one layout, every layout, or the optimal game", runBushi},
	{"handicap", "a Minishogi handicap's shortest forced mate, with proof", runHandicap},
	{"mate", "the shortest forced mate from a Minishogi position, with proof", runMate},
	{"check", "check a claimed Minishogi mating line; print refutations", runCheck},
}

// usageError is a mistake in the command line; it exits with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func badUsage(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "solve: missing subcommand (try solve -h)")
		return 2
	}
	if name := args[0]; name == "-h" || name == "-help" || name == "--help" || name == "help" {
		usage(stdout)
		return 0
	}
	for _, sc := range subcommands {
		if sc.name != args[0] {
			continue
		}
		err := sc.run(args[1:], stdout, stderr)
		if err == nil || errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "solve %s: %v\n", sc.name, err)
		if errors.As(err, new(usageError)) {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stderr, "solve: unknown subcommand %q (try solve -h)\n", args[0])
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: solve <subcommand> [flags]\n\nsolve computes exact game values by retrograde analysis.\n\nsubcommands:")
	for _, sc := range subcommands {
		fmt.Fprintf(w, "  %-10s %s\n", sc.name, sc.summary)
	}
	fmt.Fprintln(w, "\nsolve <subcommand> -h lists a subcommand's flags.")
}
