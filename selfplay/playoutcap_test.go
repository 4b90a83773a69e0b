package selfplay

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/record"
)

// TestPlayoutCap plays seeded self-play games with a Gumbel root and a playout cap, and
// checks each move's record entry against the cap's rule, and the share of full searches
// against the binomial distribution.
func TestPlayoutCap(t *testing.T) {
	const full, fast, prob = 16, 4, 0.3
	m := testMatch(t, "mcts:playouts=16,cap-fast=4,cap-prob=0.3,GumbelMoves=4")
	m.Rules.MaxPlies = 80
	var moves, targets int
	for id := range 12 {
		g, err := m.Play(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := record.MarshalLine(g); err != nil { // validates the entries
			t.Fatal(err)
		}
		for i, s := range g.Stats {
			moves++
			// A Gumbel root searches a fresh tree: its visits are the budget and the root's
			// own evaluation, unless the root was proven before any playout (a move that
			// ends the game, or a mate the evaluator proves): one visit, a proven value.
			proven := s.Mate != nil || s.Visits == 1 && (s.Value == 1 || s.Value == 0 || s.Value == -1)
			switch {
			case s.Target():
				targets++
				if s.Visits != full+1 && !proven {
					t.Errorf("game %d move %d: a target with %d visits, want %d", id, i, s.Visits, full+1)
				}
				if len(s.Policy) == 0 && !proven {
					t.Errorf("game %d move %d: a target without a policy", id, i)
				}
			default:
				if s.Visits != fast+1 && !proven {
					t.Errorf("game %d move %d: a fast move with %d visits, want %d", id, i, s.Visits, fast+1)
				}
				if s.Policy != nil {
					t.Errorf("game %d move %d: a fast move with a policy", id, i)
				}
			}
		}
	}
	// The number of full searches among n moves is Binomial(n, 0.3): within 3.29 standard
	// deviations, sqrt(n·p·(1-p)), of n·p but once in a thousand seeded runs.
	n := float64(moves)
	if dev := math.Abs(float64(targets) - n*prob); dev > 3.29*math.Sqrt(n*prob*(1-prob)) || moves < 300 {
		t.Errorf("%d targets of %d moves: %.1f from the mean %.1f", targets, moves, dev, n*prob)
	}
	t.Logf("%d targets of %d moves (p = %v)", targets, moves, prob)
}

// TestPlayoutCapSeeded: the cap's draws flow from the game's seed: the same game plays and
// marks the same moves twice, and another seed marks others.
func TestPlayoutCapSeeded(t *testing.T) {
	m := testMatch(t, "mcts:playouts=16,cap-fast=4,cap-prob=0.5")
	marks := func(id int) string {
		g, err := m.Play(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, s := range g.Stats {
			b.WriteByte(map[bool]byte{true: 'F', false: 'T'}[s.Fast])
		}
		return b.String()
	}
	a, b, c := marks(0), marks(0), marks(1)
	if a != b {
		t.Errorf("game 0 marked %s, then %s", a, b)
	}
	if a == c {
		t.Errorf("games 0 and 1 marked alike: %s", a)
	}
}

func TestPlayoutCapSpec(t *testing.T) {
	for _, tc := range []struct{ name, spec, want string }{
		{"prob without fast", "mcts:playouts=16,cap-prob=0.5", "cap-prob without cap-fast"},
		{"prob above 1", "mcts:playouts=16,cap-fast=4,cap-prob=1.5", "want a probability"},
		{"fast above full", "mcts:playouts=16,cap-fast=32", "more than the full searches' 16"},
		{"movetime", "mcts:movetime=100,cap-fast=4", "budget of playouts alone"},
		{"usi", "usi:/bin/true,nodes=10,cap-fast=4", "unknown key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParsePlayerSpec(tc.spec, PlayerSpec{}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("recorded", func(t *testing.T) {
		s, err := ParsePlayerSpec("mcts:playouts=16,cap-fast=4,cap-prob=0.25", PlayerSpec{})
		if err != nil {
			t.Fatal(err)
		}
		if c := s.Record().Config; c["cap_fast"] != int64(4) || c["cap_prob"] != 0.25 {
			t.Errorf("config %v", c)
		}
	})
	t.Run("defaults", func(t *testing.T) {
		// A spec without limits takes the command's budget and its cap; one with limits of
		// its own takes neither.
		defaults := PlayerSpec{Limits: Limits{Nodes: 16}, Cap: PlayoutCap{Fast: 4, Prob: 0.25}}
		a, err := ParsePlayerSpec("mcts", defaults)
		if err != nil || a.Cap != defaults.Cap {
			t.Errorf("%+v, %v", a.Cap, err)
		}
		b, err := ParsePlayerSpec("mcts:movetime=50", defaults)
		if err != nil || b.Cap.On() {
			t.Errorf("%+v, %v", b.Cap, err)
		}
	})
}
