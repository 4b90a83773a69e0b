package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-a", "random"}, "need both -a and -b"},
		{[]string{"-a", "random", "-b", "random", "-games", "0"}, "-games 0"},
		{[]string{"-a", "random", "-b", "random", "-start", "9k/5/5/5/K4 b - 1"}, "-start"},
		{[]string{"-a", "random", "-b", "random", "-repetition", "never"}, "-repetition"},
		{[]string{"-a", "chess", "-b", "random"}, "unknown kind"},
		{[]string{"-a", "random", "-b", "random", "extra"}, "unexpected argument"},
		{[]string{"-games", "x"}, `invalid value "x" for flag -games`},
	} {
		var out, errOut bytes.Buffer
		err := run(c.args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}

func TestJSONAndTable(t *testing.T) {
	args := []string{"-a", "random", "-b", "random", "-games", "3", "-max-plies", "30", "-seed", "5"}
	var out, errOut bytes.Buffer
	if err := run(append(args, "-json"), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Summary struct{ Games, WinsA, Draws, LossesA int }
		Games   []struct{ Moves []string }
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out.String())
	}
	s := got.Summary
	if s.Games != 3 || s.WinsA+s.Draws+s.LossesA != 3 || len(got.Games) != 3 {
		t.Errorf("summary %+v with %d games", s, len(got.Games))
	}
	if n := strings.Count(errOut.String(), "\n"); n != 3 {
		t.Errorf("%d progress lines on a non-terminal stderr, want one per game", n)
	}
	out.Reset()
	if err := run(args, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "random vs random, 3 games") {
		t.Errorf("table:\n%s", out.String())
	}
}
