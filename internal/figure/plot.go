package figure

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Plot is a gonum plot in the house style. It embeds *plot.Plot, so everything gonum/plot
// offers is there (axis ranges, NominalY, ...), and keeps what the house style needs at
// drawing time: how each axis is ticked, which plotters show data (so that the legend can
// be placed where it covers none of them) and the legend's entries.
//
// Add plotters with Plot.Add and legend entries with Plot.AddLegend, not through the
// embedded plot.Plot: a legend entry added to p.Legend directly makes drawing fail, since
// the house legend could not place it. Drawing sizes the plot's bars to the canvas, so draw
// one Plot from one goroutine at a time.
type Plot struct {
	*plot.Plot
	XTicks, YTicks Ticks

	data   []plot.Plotter
	bars   []*plotter.BarChart // drawn with widths that fit their slots
	legend []legendEntry
}

type legendEntry struct {
	label  string
	thumbs []plot.Thumbnailer
}

// New returns an empty plot in the house style, with a light grid.
func New(title, xLabel, yLabel string) *Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = titleFont
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = labelFont
		a.Label.Padding = vg.Points(2)
		a.Tick.Label.Font.Size = tickFont
		a.Padding = vg.Points(3)
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	grid := plotter.NewGrid()
	for _, l := range []*draw.LineStyle{&grid.Vertical, &grid.Horizontal} {
		l.Color = color.Gray{0xE0}
		l.Width = vg.Points(gridWidth)
	}
	p.Add(grid) // not data: the legend may cover it
	return &Plot{Plot: p}
}

// Add adds plotters that show data: the legend is placed where it covers none of them.
func (p *Plot) Add(ps ...plot.Plotter) {
	p.Plot.Add(ps...)
	p.data = append(p.data, ps...)
}

// Data are the plotters added with Add, in order.
func (p *Plot) Data() []plot.Plotter { return p.data }

// AddLegend adds a legend entry; its thumbnail draws the thumbs on top of each other.
func (p *Plot) AddLegend(label string, thumbs ...plot.Thumbnailer) {
	p.legend = append(p.legend, legendEntry{label, thumbs})
}

// LegendLabels are the labels of the legend's entries, in order.
func (p *Plot) LegendLabels() []string {
	labels := make([]string, len(p.legend))
	for i, e := range p.legend {
		labels[i] = e.label
	}
	return labels
}

// NominalX names the x positions 0, 1, 2, ...
func (p *Plot) NominalX(names ...string) {
	p.Plot.NominalX(names...)
	p.XTicks = Nominal
}

// NominalY names the y positions 0, 1, 2, ...
func (p *Plot) NominalY(names ...string) {
	p.Plot.NominalY(names...)
	p.YTicks = Nominal
}

// Kind is how a series is drawn.
type Kind uint8

const (
	Line       Kind = iota // points joined by a line of the series' dash pattern
	LinePoints             // a line, and the series' glyph at each point: for few points, or curves that may coincide
	Points                 // the series' glyph at each point
	Bars                   // a bar from zero up to each point; X must be whole numbers, increasing
)

// Series is one named set of points.
type Series struct {
	Label string
	Kind  Kind
	XYs   plotter.XYs
}

// Chart describes a figure as data, so that code can build it, tests can check what it
// shows, and Plot can draw it. Series i gets the i-th colour, dash pattern and glyph.
type Chart struct {
	// Title is drawn above the figure only when Options.Titles is set: a paper's caption
	// carries it.
	Title, XLabel, YLabel string
	// XTicks and YTicks say how each axis is ticked (Decimal unless set).
	XTicks, YTicks Ticks
	// XNames, if set, name the x positions 0, 1, 2, ... (and XTicks is Nominal).
	XNames []string
	Series []Series
}

// Plot draws the chart in the house style.
func (c Chart) Plot() (*Plot, error) {
	p := New(c.Title, c.XLabel, c.YLabel)
	p.XTicks, p.YTicks = c.XTicks, c.YTicks
	if c.XNames != nil {
		p.NominalX(c.XNames...)
	}
	for i, s := range c.Series {
		if err := p.addSeries(i, s); err != nil {
			return nil, err
		}
	}
	if len(p.bars) > 0 {
		// Each bar stands in a slot one unit wide, so the axis runs half a unit past the
		// first and last bars.
		p.X.Min = math.Min(p.X.Min, p.bars[0].XMin-0.5)
		for _, b := range p.bars {
			p.X.Max = math.Max(p.X.Max, b.XMin+float64(len(b.Values))-0.5)
		}
	}
	return p, nil
}

func (p *Plot) addSeries(i int, s Series) error {
	var thumbs []plot.Thumbnailer
	switch s.Kind {
	case Line, LinePoints:
		l, err := plotter.NewLine(s.XYs)
		if err != nil {
			return fmt.Errorf("figure: series %q: %w", s.Label, err)
		}
		l.LineStyle = LineStyle(i)
		p.Add(l)
		thumbs = append(thumbs, l)
		if s.Kind == Line {
			break
		}
		fallthrough
	case Points:
		sc, err := plotter.NewScatter(s.XYs)
		if err != nil {
			return fmt.Errorf("figure: series %q: %w", s.Label, err)
		}
		sc.GlyphStyle = GlyphStyle(i)
		p.Add(sc)
		thumbs = append(thumbs, sc)
	case Bars:
		var values plotter.Values
		for j, xy := range s.XYs {
			if xy.X != math.Trunc(xy.X) || j > 0 && xy.X <= s.XYs[j-1].X {
				panic(fmt.Sprintf("figure: bars of series %q at x=%v; want whole numbers, increasing", s.Label, xy.X))
			}
			for j > 0 && float64(len(values)) < xy.X-s.XYs[0].X {
				values = append(values, 0) // an empty slot
			}
			values = append(values, xy.Y)
		}
		b, err := plotter.NewBarChart(values, 1) // Draw gives the width
		if err != nil {
			return fmt.Errorf("figure: series %q: %w", s.Label, err)
		}
		if len(s.XYs) > 0 {
			b.XMin = s.XYs[0].X
		}
		b.Color = Color(i)
		b.LineStyle.Width = 0
		p.Add(b)
		p.bars = append(p.bars, b)
		thumbs = append(thumbs, b)
	default:
		panic(fmt.Sprintf("figure: series %q has unknown kind %d", s.Label, s.Kind))
	}
	if s.Label != "" {
		p.AddLegend(s.Label, thumbs...)
	}
	return nil
}
