package selfplay

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestDeterministic: which players replay a game exactly, by the rule of
// PlayerSpec.Deterministic (one thread, a node or depth limit and no time
// limit, no noise, no temperature).
func TestDeterministic(t *testing.T) {
	for _, c := range []struct {
		spec string
		want bool
	}{
		{"mcts:playouts=400", true},
		{"mcts:playouts=400,CPuct=2.5,MateDepth=3", true},
		{"mcts:playouts=400,Threads=2", false},
		{"mcts:playouts=400,Noise=0.25", false},
		{"mcts:playouts=400,TemperaturePlies=10", false},
		{"mcts:movetime=100", false},
		{"mcts:playouts=400,movetime=100", false},
		{"mcts:time=1000,byoyomi=100", false},
		{"random", false},
		{"usi:/bin/true,nodes=2000", true},
		{"usi:/bin/true,depth=10,option.Threads=1", true},
		{"usi:/bin/true,nodes=2000,option.Threads=4", false},
		{"usi:/bin/true,nodes=2000,option.threads=4", false},
		{"usi:/bin/true,movetime=100", false},
	} {
		t.Run(c.spec, func(t *testing.T) {
			s, err := ParsePlayerSpec(c.spec, PlayerSpec{})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Deterministic(); got != c.want {
				t.Errorf("Deterministic() = %v, want %v", got, c.want)
			}
		})
	}
}

// TestCheckReplays: with both players deterministic a book of n openings
// allows 2n games in pairs, n without; one player that is not lifts the limit.
func TestCheckReplays(t *testing.T) {
	det, _ := ParsePlayerSpec("mcts:playouts=100", PlayerSpec{})
	noisy, _ := ParsePlayerSpec("mcts:playouts=100,Noise=0.25", PlayerSpec{})
	openings, _ := ParseStart("startpos")
	openings = append(openings, openings[0], openings[0]) // three openings
	for _, c := range []struct {
		name  string
		m     Match
		games int
		ok    bool
	}{
		{"pairs within the book", Match{A: det, B: det, Pairs: true, Openings: openings}, 6, true},
		{"pairs past the book", Match{A: det, B: det, Pairs: true, Openings: openings}, 7, false},
		{"singles within the book", Match{A: det, B: det, Openings: openings}, 3, true},
		{"singles past the book", Match{A: det, B: det, Openings: openings}, 4, false},
		{"one noisy player", Match{A: det, B: noisy, Pairs: true, Openings: openings}, 100, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.m.CheckReplays(c.games)
			if (err == nil) != c.ok {
				t.Errorf("CheckReplays(%d) = %v, want ok %v", c.games, err, c.ok)
			}
		})
	}
}

// TestOpeningUses by hand: 10 games in pairs from 3 openings are 5 pairs,
// so the first two openings start two pairs each.
func TestOpeningUses(t *testing.T) {
	openings, _ := ParseStart("startpos")
	m := Match{Pairs: true, Openings: []Opening{openings[0], openings[0], openings[0]}}
	for games, want := range map[int]int{1: 1, 6: 1, 7: 2, 10: 2, 12: 2, 13: 3} {
		if got := m.OpeningUses(games); got != want {
			t.Errorf("%d games: %d uses, want %d", games, got, want)
		}
	}
}

// TestGenerateOpeningsBlocks: a judge that, like Fairy-Stockfish, answers
// differently after other searches (this one scores its n-th search of a
// process 10n centipawns) gives the same openings whatever --parallel and
// across a resume, because each block of JudgeBlock positions is judged by a
// new process, in order. With a margin of 100 exactly the first ten
// positions of each block are kept (10 to 100 centipawns), by hand.
func TestGenerateOpeningsBlocks(t *testing.T) {
	dir := t.TempDir()
	starts := filepath.Join(dir, "starts")
	judgeScript := scriptEngine(t, `n=$((n+1)); echo "info depth 1 score cp $((n*10)) pv 1a1b"; echo "bestmove 1a1b"`)
	wrapper := filepath.Join(dir, "judge.sh")
	os.WriteFile(wrapper, []byte("#!/bin/sh\necho start >> "+starts+"\nn=0\nexec "+judgeScript+"\n"), 0o755)
	judge, err := ParsePlayerSpec("usi:"+wrapper+",depth=1", PlayerSpec{})
	if err != nil {
		t.Fatal(err)
	}
	search := OpeningSearch{Count: 25, MinPlies: 3, MaxPlies: 6, Judge: judge, Margin: 100, Seed: 5}
	one, err := GenerateOpenings(context.Background(), search)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range one {
		if want := (i%10 + 1) * 10; o.ScoreCP != want {
			t.Errorf("opening %d scored %d, want %d (the %d-th search of its block's process)", i, o.ScoreCP, want, i%10+1)
		}
	}
	search.Parallel = 3
	search.Journal = filepath.Join(dir, "journal")
	three, err := GenerateOpenings(context.Background(), search)
	if err != nil || !reflect.DeepEqual(three, one) {
		t.Fatalf("parallel 3: %v; differs from parallel 1", err)
	}
	// A kill in the middle of a block: the journal keeps two whole blocks and
	// five lines of a third, which is judged again from its start.
	data, _ := os.ReadFile(search.Journal)
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 2*JudgeBlock+5 {
		t.Fatalf("journal of %d lines", len(lines))
	}
	os.WriteFile(search.Journal, []byte(strings.Join(lines[:2*JudgeBlock+5], "")+"12"), 0o644) // and a cut line
	os.Remove(starts)
	resumed, err := GenerateOpenings(context.Background(), search)
	if err != nil || !reflect.DeepEqual(resumed, one) {
		t.Fatalf("resumed: %v; differs from an unbroken run", err)
	}
	// A journal that holds every verdict the result needs: no block of it is
	// judged again (a block judged again would add its walks to the journal a
	// second time). The judges may start on blocks past the last one needed
	// before the search has its openings and stops them, at most one a worker,
	// beside the one that checks the engine.
	os.Remove(starts)
	before, _ := os.ReadFile(search.Journal)
	if again, err := GenerateOpenings(context.Background(), search); err != nil || !reflect.DeepEqual(again, one) {
		t.Fatalf("from a whole journal: %v", err)
	}
	if b, _ := os.ReadFile(starts); strings.Count(string(b), "start") > 1+search.Parallel {
		t.Errorf("from a whole journal the judge started %d times, want at most %d (the check and a block a worker)", strings.Count(string(b), "start"), 1+search.Parallel)
	}
	after, _ := os.ReadFile(search.Journal)
	walks := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(before)), "\n") {
		walk, _, _ := strings.Cut(line, "\t")
		walks[walk] = true
	}
	for _, line := range strings.Split(strings.TrimSpace(string(after[len(before):])), "\n") {
		if walk, _, _ := strings.Cut(line, "\t"); line != "" && walks[walk] {
			t.Errorf("walk %s was judged again from a whole journal", walk)
		}
	}
	// Block 1 judged again: twenty positions scored 10 to 200 in order, and the
	// openings the search kept from it are its first ten.
	block, err := search.JudgeBlock(context.Background(), 1)
	if err != nil || len(block) != JudgeBlock {
		t.Fatalf("block 1: %d positions, %v", len(block), err)
	}
	var fromBlock []JudgedOpening
	for _, o := range one {
		if o.Block == 1 {
			fromBlock = append(fromBlock, o)
		}
	}
	for i, p := range block {
		if p.ScoreCP != (i+1)*10 || p.Block != 1 || (i < 10 && !reflect.DeepEqual(p.JudgedOpening, fromBlock[i])) {
			t.Errorf("block 1, position %d: %+v", i, p)
		}
	}
	search.Seed = 6
	if _, err := GenerateOpenings(context.Background(), search); err == nil || !strings.Contains(err.Error(), "the journal is of other flags") {
		t.Errorf("a journal of another seed: %v", err)
	}
}
