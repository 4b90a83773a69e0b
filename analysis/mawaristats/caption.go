package mawaristats

import (
	"fmt"
	"math"
	"strings"

	"github.com/shogilab/shogilab/internal/figure"
)

// Study is what the captions of the Mawari charts describe: the exact analysis of the rules
// studied, every preset under the same landing probabilities, the sensitivity curves, and
// the simulations that check them.
type Study struct {
	Exact       Analysis
	Presets     []PresetAnalysis
	Sensitivity []SensitivityCurve
	Scales      []float64   // the scales of the sensitivity curves (DefaultScales)
	Simulation  *Simulation // games played; nil if none
	Throws      int         // throws simulated for the throw chart (0: none)
	ThrowSeed   uint64
	// Probabilities says what the landing probabilities are and where they come from, such
	// as "landing probabilities back, face, side, upright, point = 0.45,... (estimates;
	// docs/rules.md#mawari-probabilities)".
	Probabilities string
}

// Captions are the captions of the Mawari charts, one per chart: what it shows and its
// numbers. They name package analysis/mawaristats as the source of the exact numbers.
type Captions struct {
	ThrowScore, GameLength, GameLengthCDF, SensitivityLength, SensitivityAdvantage string
}

const exactModel = "computed exactly by Markov chain in package analysis/mawaristats"

// rulesName is the preset whose rules the study's are, or "chosen" when none is.
func (s Study) rulesName() string {
	for _, pa := range s.Presets {
		if pa.Rules == s.Exact.Rules {
			return pa.Name
		}
	}
	return "chosen"
}

func players(n int) string {
	if n == 2 {
		return "two players"
	}
	return fmt.Sprintf("%d players", n)
}

// Captions writes the captions of ThrowChart, GameLengthCharts and SensitivityCharts of s.
func (s Study) Captions() Captions {
	a, name := s.Exact, s.rulesName()
	var c Captions

	meanScore, mode := 0.0, a.Throw[0]
	rare := 0
	for _, mp := range a.Throw {
		meanScore += float64(mp.Move.Steps) * mp.Probability
		if mp.Probability > mode.Probability {
			mode = mp
		}
		if mp.Probability < ThrowChartFloor {
			rare++
		}
	}
	shown := "exact probabilities (bars, " + exactModel + ")"
	if s.Throws > 0 {
		shown += fmt.Sprintf(" and the shares of %s throws simulated from seed %d (points)", figure.Thousands(s.Throws), s.ThrowSeed)
	}
	c.ThrowScore = fmt.Sprintf("Score of one throw of four gold generals under the %s rules of Mawari shogi, %s: %s; the %d scores rarer than 1 in %s are not shown. Mean score %.3f squares; the most likely score is %s, with probability %.4f.",
		name, s.Probabilities, shown, rare, figure.Thousands(int(math.Round(1/ThrowChartFloor))), meanScore, mode.Move.Key(), mode.Probability)

	var means []string
	for _, pa := range s.Presets {
		means = append(means, fmt.Sprintf("%s %.2f", pa.Name, pa.MeanRounds()))
	}
	lines := "the distribution for each preset of the rules"
	if name == "chosen" {
		lines += " and for the chosen rules"
		means = append(means, fmt.Sprintf("chosen rules %.2f", a.MeanRounds()))
	}
	length := fmt.Sprintf("%s, %s: %s (lines; %s)", players(a.Rules.Players), s.Probabilities, lines, exactModel)
	if sim := s.Simulation; sim != nil {
		m, se := sim.MeanRounds()
		length += fmt.Sprintf(" and the shares in %s games of the %s rules simulated from seeds %d.. (points). Mean round in which the game ends: %s; simulated %s: %.2f ± %.2f (standard error).",
			figure.Thousands(sim.Games), name, sim.Seed, strings.Join(means, ", "), name, m, se)
	} else {
		length += ". Mean round in which the game ends: " + strings.Join(means, ", ") + "."
	}
	c.GameLength = "Round in which a game of Mawari shogi ends, " + length
	c.GameLengthCDF = "Cumulative distribution of the round in which a game of Mawari shogi ends, " + length

	var lengthRange, advRange []string
	for _, curve := range s.Sensitivity {
		lo, hi := math.Inf(1), math.Inf(-1)
		alo, ahi := math.Inf(1), math.Inf(-1)
		for _, pt := range curve.Points {
			lo, hi = math.Min(lo, pt.MeanRounds), math.Max(hi, pt.MeanRounds)
			alo, ahi = math.Min(alo, pt.FirstPlayerAdvantage), math.Max(ahi, pt.FirstPlayerAdvantage)
		}
		lengthRange = append(lengthRange, fmt.Sprintf("%s %.1f–%.1f", curve.Outcome, lo, hi))
		advRange = append(advRange, fmt.Sprintf("%s %+.4f to %+.4f", curve.Outcome, alo, ahi))
	}
	scales := ""
	if n := len(s.Scales); n > 1 {
		scales = fmt.Sprintf("each landing probability scaled in turn by %g to %g times its base value (marks at each step of %g), the others rescaled to keep their odds; %s rules, %s, %s",
			s.Scales[0], s.Scales[n-1], s.Scales[1]-s.Scales[0], name, players(a.Rules.Players), exactModel)
	}
	c.SensitivityLength = fmt.Sprintf("Sensitivity of the mean length of a game of Mawari shogi (rounds) to the landing probabilities: %s. The base values are the %s. Range of the mean: %s; at the base values %.2f.",
		scales, s.Probabilities, strings.Join(lengthRange, "; "), a.MeanRounds())
	c.SensitivityAdvantage = fmt.Sprintf("Sensitivity of the first player's advantage in Mawari shogi, P(first player wins) − 1/2, to the landing probabilities: %s. The base values are the %s. Range: %s; at the base values %+.4f.",
		scales, s.Probabilities, strings.Join(advRange, "; "), a.FirstPlayerAdvantage())
	return c
}
