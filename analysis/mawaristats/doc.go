// Package mawaristats answers how a game of Mawari shogi goes, exactly and by simulation:
// the score of a throw, the number of turns a player needs to win, the length of the game,
// each seat's chance to win, and how all of these depend on the landing probabilities and
// the house rules. The rules themselves are in rules/mawari.
//
// Exact analysis. Pieces never interact, so one player's race is a Markov chain on its
// piece (rank, and position relative to the corners); NewChain builds it from
// mawari.Rules.Advance. Moments solves for the mean and variance of the turns to win
// with the fundamental matrix (gonum/mat), TurnDistribution gives the whole distribution,
// and NewRace combines independent players throwing in turn into each seat's chance to
// win and the distribution of the game's length. Analyze does all of it:
//
//	r, _ := mawari.LookupPreset("standard")
//	a, err := mawaristats.Analyze(r, mawari.DefaultProbabilities())
//	// a.MeanTurns (56 under the standard rules), a.Race.WinProbability, a.MeanRounds()
//
// Simulation. Simulate plays games with mawari.Play, each from its own seed, and lone
// races; its means and shares agree with Analyze within their standard errors.
//
// Estimation. ReadCounts reads observed counts of single-piece outcomes or of throw
// scores from CSV, and FitCounts gives maximum-likelihood landing probabilities with
// profile-likelihood confidence intervals (gonum/optimize, gonum/stat/distuv).
//
// Sensitivity. ProbabilitySensitivity scales each outcome's probability in turn;
// ComparePresets analyses every preset with the same probabilities.
//
// Figures. ThrowChart, GameLengthCharts and SensitivityCharts describe the plots as
// internal/figure charts, which cmd/analyze draws and saves as PNG and SVG.
package mawaristats
