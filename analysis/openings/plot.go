package openings

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/shogilab/shogilab/internal/figure"
)

// scoreIntervals are scores with their Wilson intervals as offsets below and
// above, as gonum's error bars want them.
type scoreIntervals struct {
	plotter.XYs
	low, high []float64
}

func (s scoreIntervals) YError(i int) (float64, float64) { return s.low[i], s.high[i] }
func (s scoreIntervals) XError(i int) (float64, float64) { return s.low[i], s.high[i] }

func newScoreIntervals(lines []Line, at func(i int, l Line) plotter.XY) scoreIntervals {
	s := scoreIntervals{XYs: make(plotter.XYs, len(lines)), low: make([]float64, len(lines)), high: make([]float64, len(lines))}
	for i, l := range lines {
		s.XYs[i] = at(i, l)
		s.low[i], s.high[i] = l.Score-l.Interval[0], l.Interval[1]-l.Score
	}
	return s
}

func label(l Line) string { return fmt.Sprintf("%s (%d)", strings.Join(l.Moves, " "), l.Games) }

// FirstMovesChart is the data of PlotFirstMoves: Sente's score after each
// first move as bars, in the order given, and the even score of one half as
// a reference line. It panics if a line is not one ply long.
func FirstMovesChart(lines []Line, start string) figure.Chart {
	c := figure.Chart{
		Title:  "Sente's score by first move from " + start,
		XLabel: "first move (USI), games in brackets",
		YLabel: "Sente's score (points per game)",
	}
	bars := figure.Series{Label: "Sente's score", Kind: figure.Bars}
	for i, l := range lines {
		if len(l.Moves) != 1 {
			panic(fmt.Sprintf("openings: FirstMovesChart: line %v is not a first move", l.Moves))
		}
		bars.XYs = append(bars.XYs, plotter.XY{X: float64(i), Y: l.Score})
		c.XNames = append(c.XNames, label(l))
	}
	even := figure.Series{Label: "even (0.5)", Kind: figure.Line,
		XYs: plotter.XYs{{X: -0.5, Y: 0.5}, {X: float64(len(lines)) - 0.5, Y: 0.5}}}
	c.Series = []figure.Series{bars, even}
	return c
}

// PlotFirstMoves draws FirstMovesChart with each score's Wilson 95% interval.
func PlotFirstMoves(lines []Line, start string) (*figure.Plot, error) {
	p, err := FirstMovesChart(lines, start).Plot()
	if err != nil {
		return nil, err
	}
	iv := newScoreIntervals(lines, func(i int, l Line) plotter.XY { return plotter.XY{X: float64(i), Y: l.Score} })
	if err := p.AddYErrorBars(iv, 6, "95% Wilson interval"); err != nil { // black: the colour of reference marks
		return nil, err
	}
	// Slanted labels: a dozen first moves with their counts do not fit side by side.
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.Y.Min, p.Y.Max = 0, 1 // scores live in [0, 1]
	return p, nil
}

// TopLinesChart is the data of PlotTopLines: Sente's score for each line
// given as a point on its own row, the first line on the top row, and the
// even score as a reference line. Rows are y = 0, 1, ...; RowNames names
// them from the bottom up.
func TopLinesChart(lines []Line, start string) (c figure.Chart, rowNames []string) {
	c = figure.Chart{
		Title:  "Most played lines from " + start,
		XLabel: "Sente's score (points per game)",
		YLabel: "line (USI moves), games in brackets",
	}
	n := len(lines)
	points := figure.Series{Label: "Sente's score", Kind: figure.Points, XYs: make(plotter.XYs, n)}
	rowNames = make([]string, n)
	for i, l := range lines {
		points.XYs[n-1-i] = plotter.XY{X: l.Score, Y: float64(n - 1 - i)}
		rowNames[n-1-i] = label(l)
	}
	even := figure.Series{Label: "even (0.5)", Kind: figure.Line,
		XYs: plotter.XYs{{X: 0.5, Y: -0.5}, {X: 0.5, Y: float64(n) - 0.5}}}
	c.Series = []figure.Series{points, even}
	return c, rowNames
}

// PlotTopLines draws TopLinesChart with each score's Wilson 95% interval.
// Choose the lines to show with TopLines.
func PlotTopLines(lines []Line, start string) (*figure.Plot, error) {
	c, rows := TopLinesChart(lines, start)
	p, err := c.Plot()
	if err != nil {
		return nil, err
	}
	p.NominalY(rows...)
	n := len(lines)
	iv := newScoreIntervals(lines, func(i int, l Line) plotter.XY { return plotter.XY{X: l.Score, Y: float64(n - 1 - i)} })
	if err := p.AddXErrorBars(iv, 0, "95% Wilson interval"); err != nil { // the points' colour
		return nil, err
	}
	p.X.Min, p.X.Max = 0, 1
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	return p, nil
}

// TopLines returns the k most played lines of the longest length among
// lines, most played first (ties in the order given).
func TopLines(lines []Line, k int) []Line {
	longest := 0
	for _, l := range lines {
		longest = max(longest, len(l.Moves))
	}
	var out []Line
	for _, l := range lines {
		if len(l.Moves) == longest {
			out = append(out, l)
		}
	}
	slices.SortStableFunc(out, func(a, b Line) int { return b.Games - a.Games })
	return out[:min(k, len(out))]
}
