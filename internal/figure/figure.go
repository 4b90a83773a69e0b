package figure

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The size of every figure: a single column of a two-column paper at full width reads
// well at 16 x 10 cm, and 200 dots per inch is sharp in print without huge files.
const (
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
	DPI    = 200

	margin = 3 * vg.Millimeter

	// headroom is the share of the y range added above the data.
	headroom = 0.08
)

// palette is the Okabe–Ito palette (Okabe and Ito, "Color Universal Design", 2008), whose
// colours stay distinct for the common colour-vision deficiencies; yellow comes last
// because it is faint on white.
var palette = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x00, 0x00, 0xFF}, // black
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
}

// Color is the i-th colour of the house palette; it cycles after eight.
func Color(i int) color.Color { return palette[i%len(palette)] }

// dashes tell series apart in greyscale print once the colours repeat.
var dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(6), vg.Points(2), vg.Points(2), vg.Points(2)}}

// glyphs mark the points of the i-th series, the filled ones first since they read best.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

// New returns an empty plot in the house style: a title, labelled axes, a light grid and
// the legend at the top right.
func New(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.Top = true
	p.Legend.YOffs = -vg.Millimeter
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{0xDD}
	grid.Horizontal.Color = color.Gray{0xDD}
	p.Add(grid)
	return p
}

// Kind is how a series is drawn.
type Kind uint8

const (
	Line   Kind = iota // points joined by a line
	Points             // a glyph at each point
	Bars               // a bar from zero up to each point; X must step by one
)

// Series is one named set of points.
type Series struct {
	Label string
	Kind  Kind
	XYs   plotter.XYs
}

// Chart describes a figure as data, so that code can build it, tests can check what it
// shows, and Plot can draw it. Series i gets the i-th colour, dash and glyph.
type Chart struct {
	Title, XLabel, YLabel string
	// XNames, if set, label the x positions 0, 1, 2, ... instead of numbers.
	XNames []string
	// LegendBottom moves the legend from the top right to the bottom right, where rising
	// curves such as CDFs leave room.
	LegendBottom bool
	Series       []Series
}

// Plot draws the chart in the house style.
func (c Chart) Plot() (*plot.Plot, error) {
	p := New(c.Title, c.XLabel, c.YLabel)
	if c.XNames != nil {
		p.NominalX(c.XNames...)
	}
	if c.LegendBottom {
		p.Legend.Top = false
		p.Legend.YOffs = vg.Millimeter
	}
	for i, s := range c.Series {
		if err := add(p, i, s); err != nil {
			return nil, err
		}
	}
	// Headroom keeps the highest point off the title and gives the legend some room.
	p.Y.Max += headroom * (p.Y.Max - p.Y.Min)
	return p, nil
}

func add(p *plot.Plot, i int, s Series) error {
	var thing interface {
		plot.Plotter
		plot.Thumbnailer
	}
	switch s.Kind {
	case Line:
		l, err := plotter.NewLine(s.XYs)
		if err != nil {
			return fmt.Errorf("figure: series %q: %w", s.Label, err)
		}
		l.Color = Color(i)
		l.Width = vg.Points(1.5)
		l.Dashes = dashes[i/len(palette)%len(dashes)]
		thing = l
	case Points:
		sc, err := plotter.NewScatter(s.XYs)
		if err != nil {
			return fmt.Errorf("figure: series %q: %w", s.Label, err)
		}
		sc.Color = Color(i)
		sc.Shape = glyphs[i%len(glyphs)]
		sc.Radius = vg.Points(2.5)
		thing = sc
	case Bars:
		values := make(plotter.Values, len(s.XYs))
		for j, xy := range s.XYs {
			if j > 0 && xy.X != s.XYs[j-1].X+1 {
				panic(fmt.Sprintf("figure: bars of series %q step from x=%v to x=%v; want steps of 1", s.Label, s.XYs[j-1].X, xy.X))
			}
			values[j] = xy.Y
		}
		b, err := plotter.NewBarChart(values, vg.Points(7))
		if err != nil {
			return fmt.Errorf("figure: series %q: %w", s.Label, err)
		}
		if len(s.XYs) > 0 {
			b.XMin = s.XYs[0].X
		}
		b.Color = Color(i)
		b.LineStyle.Width = 0
		thing = b
	default:
		panic(fmt.Sprintf("figure: series %q has unknown kind %d", s.Label, s.Kind))
	}
	p.Add(thing)
	if s.Label != "" {
		p.Legend.Add(s.Label, thing)
	}
	return nil
}

// Save writes p to dir/name.png and dir/name.svg at the house size and returns the two
// paths. It creates dir if needed.
func Save(p *plot.Plot, dir, name string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("figure: %w", err)
	}
	png := vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(DPI))
	svg := vgsvg.New(Width, Height)
	var paths []string
	for _, out := range []struct {
		ext    string
		canvas interface {
			vg.CanvasSizer
			io.WriterTo
		}
	}{{"png", vgimg.PngCanvas{Canvas: png}}, {"svg", svg}} {
		// A margin keeps bars, glyphs and tick labels at the data's edge inside the image.
		p.Draw(draw.Crop(draw.New(out.canvas), margin, -margin, margin, -margin))
		path := filepath.Join(dir, name+"."+out.ext)
		if err := writeFile(path, out.canvas); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

func writeFile(path string, w io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("figure: %w", err)
	}
	buf := bufio.NewWriter(f)
	if _, err := w.WriteTo(buf); err != nil {
		f.Close()
		return fmt.Errorf("figure: writing %s: %w", path, err)
	}
	if err := buf.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("figure: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("figure: writing %s: %w", path, err)
	}
	return nil
}
