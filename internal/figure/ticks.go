package figure

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// Ticks is how an axis is scaled and labelled.
type Ticks uint8

const (
	// Decimal labels 1, 2 or 5 times a power of ten, as many as fit and never fewer
	// than three, all with the same number of decimals (0.05, 0.10, 0.15).
	Decimal Ticks = iota
	// Integer labels whole numbers only, for counts, plies and rounds (0, 5, 10).
	Integer
	// Log is a logarithmic axis, extended to whole decades and labelled at each
	// decade (10⁰, 10¹, 10², ...); an axis of fewer than three decades is labelled at
	// 1, 2 and 5 times each power of ten instead.
	Log
	// Nominal labels named positions 0, 1, 2, ... (Chart.XNames, Plot.NominalX).
	Nominal
)

// minLabels is the fewest labelled ticks an axis gets: with two, a reader cannot tell a
// linear axis from any other.
const minLabels = 3

// ladder are the steps between labels, times a power of ten.
var ladder = []float64{1, 2, 5}

// linearTicks labels a linear axis with the finest step of the 1-2-5 ladder whose labels
// fit along it, but never fewer than minLabels of them.
type linearTicks struct {
	integer bool
	fit     labelFit
}

// labelFit says whether labels fit along an axis.
type labelFit struct {
	style    text.Style // of the tick labels
	length   vg.Length  // of the axis
	vertical bool
}

// fits reports whether the labels of ticks, on an axis from min to max, are apart by
// at least an em (horizontal axis, where the labels' widths already space them) or one and
// a half ems (vertical axis, where a column of labels one line apart reads as a table).
func (f labelFit) fits(min, max float64, ticks []plot.Tick) bool {
	if f.length == 0 {
		return true
	}
	em := f.style.Font.Size
	last, lastSize := vg.Length(math.Inf(-1)), vg.Length(0)
	for _, t := range ticks {
		if t.Label == "" {
			continue
		}
		at := vg.Length((t.Value-min)/(max-min)) * f.length
		size := f.style.Width(t.Label)
		gap := em
		if f.vertical {
			size, gap = f.style.Height(t.Label), 1.5*em
		}
		if at-last < (size+lastSize)/2+gap {
			return false
		}
		last, lastSize = at, size
	}
	return true
}

func (lt linearTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return nil
	}
	// From a step that gives about a hundred labels up to one that gives one.
	k := int(math.Floor(math.Log10((max - min) / 100)))
	var best []plot.Tick
	for ; ; k++ {
		for _, m := range ladder {
			step := m * math.Pow(10, float64(k))
			if lt.integer && step < 1 {
				continue
			}
			ticks := linear(min, max, m, k, lt.integer)
			if labelled(ticks) < minLabels {
				if best == nil { // the range holds fewer than three labels at any step
					return ticks
				}
				return best
			}
			best = ticks
			if lt.fit.fits(min, max, ticks) {
				return ticks
			}
		}
	}
}

// linear returns the labelled ticks at multiples of m×10^k in [min, max] and minor ticks
// between them (at 10^k, or at 10^(k-1) for m = 1), whole numbers only if integer. No tick
// lies beyond the outermost labels: an axis is labelled up to its ends.
func linear(min, max, m float64, k int, integer bool) []plot.Tick {
	step := m * math.Pow(10, float64(k))
	minor := math.Pow(10, float64(k))
	if m == 1 {
		minor /= 5
	}
	if integer && minor < 1 {
		minor = 1
	}
	decimals := max0(-k)
	var ticks []plot.Tick
	// Count in whole minor steps to avoid the drift of adding floats.
	perMajor := math.Round(step / minor)
	for i := math.Ceil(min/minor - 1e-9); i*minor <= max+minor*1e-9; i++ {
		v := i * minor
		if math.Abs(v) < minor*1e-9 {
			v = 0
		}
		t := plot.Tick{Value: v}
		if math.Mod(math.Abs(i), perMajor) == 0 {
			t.Label = number(v, decimals)
		}
		ticks = append(ticks, t)
	}
	return labelledSpan(ticks)
}

// labelledSpan drops the ticks before the first labelled one and after the last.
func labelledSpan(ticks []plot.Tick) []plot.Tick {
	first, last := -1, -1
	for i, t := range ticks {
		if t.Label != "" {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return nil
	}
	return ticks[first : last+1]
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

func labelled(ticks []plot.Tick) int {
	n := 0
	for _, t := range ticks {
		if t.Label != "" {
			n++
		}
	}
	return n
}

// Thousands writes n with commas between groups of three digits (1,000 and 16,777,216), as
// the captions write counts.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// number writes v with the given decimals, thousands separated by commas from 10,000 on
// (as the captions write counts), and a minus sign that prints in every format: the en dash
// (U+2013), since the true minus U+2212 is not in the PDF fonts' Windows-1252 encoding.
func number(v float64, decimals int) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	if math.Abs(v) >= 10000 {
		whole, frac, _ := strings.Cut(s, ".")
		for i := len(whole) - 3; i > 0; i -= 3 {
			whole = whole[:i] + "," + whole[i:]
		}
		s = whole
		if frac != "" {
			s += "." + frac
		}
	}
	if v < 0 && strings.Trim(s, "0.,") != "" {
		s = "–" + s
	}
	return s
}

// logTicks labels a logarithmic axis: every decade as 10^n (drawn with a raised exponent by
// powers), skipping decades evenly if they do not fit; an axis of fewer than minLabels
// decades at 1, 2 and 5 times the powers of ten. No tick lies beyond the outermost labels.
type logTicks struct {
	fit labelFit
}

func (lt logTicks) Ticks(min, max float64) []plot.Tick {
	lo := int(math.Ceil(math.Log10(min) - 1e-9))
	hi := int(math.Floor(math.Log10(max) + 1e-9))
	if hi-lo+1 < minLabels {
		var ticks []plot.Tick
		for e := lo; e <= hi; e++ {
			p := math.Pow(10, float64(e))
			for d := 1; d <= 9 && (e < hi || d == 1); d++ {
				t := plot.Tick{Value: float64(d) * p}
				if d == 1 || d == 2 || d == 5 {
					t.Label = strconv.FormatFloat(t.Value, 'g', -1, 64)
				}
				ticks = append(ticks, t)
			}
		}
		return labelledSpan(ticks)
	}
	var best []plot.Tick
	for every := 1; ; every++ {
		var ticks []plot.Tick
		for e := lo; e <= hi; e++ {
			p := math.Pow(10, float64(e))
			t := plot.Tick{Value: p}
			if (e-lo)%every == 0 {
				t.Label = fmt.Sprintf("10^%d", e)
			}
			ticks = append(ticks, t)
			for d := 2; d <= 9 && e < hi && every == 1; d++ {
				ticks = append(ticks, plot.Tick{Value: float64(d) * p})
			}
		}
		ticks = labelledSpan(ticks)
		if labelled(ticks) < minLabels {
			return best
		}
		best = ticks
		if lt.fit.fits(math.Log10(min), math.Log10(max), logValues(ticks)) {
			return ticks
		}
	}
}

// logValues are ticks with their values on the log scale, for labelFit.
func logValues(ticks []plot.Tick) []plot.Tick {
	out := make([]plot.Tick, len(ticks))
	for i, t := range ticks {
		out[i] = plot.Tick{Value: math.Log10(t.Value), Label: t.Label}
	}
	return out
}

// decades widens [min, max] to whole decades.
func decades(min, max float64) (float64, float64) {
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	if hi == lo {
		hi++
	}
	return math.Pow(10, lo), math.Pow(10, hi)
}

// powers draws tick labels written "10^n" as 10 with a raised, smaller n, and every other
// label as text.Plain does; text.Latex has no superscripts, and the superscript digits of
// Unicode are missing from the PDF fonts' encoding.
type powers struct{ text.Plain }

// The exponent's size and how far its baseline is raised, as fractions of the font size.
const (
	exponentScale = 0.7
	exponentRise  = 0.45
)

func (h powers) split(txt string) (base, exp string, ok bool) {
	return strings.Cut(txt, "^")
}

func (h powers) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	base, exp, ok := h.split(txt)
	if !ok {
		return h.Plain.Box(txt, fnt)
	}
	w, ht, d := h.Plain.Box(base, fnt)
	small := fnt
	small.Size *= exponentScale
	we, he, _ := h.Plain.Box(exp, small)
	return w + we, max(ht, fnt.Size*exponentRise+he), d
}

func (h powers) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	base, exp, ok := h.split(txt)
	if !ok {
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	// The base goes where text.Plain would put it alone, so that 10^3 lines up with a
	// plain label; the whole is aligned by its full width.
	w, _, _ := h.Box(txt, sty.Font)
	_, bh, bd := h.Plain.Box(base, sty.Font)
	face := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	small := h.Fonts.Lookup(sty.Font, sty.Font.Size*exponentScale)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		defer c.Pop()
		c.Rotate(sty.Rotation)
		sin, cos := math.Sincos(sty.Rotation)
		pt.X, pt.Y = pt.Y*vg.Length(sin)+pt.X*vg.Length(cos), pt.Y*vg.Length(cos)-pt.X*vg.Length(sin)
	}
	at := vg.Point{
		X: pt.X + vg.Length(sty.XAlign)*w,
		Y: pt.Y + (bh+bd)*vg.Length(sty.YAlign) - face.Extents().Ascent + sty.Font.Size,
	}
	c.FillString(face, at, base)
	c.FillString(small, vg.Point{X: at.X + face.Width(base), Y: at.Y + sty.Font.Size*exponentRise}, exp)
}
