package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestBadCommandLines(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "need --out DIR"},
		{[]string{"--out", t.TempDir()}, "need --out DIR"},
		{[]string{"--out", t.TempDir(), "--max", "0", "x.jsonl"}, "--max 0"},
		{[]string{"--out", t.TempDir(), "--fsf", "/nonexistent/fsf", "x.jsonl"}, "--fsf /nonexistent/fsf"},
	} {
		var out, errs bytes.Buffer
		err := run(c.args, &out, &errs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}
