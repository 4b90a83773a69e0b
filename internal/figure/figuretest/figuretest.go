// Package figuretest checks, in the tests of the packages that draw figures, that a figure
// is fit for a paper:
//
//   - Check: at both sizes, with and without its title, no legend box covers a plotted
//     point, bar or line segment (the legend's rectangle from figure.Layout against the
//     data's drawn extents computed here, from the plotters' own data, independently of
//     the placement code in package figure, which measures a recording of the drawing);
//     no bar, point, error bar or line touches an edge of the plot area or is cut by it
//     (each keeps MinGap inside it; bars and lines may stand on the bottom edge when the y
//     axis starts at zero, as a histogram does); the legend is drawn inside its rectangle;
//     every axis has at least three labelled ticks, which do not overlap, with whole
//     numbers on an integer axis and powers of ten on a log axis, and is labelled up to
//     its ends: no tick lies beyond its outermost labels, and it runs on past them by less
//     than a label step; the axis labels fit in the figure; and the figure's text can go
//     into a PDF.
//   - CheckPDF: a PDF file renders with pdftoppm (poppler-utils) to an image of the
//     figure's size that is not blank, pdffonts lists its fonts as embedded, and pdftotext
//     finds the given text in it (so that no character came out garbled).
//
// Use it as
//
//	p, err := chart.Plot()
//	figuretest.Check(t, "games_lengths", p)
package figuretest

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/shogilab/shogilab/internal/figure"
)

// Check checks p drawn at each size, with and without its title. name names the figure in
// failures.
func Check(t testing.TB, name string, p *figure.Plot) {
	t.Helper()
	for _, size := range []figure.Size{figure.Column, figure.Full} {
		for _, titles := range []bool{false, true} {
			o := figure.Options{Size: size, Titles: titles}
			what := fmt.Sprintf("%s at %s width", name, size)
			if titles {
				what += " with its title"
			}
			check(t, what, p, o)
		}
	}
}

func check(t testing.TB, what string, p *figure.Plot, o figure.Options) {
	t.Helper()
	w, h := o.Size.Dimensions()
	rec := &recorder.Canvas{}
	lay, err := p.Draw(draw.NewCanvas(rec, w, h), o)
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	if err := p.Encode(&bytes.Buffer{}, figure.PDF, o); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	checkDrawn(t, what, p, lay, rec)
}

// checkDrawn checks a figure drawn as lay says, rec holding the drawing.
func checkDrawn(t testing.TB, what string, p *figure.Plot, lay figure.Layout, rec *recorder.Canvas) {
	t.Helper()
	checkFrame(t, what, p.Data(), lay)
	checkAxisEnds(t, what+": x axis", lay.X, p.XTicks)
	checkAxisEnds(t, what+": y axis", lay.Y, p.YTicks)
	checkAxis(t, what+": x axis", lay.X, p.XTicks, lay.Data.Min.X, lay.Data.Max.X, false)
	checkAxis(t, what+": y axis", lay.Y, p.YTicks, lay.Data.Min.Y, lay.Data.Max.Y, true)
	if wx := lay.X.Label.TextStyle.Width(lay.X.Label.Text); wx > lay.Canvas.Size().X {
		t.Errorf("%s: the x axis label %q is %.0f pt wide, wider than the figure (%.0f pt)", what, lay.X.Label.Text, wx, lay.Canvas.Size().X)
	}
	if wy := lay.Y.Label.TextStyle.Width(lay.Y.Label.Text); wy > lay.Canvas.Size().Y {
		t.Errorf("%s: the y axis label %q is %.0f pt long, taller than the figure (%.0f pt)", what, lay.Y.Label.Text, wy, lay.Canvas.Size().Y)
	}

	labels := p.LegendLabels()
	if len(labels) == 0 {
		if lay.Legend.Size().X != 0 {
			t.Errorf("%s: a legend box %v without entries", what, lay.Legend)
		}
		return
	}
	if !inside(lay.Legend, lay.Canvas) {
		t.Errorf("%s: the legend %v is not inside the figure %v", what, lay.Legend, lay.Canvas)
	}
	if lay.LegendOutside && overlaps(lay.Legend, lay.Data) {
		t.Errorf("%s: the legend %v, placed outside, overlaps the plot area %v", what, lay.Legend, lay.Data)
	}
	checkLegendDrawn(t, what, rec, lay, labels)
	m := dataMarks(t, what, p.Data(), lay)
	for _, b := range m.boxes {
		if overlaps(lay.Legend, b) {
			t.Errorf("%s: the legend %v covers a point or bar drawn at %v", what, lay.Legend, b)
		}
	}
	for _, s := range m.segments {
		if meets(s, lay.Legend) {
			t.Errorf("%s: the legend %v covers a line from %v to %v", what, lay.Legend, s.a, s.b)
		}
	}
}

// checkAxis checks the labelled ticks of an axis drawn from lo to hi (canvas coordinates).
func checkAxis(t testing.TB, what string, a plot.Axis, kind figure.Ticks, lo, hi vg.Length, vertical bool) {
	t.Helper()
	var ticks []plot.Tick
	for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if tk.Label != "" && tk.Value >= a.Min-1e-9*math.Abs(a.Min) && tk.Value <= a.Max+1e-9*math.Abs(a.Max) {
			ticks = append(ticks, tk)
		}
	}
	if kind == figure.Nominal {
		// Named positions: every one needs its name, however few there are.
		for i := math.Ceil(a.Min); i <= a.Max; i++ {
			named := false
			for _, tk := range ticks {
				named = named || tk.Value == i
			}
			if !named {
				t.Errorf("%s: position %v has no name", what, i)
			}
		}
	} else if len(ticks) < 3 {
		t.Errorf("%s: %d labelled ticks %v; want at least 3", what, len(ticks), ticks)
		return
	}
	decimals := -1
	for i, tk := range ticks {
		switch kind {
		case figure.Integer:
			if tk.Value != math.Trunc(tk.Value) || strings.Contains(tk.Label, ".") {
				t.Errorf("%s: tick %q at %v on an axis of whole numbers", what, tk.Label, tk.Value)
			}
		case figure.Log:
			if m := tk.Value / math.Pow(10, math.Floor(math.Log10(tk.Value)+1e-9)); math.Abs(m-1) > 1e-9 && math.Abs(m-2) > 1e-9 && math.Abs(m-5) > 1e-9 {
				t.Errorf("%s: tick %q at %v on a log axis; want 1, 2 or 5 times a power of ten", what, tk.Label, tk.Value)
			}
		case figure.Decimal:
			_, frac, _ := strings.Cut(tk.Label, ".")
			if i > 0 && len(frac) != decimals {
				t.Errorf("%s: labels %q and %q have different numbers of decimals", what, ticks[i-1].Label, tk.Label)
			}
			decimals = len(frac)
		}
	}
	// Labels may not overlap: their extents along the axis, centred on their ticks.
	if a.Tick.Label.Rotation != 0 {
		return
	}
	for i := 1; i < len(ticks); i++ {
		at := func(tk plot.Tick) vg.Length { return lo + vg.Length(a.Norm(tk.Value))*(hi-lo) }
		size := a.Tick.Label.Width
		if vertical {
			size = a.Tick.Label.Height
		}
		prev, cur := ticks[i-1], ticks[i]
		if gap := at(cur) - at(prev) - (size(prev.Label)+size(cur.Label))/2; gap < 0 {
			t.Errorf("%s: labels %q and %q overlap by %.1f pt", what, prev.Label, cur.Label, -gap)
		}
	}
}

// MinGap is the least distance, in points, that Check wants between a mark of the data and
// an edge of the plot area: nearer, the mark reads as touching or cut by the frame.
const MinGap = 1

// checkFrame checks that every mark of the data lies inside the plot area, MinGap from its
// edges, but for bars and lines standing on the bottom edge at zero. It reports the first
// offending mark of each plotter.
func checkFrame(t testing.TB, what string, data []plot.Plotter, lay figure.Layout) {
	t.Helper()
	d := lay.Data
	inner := grow(d, -MinGap)
	for _, pl := range data {
		floor := inner.Min.Y
		switch v := pl.(type) {
		case *plotter.BarChart:
			if lay.Y.Min == 0 {
				floor = d.Min.Y - 0.01
			}
		case *plotter.Line:
			if lay.Y.Min == 0 {
				floor = d.Min.Y - v.LineStyle.Width/2 - 0.01
			}
		}
		m := dataMarks(t, what, []plot.Plotter{pl}, lay)
		var pts []vg.Point
		for _, b := range m.boxes {
			pts = append(pts, b.Min, b.Max)
		}
		for _, s := range m.segments {
			pts = append(pts, s.a, s.b)
		}
		for _, q := range pts {
			var edge string
			switch {
			case q.X < inner.Min.X:
				edge = "left"
			case q.X > inner.Max.X:
				edge = "right"
			case q.Y < floor:
				edge = "bottom"
			case q.Y > inner.Max.Y:
				edge = "top"
			}
			if edge != "" {
				t.Errorf("%s: the %T reaches (%.1f, %.1f), touching or cut by the %s edge of the plot area %v", what, pl, q.X, q.Y, edge, d)
				break
			}
		}
	}
}

// checkAxisEnds checks that an axis is labelled up to its ends: no tick before its first
// label or after its last, and no more than a label step (measured on the axis's scale)
// between either end and the label nearest it. Named positions have checkAxis's check.
func checkAxisEnds(t testing.TB, what string, a plot.Axis, kind figure.Ticks) {
	t.Helper()
	if kind == figure.Nominal {
		return
	}
	var ticks []plot.Tick
	for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if tk.Value >= a.Min-1e-9*math.Abs(a.Min) && tk.Value <= a.Max+1e-9*math.Abs(a.Max) {
			ticks = append(ticks, tk)
		}
	}
	var labelled []plot.Tick
	for _, tk := range ticks {
		if tk.Label != "" {
			labelled = append(labelled, tk)
		}
	}
	if len(labelled) < 2 {
		return // checkAxis reports too few labels
	}
	first, last := labelled[0], labelled[len(labelled)-1]
	const eps = 1e-9
	for _, tk := range ticks {
		if a.Norm(tk.Value) < a.Norm(first.Value)-eps || a.Norm(tk.Value) > a.Norm(last.Value)+eps {
			t.Errorf("%s: an unlabelled tick at %v lies beyond the outermost labels %q and %q", what, tk.Value, first.Label, last.Label)
			break
		}
	}
	step := math.Inf(1)
	for i := 1; i < len(labelled); i++ {
		step = math.Min(step, a.Norm(labelled[i].Value)-a.Norm(labelled[i-1].Value))
	}
	if rest := 1 - a.Norm(last.Value); rest >= step-eps {
		t.Errorf("%s: the axis runs on from its last label %q to %v unlabelled, a label step or more", what, last.Label, a.Max)
	}
	if rest := a.Norm(first.Value); rest >= step-eps {
		t.Errorf("%s: the axis starts at %v, a label step or more before its first label %q", what, a.Min, first.Label)
	}
}

// checkLegendDrawn checks that the recording draws every legend label inside the legend box.
func checkLegendDrawn(t testing.TB, what string, rec *recorder.Canvas, lay figure.Layout, labels []string) {
	t.Helper()
	want := map[string]bool{}
	for _, l := range labels {
		want[l] = true
	}
	found := map[string]bool{}
	for _, act := range rec.Actions {
		fs, ok := act.(*recorder.FillString)
		if !ok || !want[fs.String] {
			continue
		}
		face := plot.DefaultTextHandler.Cache().Lookup(fs.Font, fs.Size)
		ext := face.Extents()
		box := vg.Rectangle{
			Min: vg.Point{X: fs.Point.X, Y: fs.Point.Y - ext.Descent},
			Max: vg.Point{X: fs.Point.X + face.Width(fs.String), Y: fs.Point.Y + ext.Ascent},
		}
		if inside(box, grow(lay.Legend, 0.5)) {
			found[fs.String] = true
		}
	}
	for _, l := range labels {
		if !found[l] {
			t.Errorf("%s: the legend entry %q is not drawn inside the legend box %v", what, l, lay.Legend)
		}
	}
}

// marks are the drawn extents of the data in canvas coordinates.
type marks struct {
	segments []segment
	boxes    []vg.Rectangle
}

type segment struct{ a, b vg.Point }

// dataMarks computes what the plotters draw from their data and styles, mapped to the
// canvas through the axes as drawn: lines as segments (the legend box is grown by half
// their width when compared), glyphs and bars as boxes, error bars as segments.
func dataMarks(t testing.TB, what string, data []plot.Plotter, lay figure.Layout) marks {
	t.Helper()
	d := lay.Data
	tx := func(x float64) vg.Length { return d.Min.X + vg.Length(lay.X.Norm(x))*(d.Max.X-d.Min.X) }
	ty := func(y float64) vg.Length { return d.Min.Y + vg.Length(lay.Y.Norm(y))*(d.Max.Y-d.Min.Y) }
	pt := func(x, y float64) vg.Point { return vg.Point{X: tx(x), Y: ty(y)} }
	var m marks
	line := func(a, b vg.Point, width vg.Length) {
		// A thick line as its outline: two segments offset by half the width each way.
		n := normal(a, b, width/2)
		m.segments = append(m.segments, segment{a.Add(n), b.Add(n)}, segment{a.Sub(n), b.Sub(n)}, segment{a, b})
	}
	for _, pl := range data {
		switch v := pl.(type) {
		case *plotter.Line:
			for i := 1; i < len(v.XYs); i++ {
				line(pt(v.XYs[i-1].X, v.XYs[i-1].Y), pt(v.XYs[i].X, v.XYs[i].Y), v.LineStyle.Width)
			}
		case *plotter.Scatter:
			r := v.GlyphStyle.Radius
			for _, xy := range v.XYs {
				c := pt(xy.X, xy.Y)
				m.boxes = append(m.boxes, vg.Rectangle{Min: c.Sub(vg.Point{X: r, Y: r}), Max: c.Add(vg.Point{X: r, Y: r})})
			}
		case *plotter.BarChart:
			if v.Horizontal {
				t.Errorf("%s: figuretest cannot check horizontal bars", what)
			}
			for i, h := range v.Values {
				if h == 0 {
					continue // nothing drawn
				}
				c := tx(v.XMin+float64(i)) + v.Offset
				y0, y1 := ty(0), ty(h)
				m.boxes = append(m.boxes, vg.Rectangle{Min: vg.Point{X: c - v.Width/2, Y: min(y0, y1)}, Max: vg.Point{X: c + v.Width/2, Y: max(y0, y1)}})
			}
		case *plotter.YErrorBars:
			for i, xy := range v.XYs {
				lo, hi := pt(xy.X, xy.Y-v.YErrors[i].Low), pt(xy.X, xy.Y+v.YErrors[i].High)
				line(lo, hi, v.LineStyle.Width)
				cap := vg.Point{X: v.CapWidth / 2}
				line(lo.Sub(cap), lo.Add(cap), v.LineStyle.Width)
				line(hi.Sub(cap), hi.Add(cap), v.LineStyle.Width)
			}
		case *plotter.XErrorBars:
			for i, xy := range v.XYs {
				lo, hi := pt(xy.X-v.XErrors[i].Low, xy.Y), pt(xy.X+v.XErrors[i].High, xy.Y)
				line(lo, hi, v.LineStyle.Width)
				cap := vg.Point{Y: v.CapWidth / 2}
				line(lo.Sub(cap), lo.Add(cap), v.LineStyle.Width)
				line(hi.Sub(cap), hi.Add(cap), v.LineStyle.Width)
			}
		default:
			t.Errorf("%s: figuretest cannot compute what a %T draws; teach dataMarks", what, pl)
		}
	}
	return m
}

// normal is the vector of length l at right angles to b - a.
func normal(a, b vg.Point, l vg.Length) vg.Point {
	d := b.Sub(a)
	n := math.Hypot(float64(d.X), float64(d.Y))
	if n == 0 {
		return vg.Point{}
	}
	return vg.Point{X: -d.Y * l / vg.Length(n), Y: d.X * l / vg.Length(n)}
}

func inside(r, outer vg.Rectangle) bool {
	return r.Min.X >= outer.Min.X && r.Min.Y >= outer.Min.Y && r.Max.X <= outer.Max.X && r.Max.Y <= outer.Max.Y
}

// overlaps reports whether two rectangles share more than an edge.
func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

func grow(r vg.Rectangle, d vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: r.Min.Sub(vg.Point{X: d, Y: d}), Max: r.Max.Add(vg.Point{X: d, Y: d})}
}

// meets reports whether a segment has a point strictly inside r: an end inside, or a
// crossing of one of r's edges (by the signs of cross products), or running through r
// between two corners.
func meets(s segment, r vg.Rectangle) bool {
	in := func(p vg.Point) bool { return p.X > r.Min.X && p.X < r.Max.X && p.Y > r.Min.Y && p.Y < r.Max.Y }
	if in(s.a) || in(s.b) || in(vg.Point{X: (s.a.X + s.b.X) / 2, Y: (s.a.Y + s.b.Y) / 2}) {
		return true
	}
	corners := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
	for i := range corners {
		if crosses(s.a, s.b, corners[i], corners[(i+1)%4]) {
			return true
		}
	}
	return false
}

// crosses reports whether the segments pq and uv cross at a point inside both.
func crosses(p, q, u, v vg.Point) bool {
	cross := func(o, a, b vg.Point) float64 {
		return float64((a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X))
	}
	d1, d2 := cross(u, v, p), cross(u, v, q)
	d3, d4 := cross(p, q, u), cross(p, q, v)
	return d1*d2 < 0 && d3*d4 < 0
}

// CheckPDF checks the PDF file at path, a figure of the given size: pdftoppm renders it to
// an image of that size (at 72 dots per inch, one pixel per point) that has ink on it,
// pdffonts lists at least one font and every font as embedded, and pdftotext finds each of
// want in it. The tools come with Debian's poppler-utils; without them the test is skipped,
// or fails under CI=true.
func CheckPDF(t testing.TB, path string, size figure.Size, want ...string) {
	t.Helper()
	for _, tool := range []string{"pdftoppm", "pdffonts", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			msg := tool + " is missing (apt-get install poppler-utils)"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	prefix := filepath.Join(t.TempDir(), "page")
	if out, err := exec.Command("pdftoppm", "-png", "-r", "72", "-singlefile", path, prefix).CombinedOutput(); err != nil {
		t.Errorf("pdftoppm %s: %v: %s", path, err, out)
	} else {
		checkPage(t, path, prefix+".png", size)
	}

	out, err := exec.Command("pdffonts", path).CombinedOutput()
	if err != nil {
		t.Errorf("pdffonts %s: %v: %s", path, err, out)
	} else {
		fonts := 0
		_, table, _ := strings.Cut(string(out), "\n---")
		for _, line := range strings.Split(table, "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 7 {
				continue
			}
			// name, type (maybe two words), encoding, emb, sub, uni, object number, generation
			fonts++
			if emb := f[len(f)-5]; emb != "yes" {
				t.Errorf("%s: font %s is not embedded (pdffonts: %q)", path, f[0], line)
			}
		}
		if fonts == 0 {
			t.Errorf("%s: pdffonts lists no fonts:\n%s", path, out)
		}
	}

	text, err := exec.Command("pdftotext", path, "-").CombinedOutput()
	if err != nil {
		t.Errorf("pdftotext %s: %v: %s", path, err, text)
		return
	}
	flat := strings.Join(strings.Fields(string(text)), " ")
	for _, w := range want {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("%s: pdftotext does not find %q in:\n%s", path, w, text)
		}
	}
}

// checkPage checks the rendered page: the figure's size in points, and some ink.
func checkPage(t testing.TB, pdf, path string, size figure.Size) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
		return
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Errorf("%s: pdftoppm's image: %v", pdf, err)
		return
	}
	w, h := size.Dimensions()
	b := img.Bounds()
	if math.Abs(float64(b.Dx())-w.Points()) > 1 || math.Abs(float64(b.Dy())-h.Points()) > 1 {
		t.Errorf("%s: renders at %dx%d pt; want %.0fx%.0f (%s)", pdf, b.Dx(), b.Dy(), w.Points(), h.Points(), size)
	}
	if dark := darkPixels(img); dark < b.Dx()*b.Dy()/200 {
		t.Errorf("%s: renders almost blank (%d dark pixels of %d)", pdf, dark, b.Dx()*b.Dy())
	}
}

func darkPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r+g+bl < 3*0x8000 {
				n++
			}
		}
	}
	return n
}
