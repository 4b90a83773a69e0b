package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRun(t *testing.T) {
	p := Program{Name: "tool", Intro: "tool does things.", Commands: []Command{
		{Name: "ok", Summary: "succeeds", Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error { return nil }},
		{Name: "fail", Summary: "fails", Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error { return errors.New("it broke") }},
		{Name: "flags", Summary: "parses flags", Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error {
			fs := flag.NewFlagSet("tool flags", flag.ContinueOnError)
			fs.Int("n", 1, "a number")
			return ParseFlags(fs, args, stdout)
		}},
		{Name: "again", Summary: "fails with the names", Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error {
			return errors.New("tool: again: record: bad file")
		}},
		{Name: "stop", Summary: "is interrupted", Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error {
			return fmt.Errorf("after 3 games: %w", context.Canceled)
		}},
	}}
	cases := []struct {
		args     []string
		code     int
		out, err string
	}{
		{nil, ExitUsage, "", "tool: no subcommand (want one of ok, fail, flags, again, stop; tool -h for help)\n"},
		{[]string{"-h"}, 0, "usage: tool SUBCOMMAND", ""},
		{[]string{"nope"}, ExitUsage, "", "tool: unknown subcommand \"nope\" (want one of ok, fail, flags, again, stop)\n"},
		{[]string{"ok"}, 0, "", ""},
		{[]string{"fail"}, ExitFailure, "", "tool fail: it broke\n"},
		{[]string{"again"}, ExitFailure, "", "tool again: record: bad file\n"},
		{[]string{"flags", "-n", "x"}, ExitUsage, "", "tool flags: invalid value \"x\" for flag -n: parse error\n"},
		{[]string{"flags", "-h"}, 0, "-n int", ""},
		{[]string{"stop"}, ExitInterrupted, "", "tool stop: after 3 games: interrupted\n"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := p.Run(c.args, &out, &errOut)
			if code != c.code || !strings.Contains(out.String(), c.out) || errOut.String() != c.err && c.err != "" || c.err == "" && errOut.Len() > 0 {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr %q", c.args, code, out.String(), errOut.String(), c.code, c.out, c.err)
			}
		})
	}
}

// Flags after positional arguments are parsed; "--" ends the flags.
func TestParseFlagsInterspersed(t *testing.T) {
	for _, c := range []struct {
		args []string
		n    int
		pos  string
	}{
		{[]string{"a", "-n", "3", "b"}, 3, "a b"},
		{[]string{"-n", "2", "a"}, 2, "a"},
		{[]string{"a", "b", "-n=4"}, 4, "a b"},
		{[]string{"a", "--", "-n", "5"}, 1, "a -n 5"},
		{nil, 1, ""},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			n := fs.Int("n", 1, "")
			if err := ParseFlags(fs, c.args, io.Discard); err != nil {
				t.Errorf("%q: %v", c.args, err)
				return
			}
			if *n != c.n || strings.Join(fs.Args(), " ") != c.pos {
				t.Errorf("%q: -n %d, positional %q; want %d, %q", c.args, *n, fs.Args(), c.n, c.pos)
			}
		})
	}
}

func TestRunOne(t *testing.T) {
	cases := []struct {
		err  error
		code int
		msg  string
	}{
		{nil, 0, ""},
		{flag.ErrHelp, 0, ""},
		{Usagef("need --out DIR"), ExitUsage, "usi: need --out DIR\n"},
		{errors.New("open x.jsonl: no such file"), ExitFailure, "usi: open x.jsonl: no such file\n"},
		{errors.New("two\nlines"), ExitFailure, "usi: two; lines\n"},
		{context.Canceled, ExitInterrupted, "usi: interrupted\n"},
		{errors.New("usi: engine: bad option"), ExitFailure, "usi: engine: bad option\n"},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			var errOut bytes.Buffer
			code := RunOne(Command{Name: "usi", Run: func(context.Context, []string, io.Writer, io.Writer) error { return c.err }}, nil, io.Discard, &errOut)
			if code != c.code || errOut.String() != c.msg {
				t.Errorf("%v: exit %d, stderr %q; want %d, %q", c.err, code, errOut.String(), c.code, c.msg)
			}
		})
	}
}

// A program with a default subcommand runs it for flags or no arguments, and -h still
// lists every subcommand.
func TestDefault(t *testing.T) {
	var got []string
	p := Program{Name: "tool", Default: "play", Commands: []Command{
		{Name: "play", Summary: "plays", Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error { got = args; return nil }},
		{Name: "merge", Summary: "merges", Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error { return nil }},
	}}
	for _, c := range []struct{ args, want []string }{
		{nil, []string{}},
		{[]string{"--games", "2"}, []string{"--games", "2"}},
		{[]string{"play", "x"}, []string{"x"}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			got = nil
			if code := p.Run(c.args, io.Discard, io.Discard); code != 0 || strings.Join(got, " ") != strings.Join(c.want, " ") || got == nil {
				t.Errorf("%q: exit %d, play got %q; want %q", c.args, code, got, c.want)
			}
		})
	}
	var out bytes.Buffer
	if code := p.Run([]string{"-h"}, &out, io.Discard); code != 0 || !strings.Contains(out.String(), "play       plays (the default: tool [flags])") || !strings.Contains(out.String(), "merge") {
		t.Errorf("-h: exit %d, %q", code, out.String())
	}
}

func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	if err := CheckOutputDir(filepath.Join(dir, "new", "plots")); err != nil {
		t.Errorf("a new directory: %v", err)
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	if err := CheckOutputDir(file); !errors.As(err, new(UsageError)) {
		t.Errorf("a directory over a file: %v, want a UsageError", err)
	}
	if err := CheckOutputFile(filepath.Join(dir, "proof.txt")); err != nil {
		t.Errorf("a file in a directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "proof.txt")); err == nil {
		t.Error("CheckOutputFile created the file")
	}
	for _, bad := range []string{filepath.Join(dir, "missing", "proof.txt"), dir, filepath.Join(file, "x")} {
		// A path that cannot be written is a mistake in the command line: exit 2.
		if err := CheckOutputFile(bad); !errors.As(err, new(UsageError)) {
			t.Errorf("%s: %v, want a UsageError", bad, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 { // f and new
		t.Errorf("left behind: %v", entries)
	}
}

// TestSIGTERM: SIGTERM cancels the command's context. A graceful command's error, whatever
// it is, is reported as the interrupt with exit 130; any other command ends with exit 130 at
// once, though its work never returns.
func TestSIGTERM(t *testing.T) {
	started := make(chan struct{}, 1)
	p := Program{Name: "tool", Commands: []Command{
		{Name: "wait", Summary: "waits for a signal", Graceful: true, Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			started <- struct{}{}
			<-ctx.Done()
			return errors.New("engine: broken pipe")
		}},
		{Name: "hang", Summary: "never returns", Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			started <- struct{}{}
			select {}
		}},
	}}
	for _, c := range []struct{ name, msg string }{
		{"wait", "tool wait: interrupted: engine: broken pipe\n"},
		{"hang", "tool hang: interrupted\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			go func() {
				<-started
				syscall.Kill(os.Getpid(), syscall.SIGTERM)
			}()
			var errOut bytes.Buffer
			if code := p.Run([]string{c.name}, io.Discard, &errOut); code != ExitInterrupted || errOut.String() != c.msg {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, errOut.String(), ExitInterrupted, c.msg)
			}
		})
	}
}
