package openings_test

import (
	"fmt"
	"strings"

	"github.com/shogilab/shogilab/analysis/openings"
	"github.com/shogilab/shogilab/analysis/selection"
)

// The lines of analysis/testdata/small.jsonl, counted by hand in its README; the intervals
// are Wilson's (score.Wilson), e.g. 2 of 3 gives [0.208, 0.939].
func ExampleTree() {
	tree := openings.NewTree(3)
	if _, err := selection.Stream([]string{"../testdata/small.jsonl"}, selection.Filter{}, selection.Options{}, tree.Add); err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range tree.Lines(2) {
		fmt.Printf("%-16s %d games, Sente scores %.3f [%.3f, %.3f]; %d games reach its position\n",
			strings.Join(l.Moves, " "), l.Games, l.Score, l.Interval[0], l.Interval[1], l.PositionGames)
	}
	// Output:
	// 2e3d             3 games, Sente scores 0.667 [0.208, 0.939]; 3 games reach its position
	// 2e3d 4a3b        2 games, Sente scores 0.500 [0.095, 0.905]; 2 games reach its position
	// 2e3d 4a3b 3e2d   2 games, Sente scores 0.500 [0.095, 0.905]; 4 games reach its position
	// 3e2d             2 games, Sente scores 0.750 [0.198, 0.973]; 2 games reach its position
	// 3e2d 4a3b        2 games, Sente scores 0.750 [0.198, 0.973]; 2 games reach its position
	// 3e2d 4a3b 2e3d   2 games, Sente scores 0.750 [0.198, 0.973]; 4 games reach its position
	// 5d5c             2 games, Sente scores 0.000 [0.000, 0.658]; 2 games reach its position
}
