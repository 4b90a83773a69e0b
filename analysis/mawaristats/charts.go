package mawaristats

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/rules/mawari"
)

// ThrowChartFloor is the smallest probability of a move that ThrowChart shows: rarer
// moves (such as four points) would only crowd the axis with invisible bars.
const ThrowChartFloor = 1e-5

// ThrowChart shows a throw's move distribution: the exact probabilities as bars and, if
// simulated is not nil, the simulated shares as points, at each move's score (or, when a
// move is not a number of steps, at named positions in the order given). Moves rarer than
// ThrowChartFloor are left out, and the title says how many.
func ThrowChart(title string, exact []mawari.MoveProbability, simulated map[string]float64, simulatedLabel string) figure.Chart {
	var names []string
	var bars, points plotter.XYs
	numeric := true
	omitted := 0
	for _, e := range exact {
		if e.Probability < ThrowChartFloor {
			omitted++
			continue
		}
		numeric = numeric && !e.Move.ToNextCorner
		x := float64(len(names))
		names = append(names, e.Move.Key())
		bars = append(bars, plotter.XY{X: x, Y: e.Probability})
		if simulated != nil {
			points = append(points, plotter.XY{X: x, Y: simulated[e.Move.Key()]})
		}
	}
	if omitted > 0 {
		title += fmt.Sprintf("\n%d moves rarer than %g not shown", omitted, ThrowChartFloor)
	}
	c := figure.Chart{
		Title: title, XLabel: "throw score", YLabel: "probability",
		Series: []figure.Series{{Label: "exact", Kind: figure.Bars, XYs: bars}},
	}
	if simulated != nil {
		c.Series = append(c.Series, figure.Series{Label: simulatedLabel, Kind: figure.Points, XYs: points})
	}
	if numeric {
		// Scores on a number line: the gaps between possible scores show.
		c.XTicks = figure.Integer
		for i := range bars {
			score, _ := strconv.Atoi(names[i])
			bars[i].X = float64(score)
			if simulated != nil {
				points[i].X = float64(score)
			}
		}
	} else {
		c.XNames = names
	}
	return c
}

// LengthCurve is one labelled game-length distribution.
type LengthCurve struct {
	Label  string
	Rounds Distribution
}

// lengthQuantile bounds the x axis of the game-length charts: beyond it the curves are
// flat at zero and one.
const lengthQuantile = 0.999

// GameLengthCharts show the distribution of the round in which the game ends, and its
// CDF, one line per curve; if simulated is not nil its shares are drawn as points.
func GameLengthCharts(title string, curves []LengthCurve, simulated *Simulation, simulatedLabel string) (pmf, cdf figure.Chart) {
	last := 1
	for _, c := range curves {
		last = max(last, c.Rounds.Quantile(lengthQuantile))
	}
	pmf = figure.Chart{Title: title, XLabel: "round in which the game ends", YLabel: "probability", XTicks: figure.Integer}
	cdf = figure.Chart{Title: title, XLabel: "round in which the game ends", YLabel: "cumulative probability", XTicks: figure.Integer}
	for _, c := range curves {
		var p, cum plotter.XYs
		total := 0.0
		for t := 1; t <= last; t++ {
			if t < len(c.Rounds.PMF) {
				total += c.Rounds.PMF[t]
				p = append(p, plotter.XY{X: float64(t), Y: c.Rounds.PMF[t]})
			} else {
				p = append(p, plotter.XY{X: float64(t), Y: 0})
			}
			cum = append(cum, plotter.XY{X: float64(t), Y: total})
		}
		pmf.Series = append(pmf.Series, figure.Series{Label: c.Label, Kind: figure.Line, XYs: p})
		cdf.Series = append(cdf.Series, figure.Series{Label: c.Label, Kind: figure.Line, XYs: cum})
	}
	if simulated != nil {
		var p, cum plotter.XYs
		total := 0.0
		for t := 1; t <= last; t++ {
			share := 0.0
			if t < len(simulated.RoundCounts) {
				share = float64(simulated.RoundCounts[t]) / float64(simulated.Games)
			}
			total += share
			p = append(p, plotter.XY{X: float64(t), Y: share})
			cum = append(cum, plotter.XY{X: float64(t), Y: total})
		}
		pmf.Series = append(pmf.Series, figure.Series{Label: simulatedLabel, Kind: figure.Points, XYs: p})
		cdf.Series = append(cdf.Series, figure.Series{Label: simulatedLabel, Kind: figure.Points, XYs: cum})
	}
	return pmf, cdf
}

// SensitivityCharts show how the mean game length (in rounds) and the first player's
// advantage, P(first player wins) − 1/players, change as each outcome's probability is
// scaled, one line per outcome, marked
// at each scale: the curves of the rare outcomes lie on top of each other.
func SensitivityCharts(title string, curves []SensitivityCurve) (length, advantage figure.Chart) {
	// Short labels: the caption says what the scale and the advantage are.
	xLabel := "landing probability / its base value"
	length = figure.Chart{Title: title, XLabel: xLabel, YLabel: "mean game length (rounds)"}
	advantage = figure.Chart{Title: title, XLabel: xLabel, YLabel: "first player's advantage"}
	for _, c := range curves {
		var l, a plotter.XYs
		for _, pt := range c.Points {
			l = append(l, plotter.XY{X: pt.Scale, Y: pt.MeanRounds})
			a = append(a, plotter.XY{X: pt.Scale, Y: pt.FirstPlayerAdvantage})
		}
		length.Series = append(length.Series, figure.Series{Label: c.Outcome.String(), Kind: figure.LinePoints, XYs: l})
		advantage.Series = append(advantage.Series, figure.Series{Label: c.Outcome.String(), Kind: figure.LinePoints, XYs: a})
	}
	return length, advantage
}
