// Package clitest holds the test that every command reports a bad command line the same way
// (internal/cli): the exit status, one line on stderr, the program's name once, the bad value
// as typed, and no Go internals; and that -h on every command and subcommand exits 0.
package clitest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bin is the directory of every command, built once by TestMain.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "clitest")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "../...").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	bin = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func runBin(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return o.String(), e.String(), code
}

// goInternals are words of Go's own that a user should never read in a message.
var goInternals = regexp.MustCompile(`strconv\.|\*[a-z]+\.[A-Z]|main\.|struct \{|fork/exec|context canceled`)

func TestBadCommandLines(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		code int
		want string // the bad value as typed, quoted
	}{
		{"analyze", []string{"nope"}, 2, `"nope"`},
		{"analyze", []string{"games", "/nonexistent/x.jsonl"}, 1, "/nonexistent/x.jsonl"},
		{"analyze", []string{"games", "--bogus"}, 2, "-bogus"},
		{"solve", []string{"frobnicate"}, 2, `"frobnicate"`},
		{"solve", []string{"mate", "--bogus"}, 2, "-bogus"},
		{"solve", []string{"handicap", "bare-king", "--memory", "-5GiB"}, 2, `"-5GiB"`},
		{"train", []string{"nope"}, 2, `"nope"`},
		{"train", []string{"fit", "--epochs", "x"}, 2, `"x"`},
		{"train", []string{"label", "-o", tmp, "--block", "x", "a.sfen"}, 2, `"x"`},
		{"selfplay", []string{"nope"}, 2, `"nope"`},
		{"selfplay", []string{"--games", "-5x"}, 2, `"-5x"`},
		{"selfplay", []string{"merge", "-o", filepath.Join(tmp, "m.jsonl"), "/nonexistent/x.jsonl"}, 1, "/nonexistent/x.jsonl"},
		{"match", []string{"-a", "mcts", "-b", "random", "-games", "x"}, 2, `"x"`},
		{"match", []string{"extra", "-a", "mcts", "-b", "random"}, 2, `"extra"`},
		{"usi", []string{"-perft", "5q"}, 2, `"5q"`},
		{"usi", []string{"extra"}, 2, `"extra"`},
		{"figures", []string{"-out", tmp, "-section", "chess"}, 2, `"chess"`},
		{"tactics", []string{"--out", tmp, "--max", "-5x", "x.jsonl"}, 2, `"-5x"`},
		{"view", []string{"--depth", "x", "a.jsonl"}, 2, `"x"`},
		{"view", []string{"/nonexistent/x.jsonl"}, 1, "/nonexistent/x.jsonl"},
		{"view", []string{"--sprt", "elo0=5,elo1=0", "a.jsonl"}, 2, `"elo0=5,elo1=0"`},
	} {
		t.Run(c.name+" "+strings.Join(c.args, " "), func(t *testing.T) {
			_, msg, code := runBin(t, filepath.Join(bin, c.name), c.args...)
			if code != c.code || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, c.name) ||
				strings.Count(msg, c.name) != 1 || !strings.Contains(msg, c.want) || goInternals.MatchString(msg) {
				t.Errorf("%s %q: exit %d, stderr %q; want exit %d, one line naming %s once, with %s", c.name, c.args, code, msg, c.code, c.name, c.want)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	subcommands := map[string][]string{
		"analyze":  {"mawari", "openings", "games", "ratings", "match"},
		"solve":    {"bushi", "handicap", "mate", "check", "shard", "merge", "verify"},
		"train":    {"fit", "linear", "label", "loop", "curve", "info"},
		"selfplay": {"run", "merge", "verify", "export", "openings"},
		"match":    nil, "usi": nil, "figures": nil, "tactics": nil, "view": nil,
	}
	for name, subs := range subcommands {
		out, errOut, code := runBin(t, filepath.Join(bin, name), "-h")
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: "+name) {
			t.Errorf("%s -h: exit %d, stderr %q, stdout starts %.40q", name, code, errOut, out)
		}
		for _, sub := range subs {
			if !strings.Contains(out, "  "+sub+" ") {
				t.Errorf("%s -h does not list %s", name, sub)
			}
			out, errOut, code := runBin(t, filepath.Join(bin, name), sub, "-h")
			if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: "+name+" ") {
				t.Errorf("%s %s -h: exit %d, stderr %q, stdout starts %.40q", name, sub, code, errOut, out)
			}
		}
	}
}
