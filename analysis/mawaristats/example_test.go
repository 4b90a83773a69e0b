package mawaristats_test

import (
	"fmt"

	"github.com/shogilab/shogilab/analysis/mawaristats"
	"github.com/shogilab/shogilab/rules/mawari"
)

// Under the standard rules a player needs 56 turns on average whatever the landing
// probabilities (seven corner stops, one every eight turns on average); the first player
// wins slightly more often than half the time.
// Under the standard rules one player needs 56 turns on average whatever the probabilities
// (a renewal argument; TestMeanTurnsRenewal derives it).
func ExampleAnalyze() {
	r, _ := mawari.LookupPreset("standard")
	a, err := mawaristats.Analyze(r, mawari.DefaultProbabilities())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mean turns %.4f\n", a.MeanTurns)
	fmt.Printf("first player wins more than half: %t\n", a.Race.WinProbability[0] > 0.5)
	// Output:
	// mean turns 56.0000
	// first player wins more than half: true
}

// Estimating the landing probabilities from 200 single pieces: the estimate is the
// observed share.
func ExampleFitCounts() {
	counts := mawaristats.Counts{Kind: mawaristats.OutcomeCounts, Outcomes: [mawari.NumOutcomes]int{90, 88, 17, 4, 1}}
	fit, err := mawaristats.FitCounts(counts, mawari.Rules{}, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(fit.Probabilities())
	// Output: 0.45,0.44,0.085,0.02,0.005
}
