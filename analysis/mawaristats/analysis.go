package mawaristats

import (
	"math"

	"github.com/shogilab/shogilab/rules/mawari"
)

// Analysis is the exact answer to how a game goes under given rules and landing
// probabilities.
type Analysis struct {
	Rules         mawari.Rules
	Probabilities mawari.Probabilities
	// Throw is the distribution of one throw's move.
	Throw []mawari.MoveProbability
	// MeanTurns and SDTurns are the mean and standard deviation of the number of turns
	// one player needs to win, from the fundamental matrix.
	MeanTurns, SDTurns float64
	// Turns is the distribution of that number.
	Turns Distribution
	// Race is the game among Rules.Players players.
	Race Race
	// States is the size of the chain.
	States int
}

// Analyze computes the exact Analysis.
func Analyze(r mawari.Rules, p mawari.Probabilities) (Analysis, error) {
	c, err := NewChain(r, p)
	if err != nil {
		return Analysis{}, err
	}
	mean, variance, err := c.Moments()
	if err != nil {
		return Analysis{}, err
	}
	turns, err := c.TurnDistribution(DefaultTail)
	if err != nil {
		return Analysis{}, err
	}
	return Analysis{
		Rules:         r,
		Probabilities: p,
		Throw:         r.ThrowDistribution(p),
		MeanTurns:     mean,
		SDTurns:       math.Sqrt(max(variance, 0)),
		Turns:         turns,
		Race:          NewRace(turns, r.Players),
		States:        c.States(),
	}, nil
}

// ThrowPMF is the throw distribution keyed by mawari.Move.Key.
func (a Analysis) ThrowPMF() map[string]float64 {
	pmf := make(map[string]float64, len(a.Throw))
	for _, e := range a.Throw {
		pmf[e.Move.Key()] = e.Probability
	}
	return pmf
}

// FirstPlayerAdvantage is how much more often seat 0 wins than a fair share 1/n.
func (a Analysis) FirstPlayerAdvantage() float64 {
	return a.Race.WinProbability[0] - 1/float64(len(a.Race.WinProbability))
}

// MeanRounds is the expected round in which the game ends.
func (a Analysis) MeanRounds() float64 { return a.Race.Rounds.Mean() }
