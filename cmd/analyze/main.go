// Command analyze runs the project's analyses, one subcommand each:
//
//	analyze mawari [flags]             Mawari shogi: exact throw and game-length analysis,
//	                                   simulation, sensitivity, plots
//	analyze mawari fit [flags] FILE    estimate landing probabilities from observed counts
//	analyze openings [flags] FILES     the opening tree of game records, with Wilson intervals
//	analyze games [flags] FILES        results by colour, terminations, game lengths
//	analyze ratings [flags] FILES      Elo ratings by maximum likelihood (Davidson's draws)
//	analyze match [flags] FILES        a match's score and Elo on its game pairs, from its records
//	analyze ladder fit|rate [flags] FILES
//	                                   a rating ladder's anchors fixed from a round robin, or a
//	                                   player placed on it from a gauntlet
//
// Run analyze SUBCOMMAND -h for a subcommand's flags.
package main

import (
	"os"

	"github.com/shogilab/shogilab/internal/cli"
)

// program is the dispatcher; to add an analysis, write its run function in a file of its own
// and add its line here.
var program = cli.Program{
	Name:  "analyze",
	Intro: "analyze turns game records and game models into tables, JSON and plots.",
	Commands: []cli.Command{
		{Name: "mawari", Summary: "Mawari shogi: throw and game-length analysis, simulation, plots; 'mawari fit' estimates landing probabilities", Run: runMawari},
		{Name: "openings", Summary: "opening tree of game records: lines and transpositions with scores and Wilson intervals", Run: runOpenings},
		{Name: "games", Summary: "results by colour, terminations and game lengths of game records", Run: runGames},
		{Name: "ratings", Summary: "Elo ratings of the players in game records by maximum likelihood, with intervals and LOS", Run: runRatings},
		{Name: "match", Summary: "score, Elo and LOS of player A of a match played in pairs, on the distinct game pairs, from its records; --sprt recomputes the test", Run: runMatch},
		{Name: "ladder", Summary: "'ladder fit' fixes a rating ladder from a round robin of its anchors; 'ladder rate' places a player on it from a gauntlet", Run: runLadder},
	},
}

func main() { os.Exit(program.Run(os.Args[1:], os.Stdout, os.Stderr)) }
