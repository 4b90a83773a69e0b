// Package cli is the subcommand dispatcher of the tools that have several jobs (analyze,
// solve): each subcommand is a line in a table and a run function in a file of its own, and
// every failure is one line on stderr with the exit status saying what kind it was.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
)

// Command is one subcommand. Run parses its own flags from args; it returns flag.ErrHelp
// after printing its help to stdout, a UsageError for a mistake in the command line, and
// any other error for a failure of the work itself.
type Command struct {
	Name    string
	Summary string
	Run     func(args []string, stdout, stderr io.Writer) error
}

// Program is a command made of subcommands.
type Program struct {
	Name     string // as typed: "solve"
	Intro    string // what the program does, printed by -h under the usage line
	Commands []Command
	// Default, if set, names the subcommand run when the first argument is a flag or there
	// is none (selfplay plays games); -h still prints the program's help.
	Default string
}

// Exit statuses: a failed job, a command line that could not be understood, and work
// stopped by an interrupt (128 + SIGINT, as shells report it).
const (
	ExitFailure     = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// Run dispatches args to a subcommand and returns the exit status.
func (p Program) Run(args []string, stdout, stderr io.Writer) int {
	if p.Default != "" && (len(args) == 0 || strings.HasPrefix(args[0], "-") && !isHelp(args[0])) {
		args = append([]string{p.Default}, args...)
	}
	if len(args) == 0 {
		fmt.Fprintf(stderr, "%s: no subcommand (want one of %s; %s -h for help)\n", p.Name, p.names(), p.Name)
		return ExitUsage
	}
	if isHelp(args[0]) || args[0] == "help" {
		p.usage(stdout)
		return 0
	}
	for _, c := range p.Commands {
		if c.Name != args[0] {
			continue
		}
		return report(p.Name+" "+c.Name, c.Run(args[1:], stdout, stderr), stderr, p.Name, c.Name)
	}
	fmt.Fprintf(stderr, "%s: unknown subcommand %q (want one of %s)\n", p.Name, args[0], p.names())
	return ExitUsage
}

// RunOne runs a program that has no subcommands, with the exit statuses and the one-line
// report of Program.Run: run parses its own flags from args and returns its error unprefixed.
func RunOne(name string, run func(args []string, stdout, stderr io.Writer) error, args []string, stdout, stderr io.Writer) int {
	return report(name, run(args, stdout, stderr), stderr, name)
}

// report prints err on one line after prefix, the only place the program's name is added,
// and returns the exit status for it. A package named as the program or subcommand (package
// selfplay under cmd/selfplay, selfplay.Merge under selfplay merge) prefixes its errors with
// the same names: those copies are dropped, so each name appears once.
func report(prefix string, err error, stderr io.Writer, names ...string) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	}
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
	for _, n := range names {
		msg = strings.TrimPrefix(msg, n+": ")
	}
	if errors.Is(err, context.Canceled) {
		// Go's "context canceled" says nothing to the user; the work was interrupted.
		msg = strings.ReplaceAll(msg, context.Canceled.Error(), "interrupted")
		fmt.Fprintf(stderr, "%s: %s\n", prefix, msg)
		return ExitInterrupted
	}
	fmt.Fprintf(stderr, "%s: %s\n", prefix, msg)
	if errors.As(err, new(UsageError)) {
		return ExitUsage
	}
	return ExitFailure
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

func (p Program) names() string {
	names := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func (p Program) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s SUBCOMMAND [flags]\n\n", p.Name)
	if p.Intro != "" {
		fmt.Fprintf(w, "%s\n\n", p.Intro)
	}
	fmt.Fprintln(w, "Subcommands:")
	for _, c := range p.Commands {
		summary := c.Summary
		if c.Name == p.Default {
			summary += " (the default: " + p.Name + " [flags])"
		}
		fmt.Fprintf(w, "  %-10s %s\n", c.Name, summary)
	}
	fmt.Fprintf(w, "\nRun %s SUBCOMMAND -h for its flags.\n", p.Name)
}

// UsageError is a mistake in the command line; Program.Run exits with ExitUsage for it.
type UsageError struct{ msg string }

func (e UsageError) Error() string { return e.msg }

// Usagef returns a UsageError.
func Usagef(format string, args ...any) error {
	return UsageError{fmt.Sprintf(format, args...)}
}

// ParseFlags parses args with fs, printing nothing on a bad flag so that the caller can report
// it in one line, and the help (fs.Usage) on stdout for -h. A bad flag is a UsageError.
// Flags may come after positional arguments (solve mate FILE -n 3); after "--" everything is
// positional. fs.Args() then holds the positional arguments in order.
func ParseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			fs.SetOutput(stdout)
			fs.Usage()
			return err
		case err != nil:
			return Usagef("%v", err)
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Parsing "--" and the positional arguments leaves exactly them in fs.Args().
	return fs.Parse(append([]string{"--"}, positional...))
}

// Interruptible returns a context cancelled by an interrupt (Ctrl-C), for work that stops
// early and returns the context's error, which Program.Run and RunOne report as exit 130.
func Interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// CheckOutputDir makes sure that dir exists (creating it) and takes new files, so that a
// command checks where it will write before it computes: a typo in a path is then one line
// at the start instead of a lost computation at the end.
func CheckOutputDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		return fmt.Errorf("output directory %s cannot take files: %w", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// CheckOutputFile makes sure that a file can be written at path before the work that
// produces it: path is not a directory, and its directory exists and takes new files. It
// creates nothing at path itself.
func CheckOutputFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("output file %s is a directory", path)
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("output file %s: directory %s does not exist", path, dir)
	}
	f, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		return fmt.Errorf("output file %s: cannot write in %s: %w", path, dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
