package gamestats

import (
	"fmt"
	"slices"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/record"
)

// maxBins keeps a histogram legible at the house figure width.
const maxBins = 40

// LengthsChart is the data of PlotLengths: for Sente wins, Gote wins and
// draws (those that occurred), the histogram of game length as an outline
// (a step line over bin edges), on common bins one ply wide, or wider so that
// there are at most 40. Each label carries the number of games.
func LengthsChart(r Report) figure.Chart {
	c := figure.Chart{Title: "Game length by result", XLabel: "game length (plies)", YLabel: "games",
		XTicks: figure.Integer, YTicks: figure.Integer}
	if len(r.Histogram) == 0 {
		return c
	}
	lo, hi := r.Histogram[0].Plies, r.Histogram[len(r.Histogram)-1].Plies
	width := max(1, (hi-lo+maxBins)/maxBins) // ceil((hi-lo+1)/maxBins)
	nbins := (hi-lo)/width + 1
	for _, res := range []record.Result{record.Sente, record.Gote, record.Draw} {
		weights := make([]float64, nbins)
		total := 0
		for _, b := range r.Histogram {
			n := count(b.Tally, string(res))
			weights[(b.Plies-lo)/width] += float64(n)
			total += n
		}
		if total == 0 {
			continue
		}
		name := map[record.Result]string{record.Sente: "Sente wins", record.Gote: "Gote wins", record.Draw: "draws"}[res]
		// Bins are centred on their lengths: a bin of width w starting at
		// length x covers [x - 1/2, x + w - 1/2].
		edge := func(k int) float64 { return float64(lo+k*width) - 0.5 }
		xys := plotter.XYs{{X: edge(0), Y: 0}}
		for k, w := range weights {
			xys = append(xys, plotter.XY{X: edge(k), Y: w}, plotter.XY{X: edge(k + 1), Y: w})
		}
		xys = append(xys, plotter.XY{X: edge(nbins), Y: 0})
		c.Series = append(c.Series, figure.Series{Label: fmt.Sprintf("%s (%d)", name, total), Kind: figure.Line, XYs: xys})
	}
	return c
}

// lengthsOnLog reports whether PlotLengths draws the chart c of LengthsChart on a log
// scale: when its largest bin holds more than logAbove times the median nonempty bin.
func lengthsOnLog(c figure.Chart) bool {
	var counts []float64
	for _, s := range c.Series {
		for k := 1; k+1 < len(s.XYs); k += 2 { // the tops: points 1,2 then 3,4, ...
			if s.XYs[k].Y > 0 {
				counts = append(counts, s.XYs[k].Y)
			}
		}
	}
	if len(counts) == 0 {
		return false
	}
	slices.Sort(counts)
	return counts[len(counts)-1] > logAbove*counts[len(counts)/2]
}

// logAbove is how many times the median nonempty bin the largest bin must
// hold for PlotLengths to switch to a log scale: self-play with a play limit
// piles its draws into one bin that would flatten every other bar.
const logAbove = 20

// PlotLengths draws LengthsChart, with a logarithmic count axis when one bin
// dwarfs the others.
func PlotLengths(r Report) (*figure.Plot, error) {
	c := LengthsChart(r)
	if !lengthsOnLog(c) {
		p, err := c.Plot()
		if err != nil {
			return nil, err
		}
		p.Y.Min = 0
		return p, nil
	}
	// A log axis has no zero: empty bins sit on the floor of half a game.
	const floor = 0.5
	for i, s := range c.Series {
		xys := slices.Clone(s.XYs)
		for k := range xys {
			xys[k].Y = max(xys[k].Y, floor)
		}
		c.Series[i].XYs = xys
	}
	c.YLabel = "games (log scale)"
	c.YTicks = figure.Log
	return c.Plot()
}
