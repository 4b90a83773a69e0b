package bushiplay

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/internal/retrotest"
	"github.com/shogilab/shogilab/outcome"
	"github.com/shogilab/shogilab/rules/bushi"
)

// valueIteration solves every one of the bushi.NumPositions positions by the plain value
// iteration of internal/retrotest over the graph of legal moves; a finished position
// (Rules.Winner) is lost for the side to move.
func valueIteration(r *bushi.Rules) ([]outcome.Value, []int32) {
	children := make([][]int, bushi.NumPositions)
	terminal := make([]bool, bushi.NumPositions)
	for c := range bushi.NumPositions {
		p := bushi.PositionFromCode(c)
		if _, over := r.Winner(p); over {
			terminal[c] = true
			continue
		}
		for _, m := range r.LegalMoves(p, nil) {
			children[c] = append(children[c], r.Play(p, m).Code())
		}
	}
	return retrotest.ValueIteration(children, terminal)
}

func TestSolveAgreesWithValueIteration(t *testing.T) {
	layouts := []bushi.Layout{bushi.DefaultLayout()}
	rng := rand.New(rand.NewPCG(6, 5))
	for range 20 {
		layouts = append(layouts, bushi.LayoutFromCode(bushi.LayoutCode(rng.IntN(bushi.NumLayouts))))
	}
	var rs rootSolver
	for _, l := range layouts {
		t.Run(fmt.Sprint(l), func(t *testing.T) {
			r, err := bushi.NewRules(l)
			if err != nil {
				t.Fatal(err)
			}
			s := Solve(r)
			val, dist := valueIteration(r)
			for c := range bushi.NumPositions {
				p := bushi.PositionFromCode(c)
				v, d := s.Value(p)
				if v != val[c] || d != int(dist[c]) {
					t.Fatalf("layout %v, %v: retro %v in %d, value iteration %v in %d", l.Compact(), p, v, d, val[c], dist[c])
				}
			}
			// The study's root-only solve agrees with the complete one.
			res, plies := rs.solve(r)
			if v, d := s.Value(bushi.Start()); res != resultOf(v, bushi.Black) || plies != d {
				t.Errorf("layout %v: root solve %v in %d, complete solve %v in %d", l.Compact(), res, plies, v, d)
			}
		})
	}
}

// The optimal line ends in mate by the predicted winner after exactly the predicted number of
// plies, and each move is legal.
func TestOptimalLine(t *testing.T) {
	r, _ := bushi.NewRules(bushi.DefaultLayout())
	s := Solve(r)
	v, d := s.Value(bushi.Start())
	if v == outcome.Draw {
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
