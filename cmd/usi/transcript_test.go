package main

import (
	"bufio"
	"flag"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTranscriptUnchanged runs testdata/transcript.usi through the engine, one command at a
// time as a GUI sends them (after usi, isready, go and d it waits for the answer, so every
// search runs to its own node limit), and compares what the engine prints with
// testdata/transcript.golden: first the output of the engine built from commit 004981e,
// before the USI messages moved into one vocabulary (usi/messages.go; issue 37), recorded with
// the same script; re-recorded with -update when the engine changed on purpose (new options,
// the default network with a policy head, then the self-taught default network), the diff
// read line by line: only the new option lines and the searches' lines changed. The
// searches are fixed-node searches with one thread and a seed, so the same search prints
// the same lines byte for byte; only the clock's numbers (time, nps) and the
// periodic info lines (one each half second, as many as the machine's speed allows) are left
// out of the comparison: a search's last info line, before its bestmove, is compared whole.
// The script sets RootMate to 0, its default, so that the searches stay the recorded ones
// whatever the default becomes (docs/tactics.md#rerun).
func TestTranscriptUnchanged(t *testing.T) {
	script, err := os.ReadFile("testdata/transcript.usi")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/transcript.golden")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), roleVar+"=engine")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	for _, c := range strings.Split(strings.TrimSpace(string(script)), "\n") {
		if _, err := io.WriteString(in, c+"\n"); err != nil {
			t.Fatal(err)
		}
		var ends []string
		switch strings.Fields(c)[0] {
		case "usi":
			ends = []string{"usiok"}
		case "isready":
			ends = []string{"readyok"}
		case "d":
			ends = []string{"Checkers:"}
		case "go":
			ends = []string{"bestmove", "checkmate", "Nodes searched", "info string error: go"}
		}
	wait:
		for len(ends) > 0 {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the engine's output ended after %q", c)
				}
				got = append(got, l)
				for _, e := range ends {
					if strings.HasPrefix(l, e) {
						break wait
					}
				}
			case <-time.After(time.Minute):
				t.Fatalf("no answer to %q", c)
			}
		}
	}
	in.Close()
	for l := range lines {
		got = append(got, l)
	}
	if *updateTranscript {
		if err := os.WriteFile("testdata/transcript.golden", []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := strings.Split(strings.TrimRight(string(golden), "\n"), "\n")
	g, w := comparable(got), comparable(want)
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Fatalf("line %d of the comparable output:\n got %q\nwant %q (testdata/transcript.golden)", i+1, gl, wl)
		}
	}
}

var updateTranscript = flag.Bool("update", false, "write the engine's output to testdata/transcript.golden instead of comparing")

var clockNumbers = regexp.MustCompile(` (time|nps) [0-9]+`)

// comparable drops a search's periodic info lines (those with nps, the tree search's, not
// followed by its bestmove) and masks the clock's numbers.
func comparable(lines []string) []string {
	var kept []string
	for i, l := range lines {
		if strings.HasPrefix(l, "info ") && strings.Contains(l, " nps ") && (i+1 == len(lines) || !strings.HasPrefix(lines[i+1], "bestmove")) {
			continue
		}
		kept = append(kept, clockNumbers.ReplaceAllString(l, " $1 _"))
	}
	return kept
}
