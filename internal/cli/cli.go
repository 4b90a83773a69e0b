// Package cli is the subcommand dispatcher of the tools that have several jobs (analyze,
// solve): each subcommand is a line in a table and a run function in a file of its own, and
// every failure is one line on stderr with the exit status saying what kind it was. Every
// command runs with a context that SIGINT and SIGTERM cancel (ExitInterrupted).
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
	"syscall"
)

// Command is one subcommand. Run parses its own flags from args; it returns flag.ErrHelp
// after printing its help to stdout, a UsageError for a mistake in the command line, and
// any other error for a failure of the work itself. ctx is cancelled by SIGINT or SIGTERM,
// and the command then ends with exit 130: at once, leaving Run to end with the process
// (Detach), unless Graceful says that Run stops on its own when ctx is cancelled, after
// what it must do first (a last checkpoint; abandoning the games in flight), and returns an
// error (ctx's, or any: after a signal every error is reported as the interrupt). Either way
// no final name holds a part of an output, since every command writes through package
// atomicfile.
type Command struct {
	Name     string
	Summary  string
	Run      func(ctx context.Context, args []string, stdout, stderr io.Writer) error
	Graceful bool
}

// run runs c under the signal context and reports how it ended.
func (c Command) run(prefix string, args []string, stdout, stderr io.Writer, names ...string) int {
	ctx, stop := signalContext()
	defer stop()
	var err error
	if c.Graceful {
		err = c.Run(ctx, args, stdout, stderr)
	} else {
		err = Detach(ctx, func() error { return c.Run(ctx, args, stdout, stderr) })
	}
	return report(ctx, prefix, err, stderr, names...)
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
		return c.run(p.Name+" "+c.Name, args[1:], stdout, stderr, p.Name, c.Name)
	}
	fmt.Fprintf(stderr, "%s: unknown subcommand %q (want one of %s)\n", p.Name, args[0], p.names())
	return ExitUsage
}

// RunOne runs a program that has no subcommands, c (whose Name is the program's), with the
// signal context, the exit statuses and the one-line report of Program.Run: c.Run parses its
// own flags from args and returns its error unprefixed.
func RunOne(c Command, args []string, stdout, stderr io.Writer) int {
	return c.run(c.Name, args, stdout, stderr, c.Name)
}

// signalContext is cancelled by the first SIGINT or SIGTERM (Ctrl-C; a cluster scheduler's
// stop or preemption). After it, the signals have their default action again, so that a
// second Ctrl-C ends a command that is slow to stop.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

// Detach runs work on a goroutine of its own and returns its error, or ctx's error as soon
// as ctx is cancelled: for work that cannot watch ctx itself (a read blocked on a FIFO, a
// check without a context). The work is then left to end with the process; whatever it
// writes goes through package atomicfile, so no final name holds a part of it, and the
// temporary file it leaves is removed by the next writer of that name.
func Detach(ctx context.Context, work func() error) error {
	done := make(chan error, 1)
	go func() { done <- work() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// report prints err on one line after prefix, the only place the program's name is added,
// and returns the exit status for it. A package named as the program or subcommand (package
// selfplay under cmd/selfplay, selfplay.Merge under selfplay merge) prefixes its errors with
// the same names: those copies are dropped, so each name appears once.
func report(ctx context.Context, prefix string, err error, stderr io.Writer, names ...string) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case ctx.Err() != nil && !errors.Is(err, context.Canceled):
		// A failure after a signal is the signal's doing (a child engine killed with it,
		// a pipe closed): reported as the interrupt.
		err = fmt.Errorf("%w: %v", ctx.Err(), err)
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

// ParseHelp is ParseFlags for a command whose help (-h) is help, its usage line and what it
// does, followed by its flags: the layout of every command's help in one place.
func ParseHelp(fs *flag.FlagSet, args []string, stdout io.Writer, help string) error {
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nFlags:\n", strings.TrimRight(help, "\n"))
		fs.PrintDefaults()
	}
	return ParseFlags(fs, args, stdout)
}

// CheckOutputDir makes sure that dir exists (creating it) and takes new files, so that a
// command checks where it will write before it computes: a typo in a path is then one line
// at the start instead of a lost computation at the end.
// A path that cannot be written is a mistake in the command line (exit 2), found before
// the work, not after it.
func CheckOutputDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Usagef("output directory: %v", err)
	}
	f, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		return Usagef("output directory %s cannot take files: %v", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// CheckOutputFile makes sure that a file can be written at path before the work that
// produces it: path is not a directory, and its directory exists and takes new files. It
// creates nothing at path itself. Its errors are UsageErrors, as CheckOutputDir's.
func CheckOutputFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return Usagef("output file %s is a directory", path)
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return Usagef("output file %s: directory %s does not exist", path, dir)
	}
	f, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		return Usagef("output file %s: cannot write in %s: %v", path, dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
