package selection_test

import (
	"fmt"

	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/record"
)

// gamma plays only game 7, the bare-king game of analysis/testdata/handicap.jsonl (see its
// README); the eight records are all read.
func ExampleStream() {
	f := selection.Filter{Player: "gamma"}
	counts, err := selection.Stream([]string{"../testdata/small.jsonl", "../testdata/handicap.jsonl"}, f, selection.Options{},
		func(g *record.Game) error {
			fmt.Println(g.ID, g.StartName, g.Players.Sente.Name, "v", g.Players.Gote.Name, g.Result)
			return nil
		})
	fmt.Printf("%+v %v\n", counts, err)
	// Output:
	// 7 bare-king gamma v alpha sente
	// {Read:8 Matched:1 Skipped:0 Rejected:0} <nil>
}
