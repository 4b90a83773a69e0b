package gamestats_test

import (
	"fmt"

	"github.com/shogilab/shogilab/analysis/gamestats"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/record"
)

// The seven games of analysis/testdata/small.jsonl, whose counts its README derives by hand
// (lengths 4 3 4 3 2 1 1: median 3).
func ExampleSummary() {
	s := gamestats.New()
	if _, err := selection.Stream([]string{"../testdata/small.jsonl"}, selection.Filter{}, selection.Options{},
		func(g *record.Game) error { s.Add(g); return nil }); err != nil {
		fmt.Println(err)
		return
	}
	r := s.Report()
	fmt.Printf("%d games: Sente wins %d, Gote wins %d, draws %d\n", r.Games, r.SenteWins.Count, r.GoteWins.Count, r.Draws.Count)
	for _, t := range r.Terminations {
		fmt.Printf("%s: %d\n", t.Termination, t.Games())
	}
	fmt.Printf("median length %d plies\n", r.Lengths[0].Median)
	// Output:
	// 7 games: Sente wins 3, Gote wins 3, draws 1
	// resignation: 6
	// max_plies: 1
	// median length 3 plies
}
