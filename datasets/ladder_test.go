package datasets_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/analysis/ladder"
	"github.com/shogilab/shogilab/record"
)

// TestLadder recomputes the ratings of datasets/ladder/ladder.json from its shipped round
// robin: once by package ladder's fit (the file is what it wrote), and once by a second
// method written here, Hunter's minorisation-maximisation for the Bradley-Terry model
// (Hunter 2004, "MM algorithms for generalized Bradley-Terry models", eq. 3), which with no
// draws has the same maximum as Davidson's model. Every record is a game between two
// anchors playing at the spec's node count, and no game replays another
// (docs/tactics.md#replays).
func TestLadder(t *testing.T) {
	dir := filepath.Join(root, "datasets", "ladder")
	l, err := ladder.ReadFile(filepath.Join(dir, "ladder.json"))
	if err != nil {
		t.Fatal(err)
	}
	anchors, err := ladder.ReadAnchors(filepath.Join(dir, "anchors.json"))
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	for i, a := range l.Anchors {
		index[a.Name] = i
	}
	var games []*record.Game
	seen := map[string]string{}
	for _, rel := range l.Records {
		gs, _, err := record.Recover(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			key := fmt.Sprintf("%s|%s|%s|%s", g.Start, g.Players.Sente.Name, g.Players.Gote.Name, strings.Join(g.Moves, " "))
			if first, ok := seen[key]; ok {
				t.Errorf("%s game %d replays %s", rel, g.ID, first)
			}
			seen[key] = fmt.Sprintf("%s game %d", rel, g.ID)
			for _, p := range []record.Player{g.Players.Sente, g.Players.Gote} {
				i, ok := index[p.Name]
				if !ok {
					t.Fatalf("%s game %d: %q is not an anchor", rel, g.ID, p.Name)
				}
				if nodes := fmt.Sprint(p.Config["nodes"]); !strings.Contains(l.Anchors[i].Spec, ",nodes="+nodes+",") {
					t.Fatalf("%s game %d: %s played at %s nodes, not as its spec %s", rel, g.ID, p.Name, nodes, l.Anchors[i].Spec)
				}
			}
			games = append(games, g)
		}
	}
	if len(games) != 2800 {
		t.Fatalf("%d games; the round robin has 28 pairings of 100 (datasets/README.md)", len(games))
	}

	// Package ladder's fit of the records gives the file.
	refit, err := ladder.Fit(func(f func(*record.Game) error) error {
		for _, g := range games {
			if err := f(g); err != nil {
				return err
			}
		}
		return nil
	}, anchors.Anchors, anchors.Zero)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range refit.Anchors {
		if w := l.Anchors[i]; a.Name != w.Name || math.Abs(a.Elo-w.Elo) > 1e-6 || math.Abs(a.Range[0]-w.Range[0]) > 1e-6 || math.Abs(a.Range[1]-w.Range[1]) > 1e-6 || a.Games != w.Games {
			t.Errorf("refit %s: %+.3f [%+.3f, %+.3f] in %d games; ladder.json has %s %+.3f [%+.3f, %+.3f] in %d", a.Name, a.Elo, a.Range[0], a.Range[1], a.Games, w.Name, w.Elo, w.Range[0], w.Range[1], w.Games)
		}
	}

	// Hunter's MM: γ_i ← W_i / Σ_j n_ij/(γ_i+γ_j), then Elo_i = 400·log10(γ_i/γ_zero).
	n := len(l.Anchors)
	wins := make([]float64, n)
	met := make([][]float64, n)
	for i := range met {
		met[i] = make([]float64, n)
	}
	for _, g := range games {
		s, o := index[g.Players.Sente.Name], index[g.Players.Gote.Name]
		switch g.Result {
		case record.Sente:
			wins[s]++
		case record.Gote:
			wins[o]++
		default:
			t.Fatalf("game %d: %s; the second method here is for games without draws", g.ID, g.Result)
		}
		met[s][o]++
		met[o][s]++
	}
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	for range 20000 {
		next := make([]float64, n)
		for i := range n {
			var den float64
			for j := range n {
				if j != i {
					den += met[i][j] / (gamma[i] + gamma[j])
				}
			}
			next[i] = wins[i] / den
		}
		gamma = next
	}
	zero := gamma[index[l.Zero]]
	for i, a := range l.Anchors {
		if elo := 400 * math.Log10(gamma[i]/zero); math.Abs(elo-a.Elo) > 0.5 {
			t.Errorf("%s: Bradley-Terry by MM gives %+.1f; ladder.json has %+.1f", a.Name, elo, a.Elo)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "build.sh")); err != nil {
		t.Error(err)
	}
}

// TestLadderTable checks the top-level README's table of the ladder: each anchor's rating and
// interval as ladder.json has them, and each placed player's as found here from its gauntlet
// records in datasets/ladder/gauntlet, by the one-parameter logistic likelihood with the
// anchors held at their ratings (no draws in these games): the rating where the expected
// score equals the score, and the 95% interval where twice the log-likelihood falls 3.84
// (the χ² quantile with one degree of freedom) below its maximum, both found by bisection.
func TestLadderTable(t *testing.T) {
	table := sectionOf(t, filepath.Join(root, "README.md"), "### The rating ladder")
	l, err := ladder.ReadFile(filepath.Join(root, "datasets", "ladder", "ladder.json"))
	if err != nil {
		t.Fatal(err)
	}
	elo := map[string]float64{}
	for _, a := range l.Anchors {
		elo[a.Name] = a.Elo
	}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 6 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		rows++
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		games := strings.ReplaceAll(strings.TrimSpace(cells[3]), ",", "")
		var got string
		if a, ok := l.Anchor(name); ok {
			got = fmt.Sprintf("%d %s", a.Games, eloText(a.Elo, a.Range[0], a.Range[1]))
			if a.Name == l.Zero {
				got = fmt.Sprintf("%d 0 (the zero)", a.Games)
			}
		} else {
			files, _ := filepath.Glob(filepath.Join(root, "datasets", "ladder", "gauntlet", name+"-vs-*", "games-0-of-1.jsonl.gz"))
			var opp []float64
			var score []float64
			for _, f := range files {
				gs, _, err := record.Recover(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range gs {
					other, ours := g.Players.Gote.Name, record.Sente
					if g.Players.Gote.Name == name {
						other, ours = g.Players.Sente.Name, record.Gote
					}
					e, ok := elo[other]
					if !ok || g.Result == record.Draw {
						t.Fatalf("%s game %d: against %q, %s", f, g.ID, other, g.Result)
					}
					opp = append(opp, e)
					score = append(score, map[bool]float64{true: 1, false: 0}[g.Result == ours])
				}
			}
			if len(opp) == 0 {
				t.Errorf("%s: no gauntlet records", name)
				continue
			}
			expect := func(r, o float64) float64 { return 1 / (1 + math.Pow(10, (o-r)/400)) }
			ll := func(r float64) float64 {
				var sum float64
				for i, o := range opp {
					p := expect(r, o)
					sum += score[i]*math.Log(p) + (1-score[i])*math.Log(1-p)
				}
				return sum
			}
			// The score equation Σ (s_i − E_i(r)) = 0 falls in r: bisect it.
			lo, hi := -2000.0, 3000.0
			for range 200 {
				mid := (lo + hi) / 2
				var d float64
				for i, o := range opp {
					d += score[i] - expect(mid, o)
				}
				if d > 0 {
					lo = mid
				} else {
					hi = mid
				}
			}
			best := (lo + hi) / 2
			edge := func(far float64) float64 {
				in, out := best, far
				for range 200 {
					mid := (in + out) / 2
					if 2*(ll(best)-ll(mid)) < 3.841458820694124 {
						in = mid
					} else {
						out = mid
					}
				}
				return (in + out) / 2
			}
			got = fmt.Sprintf("%d %s", len(opp), eloText(best, edge(best-1000), edge(best+1000)))
		}
		if want := games + " " + strings.TrimSpace(cells[4]); got != want {
			t.Errorf("%s: recomputed %q; README says %q", name, got, want)
		}
	}
	// Every player with gauntlet records has its row: the directories are named
	// <player>-vs-<anchor>.
	placed := map[string]bool{}
	dirs, _ := filepath.Glob(filepath.Join(root, "datasets", "ladder", "gauntlet", "*"))
	for _, d := range dirs {
		for _, a := range l.Anchors {
			if p, ok := strings.CutSuffix(filepath.Base(d), "-vs-"+a.Name); ok {
				placed[p] = true
			}
		}
	}
	if rows != len(l.Anchors)+len(placed) {
		t.Errorf("%d rows in the ladder's table; want the %d anchors and the %d players placed in datasets/ladder/gauntlet", rows, len(l.Anchors), len(placed))
	}
}

// eloText writes a rating and its interval as the README's table does: +168 [+122, +214].
func eloText(e, lo, hi float64) string {
	return fmt.Sprintf("%+.0f [%+.0f, %+.0f]", e, lo, hi)
}
