package figure

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// Interval is a point's 95% interval: at X, from Low to High around Y.
type Interval struct{ X, Y, Low, High float64 }

// AddIntervals draws the intervals as error bars in the colour of reference marks (black,
// solid) with the legend "95% interval". An end farther than clip from its point (the open
// end of a score of 0 or 1, an Elo of ±∞) is drawn clip long; a point that is not a number
// or infinite has no bar. No intervals, no bars and no legend.
func (p *Plot) AddIntervals(iv []Interval, clip float64) error {
	var bars errBars
	for _, q := range iv {
		if math.IsNaN(q.Y) || math.IsInf(q.Y, 0) {
			continue
		}
		bars = append(bars, Interval{X: q.X, Y: q.Y, Low: math.Min(q.Y-q.Low, clip), High: math.Min(q.High-q.Y, clip)})
	}
	if len(bars) == 0 {
		return nil
	}
	return p.AddYErrorBars(bars, 6, "95% interval")
}

// AddYErrorBars draws vertical error bars solid in the colour of series i (6: black, the
// colour of reference marks) and, unless legend is empty, a legend entry with that line:
// gonum/plot's error bars draw no legend thumbnail of their own.
func (p *Plot) AddYErrorBars(bars interface {
	plotter.XYer
	plotter.YErrorer
}, i int, legend string) error {
	eb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return fmt.Errorf("figure: intervals: %w", err)
	}
	p.addBars(eb, &eb.LineStyle, i, legend)
	return nil
}

// AddXErrorBars is AddYErrorBars for horizontal bars (intervals of a value along x).
func (p *Plot) AddXErrorBars(bars interface {
	plotter.XYer
	plotter.XErrorer
}, i int, legend string) error {
	eb, err := plotter.NewXErrorBars(bars)
	if err != nil {
		return fmt.Errorf("figure: intervals: %w", err)
	}
	p.addBars(eb, &eb.LineStyle, i, legend)
	return nil
}

func (p *Plot) addBars(bars plot.Plotter, style *draw.LineStyle, i int, legend string) {
	*style = LineStyle(i)
	style.Dashes = nil
	p.Add(bars)
	if legend != "" {
		p.AddLegend(legend, &plotter.Line{LineStyle: *style})
	}
}

// errBars are intervals as gonum/plot's error bars: Low and High hold the distances below
// and above the point.
type errBars []Interval

func (e errBars) Len() int                        { return len(e) }
func (e errBars) XY(i int) (float64, float64)     { return e[i].X, e[i].Y }
func (e errBars) YError(i int) (float64, float64) { return e[i].Low, e[i].High }
