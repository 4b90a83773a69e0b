package ratings

import (
	"fmt"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
)

type eloIntervals struct {
	plotter.XYs
	half []float64
}

func (e eloIntervals) XError(i int) (float64, float64) { return e.half[i], e.half[i] }

// Chart is the data of Plot: each player's rating as a point on its own
// row, the strongest on the top row. Rows are y = 0, 1, ...; rowNames names
// them from the bottom up.
func Chart(res *Fit) (c figure.Chart, rowNames []string) {
	anchor := "mean rating 0"
	if res.Anchor != "mean" {
		anchor = res.Anchor + " rated 0"
	}
	model := map[Model]string{Davidson: "Davidson's model of draws", HalfPoint: "draws as half points"}[res.Model]
	c = figure.Chart{Title: "Ratings, " + model, XLabel: "Elo (" + anchor + ")", YLabel: "player (games)"}
	n := len(res.Players)
	points := figure.Series{Label: "maximum likelihood", Kind: figure.Points, XYs: make(plotter.XYs, n)}
	rowNames = make([]string, n)
	for i, pl := range res.Players {
		points.XYs[n-1-i] = plotter.XY{X: pl.Elo, Y: float64(n - 1 - i)}
		rowNames[n-1-i] = fmt.Sprintf("%s (%d)", pl.Name, pl.Games)
	}
	c.Series = []figure.Series{points}
	return c, rowNames
}

// Plot draws Chart with each rating's 95% interval.
func Plot(res *Fit) (*figure.Plot, error) {
	c, rows := Chart(res)
	p, err := c.Plot()
	if err != nil {
		return nil, err
	}
	p.NominalY(rows...)
	n := len(res.Players)
	e := eloIntervals{XYs: c.Series[0].XYs, half: make([]float64, n)}
	for i, pl := range res.Players {
		e.half[n-1-i] = (pl.Interval[1] - pl.Interval[0]) / 2
	}
	if err := p.AddXErrorBars(e, 0, "95% interval"); err != nil { // the points' colour
		return nil, err
	}
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	return p, nil
}
