package mawari_test

import (
	"fmt"

	"github.com/shogilab/shogilab/rules/mawari"
)

// Two fair flat pieces' worth of chance: each general shows its back or its face with
// probability 1/2. Four backs score 8 under the standard rules.
func ExampleRules_ThrowDistribution() {
	r, _ := mawari.LookupPreset("standard")
	p := mawari.Probabilities{mawari.Back: 0.5, mawari.Face: 0.5}
	for _, e := range r.ThrowDistribution(p) {
		fmt.Printf("%s: %.4f\n", e.Move, e.Probability)
	}
	// Output:
	// 1: 0.2500
	// 2: 0.3750
	// 3: 0.2500
	// 4: 0.0625
	// 8: 0.0625
}

func ExampleRules_Advance() {
	r, _ := mawari.LookupPreset("standard")
	pc := mawari.Piece{Progress: 5} // a pawn 5 squares past its start corner
	pc, won := r.Advance(pc, mawari.Move{Steps: 11})
	fmt.Println(pc.Rank(r), pc.Progress, won)
	// Output: lance 16 false
}

// Every general face up: each throw scores 4, so each player stops on a corner every
// second throw and needs 14 throws; the first player gets there first, on the game's 27th
// throw (14 of its own and 13 of the second player's).
func ExamplePlay() {
	r, _ := mawari.LookupPreset("standard")
	res, err := mawari.Play(r, mawari.Probabilities{mawari.Face: 1}, 42)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("winner", res.Winner, "throws", res.Turns)
	// Output: winner 0 throws 27
}
