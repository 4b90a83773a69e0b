package bushiplay

import (
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/bushi"
)

// valueIteration is a second solver, written plainly for the test: over all
// bushi.NumPositions positions, recompute each value from its children's until nothing
// changes. A mated position is lost for the side to move; a position with a lost child is a
// win one ply longer than the shortest such; a position whose children are all won is a loss
// one ply longer than the longest; what never settles is a draw.
func valueIteration(r *bushi.Rules) (val []retro.Value, dist []int) {
	val, dist = make([]retro.Value, bushi.NumPositions), make([]int, bushi.NumPositions)
	children := make([][]int, bushi.NumPositions)
	for c := range bushi.NumPositions {
		p := bushi.PositionFromCode(c)
		dist[c] = -1
		if _, over := r.Winner(p); over {
			val[c], dist[c] = retro.Loss, 0
			continue
		}
		for _, m := range r.LegalMoves(p, nil) {
			children[c] = append(children[c], r.Play(p, m).Code())
		}
	}
	for changed := true; changed; {
		changed = false
		for c, kids := range children {
			if len(kids) == 0 {
				continue
			}
			v, d, allWon, longest := retro.Unknown, -1, true, 0
			for _, k := range kids {
				if val[k] == retro.Loss && (v == retro.Unknown || dist[k]+1 < d) {
					v, d = retro.Win, dist[k]+1
				}
				allWon = allWon && val[k] == retro.Win
				longest = max(longest, dist[k]+1)
			}
			if v == retro.Unknown && allWon {
				v, d = retro.Loss, longest
			}
			if v != val[c] || d != dist[c] {
				val[c], dist[c], changed = v, d, true
			}
		}
	}
	for c := range val {
		if val[c] == retro.Unknown {
			val[c] = retro.Draw
		}
	}
	return val, dist
}

func TestSolveAgreesWithValueIteration(t *testing.T) {
	layouts := []bushi.Layout{bushi.DefaultLayout()}
	rng := rand.New(rand.NewPCG(6, 5))
	for range 20 {
		layouts = append(layouts, bushi.LayoutFromCode(bushi.LayoutCode(rng.IntN(bushi.NumLayouts))))
	}
	var rs rootSolver
	for _, l := range layouts {
		r, err := bushi.NewRules(l)
		if err != nil {
			t.Fatal(err)
		}
		s := Solve(r)
		val, dist := valueIteration(r)
		for c := range bushi.NumPositions {
			p := bushi.PositionFromCode(c)
			v, d := s.Value(p)
			if v != val[c] || d != dist[c] {
				t.Fatalf("layout %v, %v: retro %v in %d, value iteration %v in %d", l.Compact(), p, v, d, val[c], dist[c])
			}
		}
		// The study's root-only solve agrees with the complete one.
		res, plies := rs.solve(r)
		if v, d := s.Value(bushi.Start()); res != resultOf(v, bushi.Black) || plies != d {
			t.Errorf("layout %v: root solve %v in %d, complete solve %v in %d", l.Compact(), res, plies, v, d)
		}
	}
}

// The optimal line ends in mate by the predicted winner after exactly the predicted number of
// plies, and each move is legal.
func TestOptimalLine(t *testing.T) {
	r, _ := bushi.NewRules(bushi.DefaultLayout())
	s := Solve(r)
	v, d := s.Value(bushi.Start())
	if v == retro.Draw {
		t.Skip("the default layout is a draw; no line ends")
	}
	p := bushi.Start()
	line := s.Line(p, 1000)
	if len(line) != d {
		t.Fatalf("line of %d plies, value says %d", len(line), d)
	}
	for _, m := range line {
		legal := false
		for _, l := range r.LegalMoves(p, nil) {
			legal = legal || l == m
		}
		if !legal {
			t.Fatalf("%v is not legal in %v", m, p)
		}
		p = r.Play(p, m)
	}
	winner, over := r.Winner(p)
	if !over || Result(winner)+BlackWins != s.Result(bushi.Start()) {
		t.Errorf("line ends in %v (over %v, winner %v), want a win for %v", p, over, winner, s.Result(bushi.Start()))
	}
}

func TestStudyIndependentOfWorkers(t *testing.T) {
	one := StudyLayouts(StudyOptions{Workers: 1, Limit: 1500})
	three := StudyLayouts(StudyOptions{Workers: 3, Limit: 1500})
	if one.Classes != three.Classes || one.Raw != three.Raw {
		t.Fatalf("1 worker %+v, 3 workers %+v", one, three)
	}
	if n := one.Classes.BlackWins + one.Classes.WhiteWins + one.Classes.Draws; n != 1500 {
		t.Errorf("studied %d classes, want 1500", n)
	}
	// Each example's result holds for every rotation of it, solved completely.
	for res, ex := range one.Example {
		if ex == nil {
			continue
		}
		if *ex != *three.Example[res] {
			t.Errorf("examples differ: %+v vs %+v", ex, three.Example[res])
		}
		for q := range bushi.Orientation(bushi.NumOrientations) {
			r, _ := bushi.NewRules(ex.Layout.Rotated(q))
			if got := Solve(r).Result(bushi.Start()); got != Result(res) {
				t.Errorf("%v rotated by %v: %v, want %v", ex.Layout.Compact(), q, got, Result(res))
			}
		}
	}
}
