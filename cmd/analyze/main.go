// Command analyze runs the project's analyses, one subcommand each:
//
//	analyze mawari [flags]             Mawari shogi: exact throw and game-length analysis,
//	                                   simulation, sensitivity, plots
//	analyze mawari fit [flags] FILE    estimate landing probabilities from observed counts
//
// Run analyze SUBCOMMAND -h for a subcommand's flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// subcommand is one analysis. run parses its own flags from args; it returns
// flag.ErrHelp after printing its help to stdout, and any other error for a one-line
// report.
type subcommand struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// subcommands is the table of analyses. To add one, write its run function in a file of
// its own and add a line here.
var subcommands = []subcommand{
	{"mawari", "Mawari shogi: throw and game-length analysis, simulation, plots; 'mawari fit' estimates landing probabilities", runMawari},
	{"openings", "opening tree of game records: lines and transpositions with scores and Wilson intervals", runOpenings},
	{"games", "results by colour, terminations and game lengths of game records", runGames},
	{"ratings", "Elo ratings of the players in game records by maximum likelihood, with intervals and LOS", runRatings},
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "analyze: no subcommand (want one of "+strings.Join(subcommandNames(), ", ")+"; analyze -h for help)")
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
		switch {
		case errors.Is(err, flag.ErrHelp):
			return 0
		case err != nil:
			fmt.Fprintf(stderr, "analyze %s: %v\n", sc.name, err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "analyze: unknown subcommand %q (want one of %s)\n", args[0], strings.Join(subcommandNames(), ", "))
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: analyze SUBCOMMAND [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Subcommands:")
	for _, sc := range subcommands {
		fmt.Fprintf(w, "  %-10s %s\n", sc.name, sc.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run analyze SUBCOMMAND -h for its flags.")
}

func subcommandNames() []string {
	var names []string
	for _, sc := range subcommands {
		names = append(names, sc.name)
	}
	return names
}

// parseFlags parses args with fs, printing nothing on a bad flag so that the caller can
// report it in one line, and the help to stdout on -h.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
	}
	return err
}
