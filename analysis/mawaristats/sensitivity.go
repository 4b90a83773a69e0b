package mawaristats

import (
	"fmt"

	"github.com/shogilab/shogilab/rules/mawari"
)

// Scaled returns base with the probability of outcome o multiplied by scale and the other
// outcomes scaled together so that the sum stays one: the one-at-a-time perturbation of a
// sensitivity study, which keeps the other outcomes' relative odds.
func Scaled(base mawari.Probabilities, o mawari.Outcome, scale float64) (mawari.Probabilities, error) {
	if err := base.Validate(); err != nil {
		return base, err
	}
	target := base[o] * scale
	rest := 1 - base[o]
	if !(scale >= 0) || target > 1 || (rest == 0 && target < 1) {
		return base, fmt.Errorf("mawaristats: cannot scale P(%s) = %v by %v", o, base[o], scale)
	}
	p := base
	p[o] = target
	if rest == 0 { // o was certain and stays so: the others are zero
		return p, nil
	}
	for i := range p {
		if mawari.Outcome(i) != o {
			p[i] *= (1 - target) / rest
		}
	}
	return p, nil
}

// SensitivityPoint is the game under one perturbed set of probabilities.
type SensitivityPoint struct {
	Scale                float64
	Probabilities        mawari.Probabilities
	MeanTurns            float64 // one player's expected turns to win
	MeanRounds           float64 // expected round in which the game ends
	FirstPlayerAdvantage float64 // P(seat 0 wins) - 1/players
}

// SensitivityCurve is how the game changes as one outcome's probability is scaled.
type SensitivityCurve struct {
	Outcome mawari.Outcome
	Points  []SensitivityPoint
}

// DefaultScales run from removing an outcome altogether to doubling its probability.
var DefaultScales = []float64{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2}

// ProbabilitySensitivity computes, for each outcome, the exact analysis under r with that
// outcome's probability scaled by each of scales (see Scaled). Scales that cannot be
// applied, such as taking a probability past one or removing the only possible outcome,
// are left out, and so is an outcome with no scale left.
func ProbabilitySensitivity(r mawari.Rules, base mawari.Probabilities, scales []float64) ([]SensitivityCurve, error) {
	if err := base.Validate(); err != nil {
		return nil, err
	}
	var curves []SensitivityCurve
	for o := range mawari.NumOutcomes {
		curve := SensitivityCurve{Outcome: mawari.Outcome(o)}
		for _, s := range scales {
			p, err := Scaled(base, mawari.Outcome(o), s)
			if err != nil {
				continue
			}
			a, err := Analyze(r, p)
			if err != nil {
				return nil, fmt.Errorf("%w (P(%s) scaled by %v)", err, mawari.Outcome(o), s)
			}
			curve.Points = append(curve.Points, SensitivityPoint{
				Scale:                s,
				Probabilities:        p,
				MeanTurns:            a.MeanTurns,
				MeanRounds:           a.MeanRounds(),
				FirstPlayerAdvantage: a.FirstPlayerAdvantage(),
			})
		}
		if len(curve.Points) > 0 {
			curves = append(curves, curve)
		}
	}
	return curves, nil
}

// PresetAnalysis is the exact analysis of one named preset.
type PresetAnalysis struct {
	Name string
	Analysis
}

// ComparePresets analyses every preset with the given number of players and landing
// probabilities: the house-rule half of the sensitivity study.
func ComparePresets(presets []mawari.Preset, players int, p mawari.Probabilities) ([]PresetAnalysis, error) {
	var out []PresetAnalysis
	for _, preset := range presets {
		r := preset.Rules
		r.Players = players
		a, err := Analyze(r, p)
		if err != nil {
			return nil, fmt.Errorf("%w (preset %s)", err, preset.Name)
		}
		out = append(out, PresetAnalysis{preset.Name, a})
	}
	return out, nil
}
