package figure

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/cmpimg"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// sampleChart uses every kind of series once, on data whose shape is easy to check by
// eye in the golden image: bars of heights 1, 2, 3, a rising line through them, and three
// marked points on it; the rising data leave the top-left corner to the legend.
func sampleChart() Chart {
	line := plotter.XYs{{X: 0, Y: 0.5}, {X: 1, Y: 1.5}, {X: 2, Y: 2.5}}
	return Chart{
		Title: "Sample", XLabel: "x", YLabel: "y",
		XNames: []string{"a", "b", "c"},
		Series: []Series{
			{"bars", Bars, plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 2}, {X: 2, Y: 3}}},
			{"line", Line, line},
			{"points", Points, line},
		},
	}
}

// TestSaveGolden compares against golden images, as gonum/plot's own tests do: the sample
// for a paper (a column wide, no title) and for a screen (full width, titled). Run go test
// -regen after a deliberate change of style, and look at the new images.
func TestSaveGolden(t *testing.T) {
	files := []string{"sample-column.png", "sample-column.svg", "sample-full.png", "sample-full.svg"}
	t.Cleanup(func() {
		if !t.Failed() { // keep a failing image beside its golden one for a look
			for _, f := range files {
				os.Remove(filepath.Join("testdata", f))
			}
		}
	})
	cmpimg.CheckPlot(func() {
		p, err := sampleChart().Plot()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{Size: Column, Formats: Formats{PNG, SVG}}, {Size: Full, Formats: Formats{PNG, SVG}, Titles: true}} {
			if _, err := p.Save("testdata", "sample-"+o.Size.String(), o); err != nil {
				t.Fatal(err)
			}
		}
	}, t, files...)
}

// TestSizes checks the PNG sizes: 3.5 in × 2.6 in and 7 in × 3.5 in at 200 dots per inch.
func TestSizes(t *testing.T) {
	p := New("", "x", "y")
	for _, tc := range []struct {
		size Size
		w, h int
	}{{Column, 700, 520}, {Full, 1400, 700}} {
		t.Run(tc.size.String(), func(t *testing.T) {
			var buf bytes.Buffer
			if err := p.Encode(&buf, PNG, Options{Size: tc.size}); err != nil {
				t.Fatal(err)
			}
			cfg, err := png.DecodeConfig(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width != tc.w || cfg.Height != tc.h {
				t.Errorf("%s: PNG is %dx%d; want %dx%d", tc.size, cfg.Width, cfg.Height, tc.w, tc.h)
			}
		})
	}
}

func TestSaveFormats(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested")
	p, err := sampleChart().Plot()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := p.Save(dir, "s", Options{Formats: Formats{SVG, PDF, PNG}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "s.svg"), filepath.Join(dir, "s.pdf"), filepath.Join(dir, "s.png")}
	if !slices.Equal(paths, want) {
		t.Fatalf("Save wrote %v; want %v", paths, want)
	}
	for path, magic := range map[string]string{want[0]: "<?xml", want[1]: "%PDF-", want[2]: "\x89PNG"} {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(raw, []byte(magic)) {
			t.Errorf("%s starts %q; want %q", path, raw[:min(len(raw), 8)], magic)
		}
	}
}

func TestSaveErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New("", "", "").Save(file, "x", Paper()); err == nil || !strings.HasPrefix(err.Error(), "figure: ") {
		t.Errorf("Save into a file: %v", err)
	}
	if _, err := New("", "", "").Save(t.TempDir(), "x", Options{}); err == nil || !strings.Contains(err.Error(), "no formats") {
		t.Errorf("Save without formats: %v", err)
	}
	// The PDF fonts are encoded in Windows-1252: the true minus sign and superscript four
	// are not in it, and must fail loudly rather than print as other letters.
	for _, label := range []string{"P(win) − 1/2", "10⁴"} {
		t.Run(label, func(t *testing.T) {
			p := New("", label, "y")
			if err := p.Encode(&bytes.Buffer{}, PDF, Paper()); err == nil || !strings.Contains(err.Error(), "Windows-1252") {
				t.Errorf("PDF with %q: %v", label, err)
			}
			if err := p.Encode(&bytes.Buffer{}, SVG, Paper()); err != nil {
				t.Errorf("SVG with %q: %v", label, err)
			}
		})
	}
	// A legend entry added behind the house legend's back could not be placed.
	p, err := sampleChart().Plot()
	if err != nil {
		t.Fatal(err)
	}
	p.Plot.Legend.Add("stray", &plotter.Line{})
	if err := p.Encode(&bytes.Buffer{}, PNG, Paper()); err == nil || !strings.Contains(err.Error(), "AddLegend") {
		t.Errorf("legend entry added to plot.Legend: %v", err)
	}
	// A log axis has no place for zero.
	c := Chart{YTicks: Log, Series: []Series{{"zero", Line, plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 10}}}}}
	if p, err = c.Plot(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Layout(Paper()); err == nil || !strings.Contains(err.Error(), "log axis") {
		t.Errorf("zero on a log axis: %v", err)
	}
}

func TestChartErrors(t *testing.T) {
	bad := Chart{Series: []Series{{"nan", Line, plotter.XYs{{X: 0, Y: math.NaN()}}}}}
	if _, err := bad.Plot(); err == nil || !strings.HasPrefix(err.Error(), `figure: series "nan"`) {
		t.Errorf("NaN line: %v", err)
	}
	for _, xys := range []plotter.XYs{{{X: 0.5, Y: 1}}, {{X: 2, Y: 1}, {X: 1, Y: 1}}} {
		t.Run(fmt.Sprint(xys), func(t *testing.T) {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("bars at %v did not panic", xys)
					}
				}()
				Chart{Series: []Series{{"bad", Bars, xys}}}.Plot()
			}()
		})
	}
}

// TestBarsWithGaps: bars at 1, 2 and 5 are one bar chart from 1 with empty slots at 3
// and 4, and the axis runs half a slot past the end bars.
func TestBarsWithGaps(t *testing.T) {
	p, err := Chart{Series: []Series{{"", Bars, plotter.XYs{{X: 1, Y: 4}, {X: 2, Y: 3}, {X: 5, Y: 1}}}}}.Plot()
	if err != nil {
		t.Fatal(err)
	}
	b := p.bars[0]
	if b.XMin != 1 || !slices.Equal([]float64(b.Values), []float64{4, 3, 0, 0, 1}) {
		t.Errorf("bars from %v: %v; want from 1: 4 3 0 0 1", b.XMin, b.Values)
	}
	if p.X.Min != 0.5 || p.X.Max != 5.5 {
		t.Errorf("x axis %v..%v; want 0.5..5.5", p.X.Min, p.X.Max)
	}
}

// TestSeriesDistinctInGrey: the first eight series differ pairwise in dash pattern and in
// glyph, so that they stay apart when the colours print as similar greys.
func TestSeriesDistinctInGrey(t *testing.T) {
	for i := range 8 {
		for j := range i {
			if slices.Equal(Dashes(i), Dashes(j)) {
				t.Errorf("series %d and %d have the same dashes %v", j, i, Dashes(i))
			}
			if Glyph(i) == Glyph(j) {
				t.Errorf("series %d and %d have the same glyph %T", j, i, Glyph(i))
			}
		}
	}
	if Color(0) != Color(len(palette)) || Color(0) == Color(1) {
		t.Error("palette does not cycle")
	}
}

func TestFlags(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	o := Paper()
	o.AddFlags(fs)
	if err := fs.Parse(nil); err != nil || o.Size != Column || o.Formats.String() != "pdf" || o.Titles {
		t.Fatalf("defaults: %+v, %v; want Paper()", o, err)
	}
	if err := fs.Parse([]string{"--format", "png,svg,pdf", "--size", "full", "--titles"}); err != nil {
		t.Fatal(err)
	}
	if o.Size != Full || o.Formats.String() != "png,svg,pdf" || !o.Titles {
		t.Errorf("parsed %+v", o)
	}
	for _, tc := range []struct{ flag, value, want string }{
		{"format", "png,jpg", `unknown format "jpg"`},
		{"format", "png,png", `format "png" given twice`},
		{"format", "", `unknown format ""`},
		{"size", "a4", "want column (3.5 in wide) or full (7.0 in)"},
	} {
		t.Run(tc.flag+"="+tc.value, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(&bytes.Buffer{})
			o := Screen()
			o.AddFlags(fs)
			err := fs.Parse([]string{"--" + tc.flag, tc.value})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("--%s %q: %v; want %q", tc.flag, tc.value, err, tc.want)
			}
		})
	}
}

// tickStyle is the tick label style of the house, for the tick tests.
func tickStyle() text.Style {
	return text.Style{Font: font.From(plot.DefaultFont, tickFont), Handler: plot.DefaultTextHandler}
}

func labels(ticks []plot.Tick) []string {
	var ls []string
	for _, t := range ticks {
		if t.Label != "" {
			ls = append(ls, t.Label)
		}
	}
	return ls
}

// TestLinearTicks checks tick choices derived by hand. Liberation Serif digits are half an
// em wide and its lines 1.107 em tall (ascent 0.891 + descent 0.216), 8 pt ticks:
//   - Elo 0..512 along 180 pt: steps of 50 put 11 labels 17.6 pt apart, but "450" and "500"
//     need 12 pt + an 8 pt gap; steps of 100 put 6 labels 35 pt apart, which fit.
//   - probability 0..0.25 up 150 pt: steps of 0.02 put labels 11.5 pt apart, less than a
//     line (8.9 pt) and a 12 pt gap; steps of 0.05 put them 30 pt apart.
//   - an axis too short for any labels still gets three.
func TestLinearTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		integer  bool
		length   float64
		vertical bool
		want     string
	}{
		{0, 512, false, 180, false, "0 100 200 300 400 500"},
		{0, 0.25, false, 150, true, "0.00 0.05 0.10 0.15 0.20 0.25"},
		{0, 1, false, 5, false, "0.0 0.5 1.0"},
		{0, 2, true, 500, false, "0 1 2"},
		{-250, 100, false, 150, false, "–200 –100 0 100"},
		{0, 20000, false, 100, false, "0 10,000 20,000"},
	} {
		t.Run(fmt.Sprintf("%g-%g", tc.min, tc.max), func(t *testing.T) {
			lt := linearTicks{integer: tc.integer, fit: labelFit{style: tickStyle(), length: vg.Length(tc.length), vertical: tc.vertical}}
			if got := strings.Join(labels(lt.Ticks(tc.min, tc.max)), " "); got != tc.want {
				t.Errorf("%v..%v along %v pt: %q; want %q", tc.min, tc.max, tc.length, got, tc.want)
			}
		})
	}
	// No tick beyond the outermost labels: on 0..1.4 with labels 0.0 to 1.4 in steps of 0.2
	// and on -0.07..1.03, where the labels run from 0.0 to 1.0, the ticks end at the labels.
	for _, r := range [][2]float64{{0, 1.4}, {-0.07, 1.03}} {
		lt := linearTicks{fit: labelFit{style: tickStyle(), length: 150, vertical: true}}
		ticks := lt.Ticks(r[0], r[1])
		if ticks[0].Label == "" || ticks[len(ticks)-1].Label == "" {
			t.Errorf("%v..%v: ticks %v run past the labels", r[0], r[1], ticks)
		}
	}
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     string
	}{
		{1, 1e5, "10^0 10^1 10^2 10^3 10^4 10^5"},
		{10, 100, "10 20 50 100"},
		{0.01, 10, "10^-2 10^-1 10^0 10^1"},
	} {
		t.Run(fmt.Sprintf("%g-%g", tc.min, tc.max), func(t *testing.T) {
			lt := logTicks{fit: labelFit{style: tickStyle(), length: 150, vertical: true}}
			if got := strings.Join(labels(lt.Ticks(tc.min, tc.max)), " "); got != tc.want {
				t.Errorf("%v..%v: %q; want %q", tc.min, tc.max, got, tc.want)
			}
		})
	}
	if lo, hi := decades(7, 2660); lo != 1 || hi != 1e4 {
		t.Errorf("decades(7, 2660) = %v, %v; want 1, 10^4", lo, hi)
	}
	// Twelve decades up 60 pt, 5 pt each: a label with its raised exponent is 10.3 pt tall
	// (a 7.1 pt ascent raised 3.6 pt at 70% size, over a 1.7 pt descent) and wants a 12 pt
	// gap, so every fifth decade is labelled (25 pt apart); never fewer than three.
	lt := logTicks{fit: labelFit{style: tickStyle(), length: 60, vertical: true}}
	if got := strings.Join(labels(lt.Ticks(1, 1e12)), " "); got != "10^0 10^5 10^10" {
		t.Errorf("1..1e12 along 60 pt: %q", got)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 16777216: "16,777,216", -1234: "-1,234"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q; want %q", n, got, want)
		}
	}
}

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		v        float64
		decimals int
		want     string
	}{{0.1, 2, "0.10"}, {-200, 0, "–200"}, {-0.0001, 2, "0.00"}, {12345, 0, "12,345"}, {9999, 0, "9999"}, {-12345.5, 1, "–12,345.5"}} {
		t.Run(fmt.Sprintf("%g/%d", tc.v, tc.decimals), func(t *testing.T) {
			if got := number(tc.v, tc.decimals); got != tc.want {
				t.Errorf("number(%v, %d) = %q; want %q", tc.v, tc.decimals, got, tc.want)
			}
		})
	}
}

// TestPowersBox: "10^3" is "10" followed by a "3" at 70% size, raised.
func TestPowersBox(t *testing.T) {
	sty := tickStyle()
	h := powers{text.Plain{Fonts: sty.Handler.Cache()}}
	w10, h10, d10 := h.Plain.Box("10", sty.Font)
	small := sty.Font
	small.Size *= exponentScale
	w3, h3, _ := h.Plain.Box("3", small)
	w, ht, d := h.Box("10^3", sty.Font)
	if w != w10+w3 || d != d10 || ht != max(h10, sty.Font.Size*exponentRise+h3) {
		t.Errorf("box of 10^3: %v %v %v", w, ht, d)
	}
	if w, _, _ := h.Box("100", sty.Font); w != sty.Width("100") {
		t.Errorf("a plain label is not measured as text.Plain measures it")
	}
}
