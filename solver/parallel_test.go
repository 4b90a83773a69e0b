package solver

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// parallelSchemes are the worker counts every parallel search must agree with one worker
// under.
var parallelSchemes = []struct {
	name    string
	workers int
}{
	{"2 workers", 2},
	{"3 workers", 3},
}

// TestParallelHandicaps solves handicaps with one worker and with each parallel scheme: the
// values (found, length, minimal, the longest length disproved) must be the same, and each
// proof must check. The lengths come from independent sources: the bare-king mate in 8 from
// Fairy-Stockfish (TestBareKing), the four-piece mate in 10 and no mate within 8 from the
// bounded retrograde method (TestParallelFourPiece); for the three-piece handicap one worker's
// answer is the reference (its mate within 16, proved without deepening, checks).
func TestParallelHandicaps(t *testing.T) {
	cases := []struct {
		handicap string
		opt      DFPNOptions
		found    bool
		plies    int // when found
		lower    int
		long     bool // skipped with -short
	}{
		{"bare-king", DFPNOptions{MaxPlies: 12}, true, 8, 6, false},
		{"four-piece", DFPNOptions{MaxPlies: 10}, true, 10, 8, false},
		{"three-piece to 8 plies", DFPNOptions{MaxPlies: 8}, false, 0, 8, false},
		{"three-piece to 10 plies", DFPNOptions{MaxPlies: 10}, false, 0, 10, true},
		{"three-piece within 16", DFPNOptions{MaxPlies: 16, Upper: true}, true, 16, -1, true},
	}
	for _, c := range cases {
		t.Run(c.handicap, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a search of seconds")
			}
			name := c.handicap
			if i := len("three-piece"); len(name) > i && name[:i] == "three-piece" {
				name = name[:i]
			}
			root, err := minishogi.Handicap(name)
			if err != nil {
				t.Fatal(err)
			}
			solve := func(t *testing.T, workers int) *DFPN {
				t.Helper()
				o := c.opt
				o.Workers, o.MemoryBudget = workers, 64<<20
				d, err := SolveDFPN(root, minishogi.Sente, o)
				if err != nil {
					t.Fatal(err)
				}
				if d.Found != c.found || d.Found && d.Plies != c.plies || d.Lower != c.lower {
					t.Fatalf("%d workers: mate %v in %d, no mate within %d; want %v in %d, no mate within %d",
						workers, d.Found, d.Plies, d.Lower, c.found, c.plies, c.lower)
				}
				if d.Found {
					if err := CheckProof(root, d.Proof); err != nil {
						t.Fatalf("%d workers: proof rejected: %v", workers, err)
					}
				}
				return d
			}
			one := solve(t, 1)
			for _, s := range parallelSchemes {
				t.Run(s.name, func(t *testing.T) {
					d := solve(t, s.workers)
					if d.Minimal != one.Minimal {
						t.Fatalf("minimal %v, one worker %v", d.Minimal, one.Minimal)
					}
				})
			}
		})
	}
}

// TestParallelRandomShortMates compares, on positions reached by random play from the small
// mates and the handicaps, the minimal mate within 5 plies of each parallel scheme with one
// worker's and with the bounded retrograde method's (SolveRetro: every position within the
// bound enumerated and labelled backwards, no df-pn), in a tiny table too, so that the
// workers meet replaced entries.
func TestParallelRandomShortMates(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2))
	var roots []minishogi.Position
	for _, c := range smallMates {
		roots = append(roots, mustSFEN(t, c.sfen))
	}
	for _, name := range []string{"bare-king", "four-piece", "three-piece"} {
		p, _ := minishogi.Handicap(name)
		roots = append(roots, p)
	}
	trials := 48
	if testing.Short() {
		trials = 16
	}
	const maxPlies = 5
	mates := 0
	for trial := range trials {
		p := randomPlay(roots[trial%len(roots)], rng)
		r := SolveRetro(p, minishogi.Sente, RetroOptions{MaxPlies: maxPlies})
		want := -1
		if r.Found {
			want = r.Plies
			mates++
		}
		att := p.SideToMove() == minishogi.Sente
		t.Run(fmt.Sprintf("trial %d", trial), func(t *testing.T) {
			for _, budget := range []int{0, 16} {
				for _, s := range append([]struct {
					name    string
					workers int
				}{{"1 worker", 1}}, parallelSchemes...) {
					ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, budget)
					ms.SetWorkers(s.workers)
					got, found, err := ms.MinimalMate(p, att, maxPlies)
					if err != nil {
						t.Fatal(err)
					}
					if !found {
						got = -1
					}
					if got != want {
						t.Fatalf("%s: %s, %d entries: df-pn says %d, the retrograde method %d", p.SFEN(), s.name, budget, got, want)
					}
				}
			}
		})
	}
	if mates < trials/5 {
		t.Fatalf("only %d mates among %d trials; the test needs more", mates, trials)
	}
}
