package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runSolve(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = program.Run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestUsageAndBadInput(t *testing.T) {
	if code, out, _ := runSolve("-h"); code != 0 || !strings.Contains(out, "bushi") {
		t.Errorf("solve -h: exit %d, output %q", code, out)
	}
	if code, out, _ := runSolve("bushi", "-h"); code != 0 || !strings.Contains(out, "--all-layouts") && !strings.Contains(out, "-all-layouts") {
		t.Errorf("solve bushi -h: exit %d, output %q", code, out)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.layout")
	if err := os.WriteFile(bad, []byte("+z LFR +y\n-z F -z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{nil, "solve: no subcommand"},
		{[]string{"prove"}, `solve: unknown subcommand "prove"`},
		{[]string{"bushi", "--frobnicate"}, "solve bushi: flag provided but not defined"},
		{[]string{"bushi", "extra"}, `solve bushi: unexpected argument "extra"`},
		{[]string{"bushi", "--mcts", "10"}, "solve bushi: --mcts needs --play"},
		{[]string{"bushi", "--layout", filepath.Join(dir, "missing")}, "solve bushi: open"},
		{[]string{"bushi", "--layout", bad}, "bad.layout: bushi: layout line 2: face -z: gaze -z is along the face's normal"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, errOut := runSolve(c.args...)
			if code != 2 || !strings.HasPrefix(errOut, c.want) && !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("solve %v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, errOut, c.want)
			}
		})
	}
}

func TestBushiJSON(t *testing.T) {
	code, out, errOut := runSolve("bushi", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep bushiReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if rep.Winner != "black" && rep.Winner != "white" && rep.Winner != "draw" {
		t.Errorf("winner %q", rep.Winner)
	}
	if rep.Winner != "draw" && len(rep.Line) != rep.Plies {
		t.Errorf("line of %d moves for a %d-ply win", len(rep.Line), rep.Plies)
	}
	n := rep.Positions.BlackWins + rep.Positions.WhiteWins + rep.Positions.Draws
	if n != 24*24*2 {
		t.Errorf("positions of play add up to %d, want 1152", n)
	}

	// A layout file with the default layout gives the same answer.
	path := filepath.Join(t.TempDir(), "default.layout")
	text := "+z LFR +y\n-z F -y\n+y L +z\n-y R +z\n+x L +z\n-x R +z\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out2, _ := runSolve("bushi", "--json", "--layout", path)
	if out2 != out {
		t.Errorf("--layout with the default differs:\n%s\n%s", out2, out)
	}

	// The shown game ends in mate by the winner.
	code, out, errOut = runSolve("bushi", "--play", "--json")
	var game gameReport
	if err := json.Unmarshal([]byte(out), &game); code != 0 || err != nil {
		t.Fatalf("--play: exit %d, %v, %s", code, err, errOut)
	}
	if game.Winner != rep.Winner || rep.Winner != "draw" && len(game.Moves) != rep.Plies {
		t.Errorf("--play: %s wins in %d plies; solve says %s in %d", game.Winner, len(game.Moves), rep.Winner, rep.Plies)
	}
}

func TestAllLayoutsJSON(t *testing.T) {
	code, out, errOut := runSolve("bushi", "--all-layouts", "--limit", "300", "--json", "--workers", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep studyReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, name := range []string{"black", "white", "draw"} {
		sum += rep.Results[name].Classes
	}
	if rep.Classes != 300 || sum != 300 {
		t.Errorf("%d classes (results add to %d), want 300", rep.Classes, sum)
	}
}
