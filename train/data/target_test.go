package data

import (
	"math"
	"strings"
	"testing"

	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// TestPolicyTargets: where each position's policy target comes from, by the mover's kind
// and the statistics recorded: game 2 is game 0's first two moves by two USI engines
// (the played move is the whole target); game 3 the same by an MCTS mover that recorded
// its most visited moves at the start (30 visits 4e4d, 10 visits 3e3d); games 0 and 1 are
// random movers (no target). The start occurs in all four games: its target is the mean
// of game 2's (4e4d: 1) and game 3's (4e4d 0.75, 3e3d 0.25), an occurrence without a target
// counting for nothing: 4e4d 0.875, 3e3d 0.125.
func TestPolicyTargets(t *testing.T) {
	game2 := strings.NewReplacer(`"id":0`, `"id":2`, `"kind":"random"`, `"kind":"usi"`,
		`"moves":["4e4d","2a2b","4d4e","2b2a","4e4d"]`, `"moves":["4e4d","2a2b"]`, `"plies":5`, `"plies":2`).Replace(game0)
	game3 := strings.NewReplacer(`"id":0`, `"id":3`, `"kind":"random"`, `"kind":"mcts"`,
		`"moves":["4e4d","2a2b","4d4e","2b2a","4e4d"]`, `"moves":["4e4d"]`, `"plies":5`, `"plies":1`,
		`"rules":`, `"stats":[{"visits":40,"value":0.1,"top":[{"move":"4e4d","visits":30},{"move":"3e3d","visits":10}]}],"rules":`).Replace(game0)
	files := []string{write(t, "0.jsonl", game0), write(t, "1.jsonl", game1), write(t, "2.jsonl", game2), write(t, "3.jsonl", game3)}
	s, err := Load(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := ms.StartPosition()
	after := start
	after.MakeMove(mustParse(t, &start, "4e4d"))
	byHash := map[uint64]Example{}
	for _, ex := range s.Train {
		byHash[ex.Pos.Hash()] = ex
	}
	for _, c := range []struct {
		name string
		pos  *ms.Position
		want map[string]float64
	}{
		{"start: two targets averaged", &start, map[string]float64{"4e4d": 0.875, "3e3d": 0.125}},
		{"after 4e4d: the usi engine's reply", &after, map[string]float64{"2a2b": 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ex, ok := byHash[c.pos.Hash()]
			if !ok {
				t.Fatal("position missing")
			}
			got := map[string]float64{}
			for _, mp := range ex.Policy {
				got[mp.Move.String()] = float64(mp.P)
			}
			if len(got) != len(c.want) {
				t.Fatalf("target %v; want %v", got, c.want)
			}
			for m, p := range c.want {
				if math.Abs(got[m]-p) > 1e-6 {
					t.Errorf("target %v; want %v", got, c.want)
				}
			}
		})
	}
	// A position reached only by random movers has no target: game 0's third, after
	// 4e4d 2a2b 4d4e.
	third := after
	third.MakeMove(mustParse(t, &third, "2a2b"))
	third.MakeMove(mustParse(t, &third, "4d4e"))
	if ex, ok := byHash[third.Hash()]; !ok || ex.Policy != nil {
		t.Errorf("after 4e4d 2a2b 4d4e (random movers): %+v, present %v; want no policy target", ex.Policy, ok)
	}
}

// TestSearchTargets: an MCTS mover's recorded policy field is its target, not the visits
// of top (game 4: policy 4e4d 0.3, 3e3d 0.1 as rounded in a record, summing to 0.4, so
// scaled to 0.75 and 0.25, while top says 4e4d alone); a playout cap's fast move (game 5,
// "fast": true, whose top and policy would say 3e3d) is no target, though its position
// still counts for the value (Count 2 at the start).
func TestSearchTargets(t *testing.T) {
	one := func(id, stats string) string {
		return strings.NewReplacer(`"id":0`, `"id":`+id, `"kind":"random"`, `"kind":"mcts"`,
			`"moves":["4e4d","2a2b","4d4e","2b2a","4e4d"]`, `"moves":["4e4d"]`, `"plies":5`, `"plies":1`,
			`"rules":`, `"stats":[`+stats+`],"rules":`).Replace(game0)
	}
	game4 := one("4", `{"visits":8,"value":0.1,"top":[{"move":"4e4d","visits":8}],"policy":[{"move":"4e4d","p":0.3},{"move":"3e3d","p":0.1}]}`)
	game5 := one("5", `{"visits":8,"value":0.1,"fast":true,"top":[{"move":"3e3d","visits":8}],"policy":[{"move":"3e3d","p":1}]}`)
	s, err := Load([]string{write(t, "4.jsonl", game4), write(t, "5.jsonl", game5)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := ms.StartPosition()
	for _, ex := range s.Train {
		if ex.Pos.Hash() != start.Hash() {
			continue
		}
		got := map[string]float64{}
		for _, mp := range ex.Policy {
			got[mp.Move.String()] = float64(mp.P)
		}
		if len(got) != 2 || math.Abs(got["4e4d"]-0.75) > 1e-6 || math.Abs(got["3e3d"]-0.25) > 1e-6 || ex.Count != 2 {
			t.Errorf("start: target %v from %d occurrences; want 4e4d 0.75, 3e3d 0.25 from 2", got, ex.Count)
		}
		return
	}
	t.Error("the start position is missing")
}

func mustParse(t *testing.T, pos *ms.Position, usi string) ms.Move {
	t.Helper()
	m, err := pos.ParseMove(usi)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMirrorTarget: the mirror image of a target names the reflected moves, file f to
// 6-f, by hand: 4e4d (a gold) becomes 2e2d, a drop P*3c stays on file 3, 1b2a+ becomes
// 5b4a+.
func TestMirrorTarget(t *testing.T) {
	for _, c := range []struct{ name, move, want string }{
		{"board move", "4e4d", "2e2d"},
		{"drop on the middle file", "P*3c", "P*3c"},
		{"drop", "S*4c", "S*2c"},
		{"promotion", "1b2a+", "5b4a+"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := mirrorUSI(c.move); got != c.want {
				t.Errorf("mirror of %s: %s, want %s", c.move, got, c.want)
			}
		})
	}
	start := ms.StartPosition()
	image := Mirror(&start)
	got, err := PolicyTarget{{Move: mustParse(t, &start, "4e4d"), P: 1}}.Mirror(&image)
	if err != nil || len(got) != 1 || got[0].Move.String() != "2e2d" {
		t.Errorf("mirror of the target 4e4d at the start: %v, %v; want 2e2d", got, err)
	}
}
