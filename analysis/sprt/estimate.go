package sprt

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/shogilab/shogilab/analysis/score"
)

// Pentanomial counts game pairs by the points player A took from the pair:
// index i holds the pairs where A took i/2 points (0, 1/2, 1, 3/2, 2).
type Pentanomial [5]int

// Add counts one pair in which A took points points (0, 0.5, 1, 1.5 or 2).
// It panics on any other value: a pair's points are the caller's arithmetic.
func (p *Pentanomial) Add(points float64) {
	i := int(points * 2)
	if i < 0 || i > 4 || float64(i) != points*2 {
		panic(fmt.Sprintf("sprt: a pair of games gives 0, 1/2, 1, 3/2 or 2 points, not %v", points))
	}
	p[i]++
}

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Units returns the pairs as units for Estimate.
func (p Pentanomial) Units() Units {
	return Units{Counts: p[:], GamesPerUnit: 2}
}

// Trinomial counts single games by A's result.
type Trinomial struct{ Losses, Draws, Wins int }

// Units returns the games as units for Estimate.
func (t Trinomial) Units() Units {
	return Units{Counts: []int{t.Losses, t.Draws, t.Wins}, GamesPerUnit: 1}
}

// Units are the independent samples of a match: Counts[i] units scored
// i/(len(Counts)-1) of their points per game (pairs: 0, 1/4, 1/2, 3/4, 1;
// games: 0, 1/2, 1), each unit GamesPerUnit games.
type Units struct {
	Counts       []int
	GamesPerUnit int
}

// Strength is what a match says about A against B.
type Strength struct {
	Games int     `json:"games"`
	Score float64 `json:"score"` // A's points per game
	// ScoreLow and ScoreHigh bound the score's 95% interval.
	ScoreLow  float64 `json:"score_low"`
	ScoreHigh float64 `json:"score_high"`
	// Elo is the logistic Elo of the score, with the interval's ends mapped
	// alike (±Inf at scores of 0 and 1).
	Elo     float64 `json:"elo"`
	EloLow  float64 `json:"elo_low"`
	EloHigh float64 `json:"elo_high"`
	// NElo is the normalized Elo, with the interval's ends mapped alike; NaN
	// when the variance is 0.
	NElo     float64 `json:"nelo"`
	NEloLow  float64 `json:"nelo_low"`
	NEloHigh float64 `json:"nelo_high"`
	// LOS is the likelihood of superiority: the probability that A is the
	// stronger, Φ((score - 1/2)/standard error).
	LOS float64 `json:"los"`
	// StdDev is the standard deviation of a game's score (for pairs, the
	// pairs' per game: σ_pair/√2).
	StdDev float64 `json:"std_dev"`
}

// nEloPerT converts a t-value per game to normalized Elo: 800/ln 10, the
// slope of the logistic Elo curve at a score of 1/2 times 2 (Van den Bergh).
var nEloPerT = 800 / math.Ln10

// Estimate is the score, Elo, normalized Elo and LOS of a match with their
// 95% intervals (see the package doc). With no units the score is NaN.
func Estimate(u Units) Strength {
	n := 0
	for _, c := range u.Counts {
		n += c
	}
	r := Strength{Games: n * u.GamesPerUnit}
	if n == 0 || len(u.Counts) < 2 {
		nan := math.NaN()
		return Strength{Score: nan, ScoreLow: 0, ScoreHigh: 1, Elo: nan, EloLow: math.Inf(-1), EloHigh: math.Inf(1),
			NElo: nan, NEloLow: nan, NEloHigh: nan, LOS: nan, StdDev: nan}
	}
	last := float64(len(u.Counts) - 1)
	var mean float64
	for i, c := range u.Counts {
		mean += float64(c) * float64(i) / last
	}
	mean /= float64(n)
	var ss float64
	for i, c := range u.Counts {
		d := float64(i)/last - mean
		ss += float64(c) * d * d
	}
	// The units' variance as Fishtest takes it (divided by n): an interval
	// of n units has n-1 degrees of freedom, a difference that vanishes at
	// the sizes a match is judged on.
	unitVar := ss / float64(n)
	se := math.Sqrt(unitVar / float64(n))
	r.StdDev = math.Sqrt(unitVar * float64(u.GamesPerUnit))
	r.Score = mean
	z := score.Z95
	if se > 0 {
		r.ScoreLow, r.ScoreHigh = max(0, mean-z*se), min(1, mean+z*se)
		r.LOS = distuv.UnitNormal.CDF((mean - 0.5) / se)
	} else {
		r.ScoreLow, r.ScoreHigh = score.Wilson(mean, r.Games, z)
		r.LOS = 0.5
		if mean > 0.5 {
			r.LOS = 1
		} else if mean < 0.5 {
			r.LOS = 0
		}
	}
	r.Elo, r.EloLow, r.EloHigh = score.Elo(r.Score), score.Elo(r.ScoreLow), score.Elo(r.ScoreHigh)
	nelo := func(s float64) float64 {
		if r.StdDev == 0 {
			return math.NaN()
		}
		return (s - 0.5) / r.StdDev * nEloPerT
	}
	r.NElo, r.NEloLow, r.NEloHigh = nelo(r.Score), nelo(r.ScoreLow), nelo(r.ScoreHigh)
	return r
}
