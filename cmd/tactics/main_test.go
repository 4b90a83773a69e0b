package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/cli"
)

// Each bad command line gives its exit status and one line on stderr, prefixed once, with
// the bad value as typed.
func TestBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, cli.ExitUsage, "need --out DIR"},
		{[]string{"--out", dir}, cli.ExitUsage, "need --out DIR"},
		{[]string{"--out", dir, "--max", "0", "x.jsonl"}, cli.ExitUsage, "--max 0"},
		{[]string{"--out", dir, "--max", "-5x", "x.jsonl"}, cli.ExitUsage, `"-5x"`},
		{[]string{"--bogus"}, cli.ExitUsage, "-bogus"},
		// A flag after the records file is still a flag.
		{[]string{"x.jsonl", "--out", dir, "--fsf", "/nonexistent/fsf"}, cli.ExitFailure, "--fsf /nonexistent/fsf: no such program"},
	} {
		var out, errs bytes.Buffer
		code := cli.RunOne(cli.Command{Name: "tactics", Run: run}, c.args, &out, &errs)
		msg := errs.String()
		if code != c.code || strings.Count(msg, "\n") != 1 || strings.Count(msg, "tactics:") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d, one line with %q", c.args, code, msg, c.code, c.want)
		}
	}
}

func TestHelp(t *testing.T) {
	var out, errs bytes.Buffer
	if code := cli.RunOne(cli.Command{Name: "tactics", Run: run}, []string{"-h"}, &out, &errs); code != 0 || !strings.Contains(out.String(), "usage: tactics") || errs.Len() > 0 {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, out.String(), errs.String())
	}
}
