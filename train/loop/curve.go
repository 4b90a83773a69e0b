package loop

import (
	"fmt"
	"math"
	"path/filepath"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
)

// CurvePoint is one generation's point of the learning curve: the Elo of the best network
// after the generation against the anchor, with its 95% interval.
type CurvePoint struct {
	Generation     int
	Elo, Low, High float64 // Low and High ±Inf at a score of 0 or 1
	Games          int
}

// Curve is the learning curve of a run's lines: a point for every generation with an
// anchor result.
func Curve(gens []Generation) []CurvePoint {
	var out []CurvePoint
	for _, g := range gens {
		a := g.Anchor
		if a == nil {
			continue
		}
		p := CurvePoint{Generation: g.N, Elo: float64(a.Elo), Low: float64(a.Low), High: float64(a.High), Games: a.Games}
		if a.Exact {
			p.Elo, p.Low, p.High = 0, 0, 0
		}
		// JSON keeps an infinite end as null (NaN): it is the side the score left open.
		if math.IsNaN(p.Low) {
			p.Low = math.Inf(-1)
		}
		if math.IsNaN(p.High) {
			p.High = math.Inf(1)
		}
		out = append(out, p)
	}
	return out
}

// CurveChart is the data of PlotCurve.
func CurveChart(points []CurvePoint, anchor string) figure.Chart {
	s := figure.Series{Label: "best network after the generation", Kind: figure.LinePoints}
	for _, p := range points {
		if !math.IsNaN(p.Elo) && !math.IsInf(p.Elo, 0) {
			s.XYs = append(s.XYs, plotter.XY{X: float64(p.Generation), Y: p.Elo})
		}
	}
	last := 1.0
	if n := len(points); n > 0 {
		last = math.Max(last, float64(points[n-1].Generation))
	}
	zero := figure.Series{Label: "the anchor (0)", Kind: figure.Line, XYs: plotter.XYs{{X: 0, Y: 0}, {X: last, Y: 0}}}
	return figure.Chart{
		Title:  "Learning curve: Elo against " + anchor,
		XLabel: "generation", YLabel: "Elo against the anchor",
		XTicks: figure.Integer,
		Series: []figure.Series{s, zero},
	}
}

// curveClip bounds the drawn intervals: an open end (a score of 0 or 1) is drawn to
// this many Elo beyond the point.
const curveClip = 400

// PlotCurve draws the learning curve with each point's 95% interval.
func PlotCurve(points []CurvePoint, anchor string) (*figure.Plot, error) {
	c := CurveChart(points, anchor)
	p, err := c.Plot()
	if err != nil {
		return nil, fmt.Errorf("loop: curve: %w", err)
	}
	var iv []figure.Interval
	for _, q := range points {
		if q.Low == q.High { // no interval to draw
			continue
		}
		iv = append(iv, figure.Interval{X: float64(q.Generation), Y: q.Elo, Low: q.Low, High: q.High})
	}
	if err := p.AddIntervals(iv, curveClip); err != nil {
		return nil, fmt.Errorf("loop: curve: %w", err)
	}
	return p, nil
}

// AnchorName describes a configuration's anchor for a plot's title.
func (c *Config) AnchorName() string {
	if c.Anchor == "" {
		return fmt.Sprintf("the built-in network at %d playouts", c.AnchorPlayouts)
	}
	return c.Anchor
}

// ReadProvenance reads RUN/provenance.json.
func ReadProvenance(dir string) (Provenance, error) {
	var p Provenance
	if err := readJSON(filepath.Join(dir, "provenance.json"), &p); err != nil {
		return p, fmt.Errorf("loop: %w", err)
	}
	return p, nil
}
