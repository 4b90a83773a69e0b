package paper

import (
	"fmt"
	"math"
	"strings"

	"github.com/shogilab/shogilab/analysis/mawaristats"
	"github.com/shogilab/shogilab/rules/mawari"
)

// The paper's Mawari parameters. The games and throws are enough for every simulated share in
// the figures to sit within a few standard errors of the exact curve at plotting resolution,
// and take about a second.
const (
	MawariPreset = mawari.DefaultPreset // "standard"
	MawariGames  = 20_000
	MawariThrows = 200_000
	MawariSeed   = 1
)

// MawariStudy is the Mawari section: the exact analysis of the standard rules with the
// estimated landing probabilities of docs/rules.md, every preset under the same probabilities, the
// one-at-a-time sensitivity to each probability, and a simulation that checks the exact
// numbers.
type MawariStudy struct {
	Preset        string
	Rules         mawari.Rules
	Probabilities mawari.Probabilities
	Exact         mawaristats.Analysis
	Presets       []mawaristats.PresetAnalysis
	Sensitivity   []mawaristats.SensitivityCurve
	Simulation    mawaristats.Simulation
	// ThrowShares are the simulated shares of each throw score, keyed by mawari.Move.Key.
	ThrowShares map[string]float64
}

// NewMawariStudy runs the Mawari study with the paper's parameters.
func NewMawariStudy() (*MawariStudy, error) {
	r, err := mawari.LookupPreset(MawariPreset)
	if err != nil {
		return nil, fmt.Errorf("paper: %w", err)
	}
	s := &MawariStudy{Preset: MawariPreset, Rules: r, Probabilities: mawari.DefaultProbabilities()}
	if s.Exact, err = mawaristats.Analyze(r, s.Probabilities); err != nil {
		return nil, fmt.Errorf("paper: mawari: %w", err)
	}
	if s.Presets, err = mawaristats.ComparePresets(mawari.Presets(), r.Players, s.Probabilities); err != nil {
		return nil, fmt.Errorf("paper: mawari: %w", err)
	}
	if s.Sensitivity, err = mawaristats.ProbabilitySensitivity(r, s.Probabilities, mawaristats.DefaultScales); err != nil {
		return nil, fmt.Errorf("paper: mawari: %w", err)
	}
	if s.Simulation, err = mawaristats.Simulate(r, s.Probabilities, MawariGames, MawariSeed, nil); err != nil {
		return nil, fmt.Errorf("paper: mawari: %w", err)
	}
	if s.ThrowShares, err = mawaristats.SimulateThrows(r, s.Probabilities, MawariThrows, MawariSeed); err != nil {
		return nil, fmt.Errorf("paper: mawari: %w", err)
	}
	return s, nil
}

// reproduce is the command that prints the numbers of the Mawari figures (and plots them
// into its --out directory).
func (s *MawariStudy) reproduce() string {
	return fmt.Sprintf("`go run ./cmd/analyze mawari --preset %s --games %d --throws %d --seed %d`", s.Preset, MawariGames, MawariThrows, MawariSeed)
}

// Figures are the Mawari figures: the throw score distribution, the game length and its CDF
// for every preset, and the sensitivity of the game length and of the first player's advantage.
func (s *MawariStudy) Figures() []Figure {
	a := s.Exact
	probs := fmt.Sprintf("landing probabilities back, face, side, upright, point = %s (estimates; docs/rules.md#mawari-probabilities)", s.Probabilities)
	model := "computed exactly by Markov chain in package analysis/mawaristats"
	title := fmt.Sprintf("Mawari shogi, %s rules", s.Preset)

	meanScore, mode := 0.0, a.Throw[0]
	rare := 0
	for _, mp := range a.Throw {
		meanScore += float64(mp.Move.Steps) * mp.Probability
		if mp.Probability > mode.Probability {
			mode = mp
		}
		if mp.Probability < mawaristats.ThrowChartFloor {
			rare++
		}
	}
	// The chart's own title note on the rare scores is the caption's here.
	throwChart := mawaristats.ThrowChart("", a.Throw, s.ThrowShares, "simulated")
	throwChart.Title = title + ": score of one throw"
	throw := chartFigure("mawari_throw_score",
		fmt.Sprintf("Score of one throw of four gold generals under the %s rules of Mawari shogi, %s: exact probabilities (bars, %s) and the shares of %s throws simulated from seed %d (points); the %d scores rarer than 1 in %s are not shown. Mean score %.3f squares; the most likely score is %s, with probability %.4f. Same numbers: %s.",
			s.Preset, probs, model, thousands(MawariThrows), MawariSeed, rare, thousands(int(math.Round(1/mawaristats.ThrowChartFloor))), meanScore, mode.Move.Key(), mode.Probability, s.reproduce()),
		throwChart)

	var curves []mawaristats.LengthCurve
	var means []string
	for _, pa := range s.Presets {
		curves = append(curves, mawaristats.LengthCurve{Label: pa.Name, Rounds: pa.Race.Rounds})
		means = append(means, fmt.Sprintf("%s %.2f", pa.Name, pa.MeanRounds()))
	}
	simMean, simErr := s.Simulation.MeanRounds()
	pmf, cdf := mawaristats.GameLengthCharts(title+": length of a game", curves, &s.Simulation, s.Preset+", simulated")
	lengthText := fmt.Sprintf("two players, %s: the distribution for each preset of the rules (lines; %s) and the shares in %s games of the %s preset simulated from seeds %d.. (points). Mean round in which the game ends: %s; simulated %s: %.2f ± %.2f (standard error). Same numbers: %s.",
		probs, model, thousands(s.Simulation.Games), s.Preset, s.Simulation.Seed, strings.Join(means, ", "), s.Preset, simMean, simErr, s.reproduce())
	length := chartFigure("mawari_game_length", "Round in which a game of Mawari shogi ends, "+lengthText, pmf)
	lengthCDF := chartFigure("mawari_game_length_cdf", "Cumulative distribution of the round in which a game of Mawari shogi ends, "+lengthText, cdf)

	lengthChart, advantageChart := mawaristats.SensitivityCharts(title+": sensitivity to the landing probabilities", s.Sensitivity)
	var lengthRange, advRange []string
	for _, c := range s.Sensitivity {
		lo, hi := math.Inf(1), math.Inf(-1)
		alo, ahi := math.Inf(1), math.Inf(-1)
		for _, pt := range c.Points {
			lo, hi = math.Min(lo, pt.MeanRounds), math.Max(hi, pt.MeanRounds)
			alo, ahi = math.Min(alo, pt.FirstPlayerAdvantage), math.Max(ahi, pt.FirstPlayerAdvantage)
		}
		lengthRange = append(lengthRange, fmt.Sprintf("%s %.1f–%.1f", c.Outcome, lo, hi))
		advRange = append(advRange, fmt.Sprintf("%s %+.4f to %+.4f", c.Outcome, alo, ahi))
	}
	scales := fmt.Sprintf("each landing probability scaled in turn by %g to %g times its estimate (marks at each step of %g), the others rescaled to keep their odds; %s preset, two players, %s",
		mawaristats.DefaultScales[0], mawaristats.DefaultScales[len(mawaristats.DefaultScales)-1], mawaristats.DefaultScales[1]-mawaristats.DefaultScales[0], s.Preset, model)
	sensLength := chartFigure("mawari_sensitivity_length",
		fmt.Sprintf("Sensitivity of the mean length of a game of Mawari shogi (rounds) to the landing probabilities: %s. The estimates are %s. Range of the mean: %s; at the estimates %.2f. Same numbers: %s.",
			scales, probs, strings.Join(lengthRange, "; "), a.MeanRounds(), s.reproduce()),
		lengthChart)
	sensAdv := chartFigure("mawari_sensitivity_advantage",
		fmt.Sprintf("Sensitivity of the first player's advantage in Mawari shogi, P(first player wins) − 1/2, to the landing probabilities: %s. The estimates are %s. Range: %s; at the estimates %+.4f. Same numbers: %s.",
			scales, probs, strings.Join(advRange, "; "), a.FirstPlayerAdvantage(), s.reproduce()),
		advantageChart)
	return []Figure{throw, length, lengthCDF, sensLength, sensAdv}
}

// thousands writes n with commas between groups of three digits, as the captions do.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
