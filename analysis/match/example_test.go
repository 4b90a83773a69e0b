package match_test

import (
	"fmt"

	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/record"
)

// A pair of games from one opening, A Sente in game 0: A wins the first and
// draws the second, 1½ points of 2; the same pair again is a replay and adds
// nothing.
func ExampleStandings() {
	players := func(id int) record.Players {
		a, b := record.Player{Name: "A"}, record.Player{Name: "B"}
		if id%2 == 1 {
			a, b = b, a
		}
		return record.Players{Sente: a, Gote: b}
	}
	st := match.NewStandings(true)
	for id, r := range []record.Result{record.Sente, record.Draw, record.Sente, record.Draw} {
		moves := []string{"2e2d", "4a4b"}[id%2:]
		st.Add(&record.Game{ID: id, Start: "startpos", Moves: moves, Result: r, Players: players(id)})
	}
	rep := st.Report()
	fmt.Println(st, "pentanomial", rep.Pentanomial, "replayed pairs", rep.ReplayedPairs)
	// Output: +1 =1 -0 pentanomial [0 0 0 1 0] replayed pairs 1
}
