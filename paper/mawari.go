package paper

import (
	"fmt"

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
// Their captions are mawaristats' (Study.Captions), with the command that prints the numbers.
func (s *MawariStudy) Figures() []Figure {
	title := fmt.Sprintf("Mawari shogi, %s rules", s.Preset)
	caps := mawaristats.Study{
		Exact: s.Exact, Presets: s.Presets, Sensitivity: s.Sensitivity, Scales: mawaristats.DefaultScales,
		Simulation: &s.Simulation, Throws: MawariThrows, ThrowSeed: MawariSeed,
		Probabilities: fmt.Sprintf("landing probabilities back, face, side, upright, point = %s (estimates; docs/rules.md#mawari-probabilities)", s.Probabilities),
	}.Captions()
	same := " Same numbers: " + s.reproduce() + "."

	// The chart's own title note on the rare scores is the caption's here.
	throwChart := mawaristats.ThrowChart("", s.Exact.Throw, s.ThrowShares, "simulated")
	throwChart.Title = title + ": score of one throw"
	throw := chartFigure("mawari_throw_score", caps.ThrowScore+same, throwChart)

	var curves []mawaristats.LengthCurve
	for _, pa := range s.Presets {
		curves = append(curves, mawaristats.LengthCurve{Label: pa.Name, Rounds: pa.Race.Rounds})
	}
	pmf, cdf := mawaristats.GameLengthCharts(title+": length of a game", curves, &s.Simulation, s.Preset+", simulated")
	length := chartFigure("mawari_game_length", caps.GameLength+same, pmf)
	lengthCDF := chartFigure("mawari_game_length_cdf", caps.GameLengthCDF+same, cdf)

	lengthChart, advantageChart := mawaristats.SensitivityCharts(title+": sensitivity to the landing probabilities", s.Sensitivity)
	sensLength := chartFigure("mawari_sensitivity_length", caps.SensitivityLength+same, lengthChart)
	sensAdv := chartFigure("mawari_sensitivity_advantage", caps.SensitivityAdvantage+same, advantageChart)
	return []Figure{throw, length, lengthCDF, sensLength, sensAdv}
}
