package figure

import (
	"flag"
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Size is the width a figure is drawn for. The fonts, lines and glyphs keep their size in
// points at every Size, so that every figure of a paper, placed at 100%, shows its text at
// the same size as the others; a larger Size only gives the data more room.
type Size uint8

const (
	// Column is one column of a two-column paper (ACM, IEEE and most conference styles
	// have columns of 3.3 to 3.5 in).
	Column Size = iota
	// Full is the text width of a paper, both columns (about 7 in).
	Full
)

// sizes are the dimensions of each Size; the height keeps a column figure near the golden
// ratio and a full-width one at half its width, so that it does not eat the page.
var sizes = [...]struct {
	name          string
	width, height vg.Length
}{
	Column: {"column", 3.5 * vg.Inch, 2.6 * vg.Inch},
	Full:   {"full", 7 * vg.Inch, 3.5 * vg.Inch},
}

// Dimensions are the width and the height of a figure of size s.
func (s Size) Dimensions() (width, height vg.Length) {
	return sizes[s].width, sizes[s].height
}

func (s Size) String() string {
	if int(s) < len(sizes) {
		return sizes[s].name
	}
	return fmt.Sprintf("Size(%d)", s)
}

// Set reads a size by name (column or full), for flag.Var.
func (s *Size) Set(name string) error {
	for i, sz := range sizes {
		if sz.name == name {
			*s = Size(i)
			return nil
		}
	}
	return fmt.Errorf("want column (%.1f in wide) or full (%.1f in)", sizes[Column].width/vg.Inch, sizes[Full].width/vg.Inch)
}

// Format is the file format of a figure.
type Format string

const (
	PNG Format = "png" // for screens, slides and notebooks, at DPI dots per inch
	SVG Format = "svg" // for the web; the fonts are named, not embedded
	PDF Format = "pdf" // for LaTeX, with its fonts embedded
)

// formats are the Formats in the order they are listed.
var formats = []Format{PNG, SVG, PDF}

// DPI is the resolution of PNG files: sharp on screens and in print without huge files.
const DPI = 200

// Formats is a list of formats; as a flag.Value it reads a comma-separated list such as
// "png,svg,pdf".
type Formats []Format

func (fs Formats) String() string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ",")
}

// Set reads a comma-separated list of formats, for flag.Var.
func (fs *Formats) Set(list string) error {
	var out Formats
	for _, name := range strings.Split(list, ",") {
		f := Format(strings.TrimSpace(name))
		known := false
		for _, g := range formats {
			known = known || f == g
		}
		if !known {
			return fmt.Errorf("unknown format %q (want a comma-separated list of png, svg and pdf)", name)
		}
		for _, g := range out {
			if f == g {
				return fmt.Errorf("format %q given twice", name)
			}
		}
		out = append(out, f)
	}
	*fs = out
	return nil
}

// Options say how figures are drawn and saved.
type Options struct {
	Size    Size
	Formats Formats // for Save; Encode writes one format, named in its call
	// Titles draws each figure's title above it. A paper leaves the title to the caption;
	// a notebook or a quick look wants it.
	Titles bool
}

// Paper is how figures go into a paper: PDF, one column wide, without titles (what
// cmd/figures and analyze write by default).
func Paper() Options { return Options{Size: Column, Formats: Formats{PDF}} }

// Screen is how the commands that plot as a side job (solve) save figures by default: PNG
// and SVG, full width, with titles.
func Screen() Options { return Options{Size: Full, Formats: Formats{PNG, SVG}, Titles: true} }

// Notebook is how notebooks show figures inline: PNG, full width, with titles.
func Notebook() Options { return Options{Size: Full, Formats: Formats{PNG}, Titles: true} }

// AddFlags registers --format, --size and --titles on fs, with o's values as the defaults;
// parsing fs sets o. Every command that plots registers them this way.
func (o *Options) AddFlags(fs *flag.FlagSet) {
	fs.Var(&o.Formats, "format", "comma-separated file `formats` of the plots: png (screens), svg (web), pdf (LaTeX, fonts embedded)")
	fs.Var(&o.Size, "size", "plot `width`: column (3.5 in, one column of a paper) or full (7 in, the text width)")
	fs.BoolVar(&o.Titles, "titles", o.Titles, "draw a title above each plot (a paper leaves it to the caption)")
}

// The fonts (Liberation Serif, metric-compatible with Times, as in most papers) and lines,
// in points at every Size: 8 pt is the smallest text journals accept in figures.
const (
	titleFont  = 10
	labelFont  = 9
	tickFont   = 8
	legendFont = 8

	lineWidth   = 1.25
	glyphRadius = 2.2
	gridWidth   = 0.5

	// margin keeps glyphs and tick labels at the edge inside the image.
	margin = 2
)

// palette is the Okabe–Ito palette (Okabe and Ito, "Color Universal Design", 2008), whose
// colours stay distinct for the common colour-vision deficiencies; yellow comes last
// because it is faint on white. In grey print several of them look alike, so every series
// also has its own dash pattern (lines) or glyph (points).
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

// dashes are the line patterns of series 0, 1, 2, ...: solid first, then patterns that stay
// apart in a legend thumbnail and along a curve.
var dashes = [][]vg.Length{
	nil,
	{vg.Points(5), vg.Points(2.5)},
	{vg.Points(1.2), vg.Points(1.8)},
	{vg.Points(6), vg.Points(2), vg.Points(1.2), vg.Points(2)},
	{vg.Points(10), vg.Points(3)},
	{vg.Points(6), vg.Points(2), vg.Points(1.2), vg.Points(2), vg.Points(1.2), vg.Points(2)},
	{vg.Points(2.5), vg.Points(1.5)},
	{vg.Points(10), vg.Points(2), vg.Points(2.5), vg.Points(2)},
}

// Dashes is the dash pattern of the i-th series; it cycles after eight.
func Dashes(i int) []vg.Length { return dashes[i%len(dashes)] }

// glyphs mark the points of series 0, 1, 2, ...: the filled ones first since they read
// best, then outlines.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

// Glyph is the glyph of the i-th series; it cycles after eight.
func Glyph(i int) draw.GlyphDrawer { return glyphs[i%len(glyphs)] }

// LineStyle is the house line of the i-th series: its colour, its dash pattern, the house
// width. Error bars and reference lines added by hand take it too.
func LineStyle(i int) draw.LineStyle {
	return draw.LineStyle{Color: Color(i), Width: vg.Points(lineWidth), Dashes: Dashes(i)}
}

// GlyphStyle is the house glyph of the i-th series.
func GlyphStyle(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: Color(i), Shape: Glyph(i), Radius: vg.Points(glyphRadius)}
}
