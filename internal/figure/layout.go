package figure

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// Layout is where drawing put the parts of a figure, in the canvas coordinates of its size
// (points from the bottom left corner), with the axes as drawn: what tests of a figure
// check.
type Layout struct {
	Size Size
	// Canvas is the whole figure; Data the plot area, inside the axes.
	Canvas, Data vg.Rectangle
	// Legend bounds the legend's entries (empty without a legend). LegendOutside says it
	// sits above the plot area rather than inside it.
	Legend        vg.Rectangle
	LegendOutside bool
	// X and Y are the axes as drawn: their ranges, scales and tick markers.
	X, Y plot.Axis
}

// Legend placement, in points: the legend keeps inset from the plot area's edges and
// clearance from every mark of the data.
const (
	inset      = 3
	clearance  = 3
	columnGap  = 8 // between the columns of a legend above the plot
	outsideGap = 4 // between a legend above the plot and the plot area
	thumbWidth = 18
	entryGap   = 1 // between a legend's entries
)

// Layout lays p out as Encode draws it with o.
func (p *Plot) Layout(o Options) (Layout, error) {
	w, h := o.Size.Dimensions()
	return p.Draw(draw.NewCanvas(&recorder.Canvas{}, w, h), o)
}

// Draw draws p on c as o says (c should have o.Size's dimensions; o.Formats is not used) and
// returns where its parts went. Encode and Save draw through it.
//
// The axes reach past the data far enough that every mark the data plotters draw (found by
// drawing them on a recorder) keeps FrameGap from the plot area's edges, but for bars and
// lines standing on a zero baseline at the bottom (see prepare). The legend goes to the
// first place, in the plot area, that keeps clear of every mark: a corner, then the middle
// of an edge; if there is none, above the plot area, in as many columns as fit. (An axis
// stretched to make room for the legend inside would have to carry labels beyond the
// data's range, such as scores above 1, or leave its top unlabelled.)
func (p *Plot) Draw(c draw.Canvas, o Options) (Layout, error) {
	if p.Plot.Legend.Rectangle(c).Size().Y > 0 {
		return Layout{}, errors.New("figure: an entry was added to the embedded plot.Legend; add legend entries with Plot.AddLegend")
	}
	lay := Layout{Size: o.Size, Canvas: c.Rectangle}
	q := *p.Plot // drawn as a copy: the caller's plot keeps its ranges and markers
	q.Title.Text = ""
	q.BackgroundColor = nil
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())

	x, y := axisOf(p.XTicks, &q.X, false), axisOf(p.YTicks, &q.Y, true)
	p.cover(&q)
	for _, a := range []*axis{&x, &y} {
		if err := a.widen(); err != nil {
			return lay, err
		}
	}

	area := draw.Crop(c, margin, -margin, margin, -margin)
	if o.Titles && p.Title.Text != "" {
		sty := p.Title.TextStyle
		area.FillText(sty, vg.Point{X: area.Center().X, Y: area.Max.Y + sty.FontExtents().Descent}, p.Title.Text)
		area.Max.Y -= sty.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	}

	finish := func(plotArea draw.Canvas, dc draw.Canvas) Layout {
		q.Draw(plotArea)
		lay.Data, lay.X, lay.Y = dc.Rectangle, q.X, q.Y
		return lay
	}
	if len(p.legend) == 0 {
		return finish(area, p.prepare(&q, area, x, y)), nil
	}

	one := p.legendBlock(1)
	dc := p.prepare(&q, area, x, y)
	marks := p.marks(&q, dc)
	for _, r := range candidates(dc.Rectangle, one.size) {
		if marks.clear(r) {
			lay = finish(area, dc)
			one.draw(c, r, true)
			lay.Legend = r
			return lay, nil
		}
	}

	// Above the plot area, in as many columns as fit its width.
	var block legendBlock
	for cols := len(p.legend); cols >= 1; cols-- {
		rows := (len(p.legend) + cols - 1) / cols
		block = p.legendBlock((len(p.legend) + rows - 1) / rows)
		if block.size.X <= area.Size().X {
			break
		}
	}
	plotArea := area
	plotArea.Max.Y -= block.size.Y + outsideGap
	dc = p.prepare(&q, plotArea, x, y)
	left := dc.Min.X + (dc.Size().X-block.size.X)/2
	left = max(area.Min.X, min(left, area.Max.X-block.size.X))
	r := vg.Rectangle{Min: vg.Point{X: left, Y: area.Max.Y - block.size.Y}, Max: vg.Point{X: left + block.size.X, Y: area.Max.Y}}
	lay = finish(plotArea, dc)
	block.draw(c, r, false)
	lay.Legend, lay.LegendOutside = r, true
	return lay, nil
}

// candidates are the places for a legend of the given size in the plot area, in order of
// preference: the corners, then the middles of the top and bottom edges, then of the
// sides.
func candidates(area vg.Rectangle, size vg.Point) []vg.Rectangle {
	if size.X > area.Size().X-2*inset || size.Y > area.Size().Y-2*inset {
		return nil
	}
	left, right, centre := area.Min.X+inset, area.Max.X-inset-size.X, area.Min.X+(area.Size().X-size.X)/2
	upper, lower, middle := area.Max.Y-inset-size.Y, area.Min.Y+inset, area.Min.Y+(area.Size().Y-size.Y)/2
	at := [][2]vg.Length{{right, upper}, {left, upper}, {right, lower}, {left, lower}, {centre, upper}, {centre, lower}, {right, middle}, {left, middle}}
	var rs []vg.Rectangle
	for _, a := range at {
		rs = append(rs, vg.Rectangle{Min: vg.Point{X: a[0], Y: a[1]}, Max: vg.Point{X: a[0] + size.X, Y: a[1] + size.Y}})
	}
	return rs
}

// axis is one axis of the copy being drawn, with its kind of ticks.
type axis struct {
	kind     Ticks
	a        *plot.Axis
	vertical bool
	min, max float64 // the range before padding (prepare starts from it each time)
}

func axisOf(kind Ticks, a *plot.Axis, vertical bool) axis {
	return axis{kind: kind, a: a, vertical: vertical}
}

// cover widens q's axes to every data plotter's range: a range set narrower by hand would
// let gonum's plotters clip the data at the plot area's edge, cutting bars and lines.
func (p *Plot) cover(q *plot.Plot) {
	for _, d := range p.data {
		if dr, ok := d.(plot.DataRanger); ok {
			xmin, xmax, ymin, ymax := dr.DataRange()
			q.X.Min, q.X.Max = math.Min(q.X.Min, xmin), math.Max(q.X.Max, xmax)
			q.Y.Min, q.Y.Max = math.Min(q.Y.Min, ymin), math.Max(q.Y.Max, ymax)
		}
	}
}

// widen gives the axis the range its kind needs: whole decades for a log axis, room for
// three whole numbers on an integer axis.
func (x *axis) widen() error {
	a := x.a
	switch x.kind {
	case Log:
		if !(a.Min > 0) {
			return fmt.Errorf("figure: a log axis cannot show %v; give it positive values only", a.Min)
		}
		a.Min, a.Max = decades(a.Min, a.Max)
		a.Scale = plot.LogScale{}
		a.Tick.Label.Handler = powers{text.Plain{Fonts: a.Tick.Label.Handler.Cache()}}
	case Integer:
		if lo := math.Ceil(a.Min); math.Floor(a.Max)-lo < minLabels-1 {
			a.Max = lo + minLabels - 1
		}
	}
	x.min, x.max = a.Min, a.Max
	return nil
}

// reset puts the axis back to its range before padding.
func (x *axis) reset() { x.a.Min, x.a.Max = x.min, x.max }

// pad widens the axis, drawn length points long, so that what lies at its ends moves in by
// lo points at the low end and hi points at the high end: the range grows by the factor
// length / (length - lo - hi), on the log scale for a log axis.
func (x *axis) pad(lo, hi, length vg.Length) {
	if lo <= 0 && hi <= 0 {
		return
	}
	lo, hi = max(lo, 0), max(hi, 0)
	if lo+hi >= length/2 {
		return // the marks are wider than half the axis: nothing sensible to do
	}
	to, from := func(v float64) float64 { return v }, func(v float64) float64 { return v }
	if x.kind == Log {
		to, from = math.Log10, func(v float64) float64 { return math.Pow(10, v) }
	}
	a := x.a
	min, max := to(a.Min), to(a.Max)
	span := (max - min) * float64(length/(length-lo-hi))
	a.Min, a.Max = from(min-span*float64(lo/length)), from(max+span*float64(hi/length))
	if x.kind == Nominal {
		// Short of the next position beyond the names, which would be an empty, unnamed row.
		const short = 0.02
		a.Min, a.Max = math.Max(a.Min, math.Ceil(x.min)-1+short), math.Min(a.Max, math.Floor(x.max)+1-short)
	}
}

// ticker sets the axis's tick marker for an axis length points long.
func (x *axis) ticker(length vg.Length) {
	fit := labelFit{style: x.a.Tick.Label, length: length, vertical: x.vertical}
	switch x.kind {
	case Decimal, Integer:
		x.a.Tick.Marker = linearTicks{integer: x.kind == Integer, fit: fit}
	case Log:
		x.a.Tick.Marker = logTicks{fit: fit}
	}
}

// FrameGap is the least distance, in points, between a mark of the data and an edge of the
// plot area: a bar, point, error bar or line that touches an edge reads as cut by it.
const FrameGap = 6

// prepare sets the tick markers, the ranges and the bar widths of q for drawing in area,
// and returns the plot area. The markers depend on the axes' lengths, which depend on the
// tick labels' sizes: a first guess, then the lengths that guess gives, is close enough.
// The ranges are padded until every mark of the data keeps FrameGap from the plot area's
// edges, but for the bars and lines that stand on the bottom edge at zero: a histogram's
// outline, a bar from zero. Padding the range changes the bars' widths and the labels,
// so it is repeated until nothing moves (two or three rounds).
func (p *Plot) prepare(q *plot.Plot, area draw.Canvas, x, y axis) draw.Canvas {
	x.reset()
	y.reset()
	var dc draw.Canvas
	for range 8 {
		x.ticker(area.Size().X - 50)
		y.ticker(area.Size().Y - 40)
		dc = q.DataCanvas(area)
		x.ticker(dc.Size().X)
		y.ticker(dc.Size().Y)
		dc = q.DataCanvas(area)
		p.fitBars(q, dc)
		left, right, bottom, top := p.overshoot(q, dc)
		const settled = 0.01 // points
		if max(left, right, bottom, top) < settled {
			break
		}
		x.pad(left+settled, right+settled, dc.Size().X)
		y.pad(bottom+settled, top+settled, dc.Size().Y)
	}
	return dc
}

// overshoot is how far, in points, the data's marks come nearer to each edge of the plot
// area dc than FrameGap (0 where they keep it).
func (p *Plot) overshoot(q *plot.Plot, dc draw.Canvas) (left, right, bottom, top vg.Length) {
	inner := grow(dc.Rectangle, -FrameGap)
	for _, d := range p.data {
		ext, ok := markOf(d, q, dc).extent()
		if !ok {
			continue
		}
		floor := inner.Min.Y
		if standsOnBase(d) && q.Y.Min == 0 {
			floor = dc.Min.Y - vg.Points(lineWidth) // down to the edge, and half a line's width
		}
		left = max(left, inner.Min.X-ext.Min.X)
		right = max(right, ext.Max.X-inner.Max.X)
		bottom = max(bottom, floor-ext.Min.Y)
		top = max(top, ext.Max.Y-inner.Max.Y)
	}
	return left, right, bottom, top
}

// standsOnBase reports whether a plotter's marks may stand on the bottom edge of the plot
// area when the y axis starts at zero: bars, and lines such as a histogram's outline.
func standsOnBase(d plot.Plotter) bool {
	switch d.(type) {
	case *plotter.BarChart, *plotter.Line:
		return true
	}
	return false
}

// fitBars gives bars most of their slot, one unit of x wide, shared by the bar series
// side by side.
func (p *Plot) fitBars(q *plot.Plot, dc draw.Canvas) {
	if len(p.bars) == 0 {
		return
	}
	slot := dc.Size().X / vg.Length(q.X.Max-q.X.Min)
	w := 0.75 * slot / vg.Length(len(p.bars))
	for i, b := range p.bars {
		b.Width = w
		b.Offset = (vg.Length(i) - vg.Length(len(p.bars)-1)/2) * w
	}
}

// legendBlock is the legend laid out in columns, filled top to bottom, left to right.
type legendBlock struct {
	cols    []plot.Legend
	widths  []vg.Length
	size    vg.Point
	descent vg.Length
}

func (p *Plot) legendBlock(ncols int) legendBlock {
	rows := (len(p.legend) + ncols - 1) / ncols
	var b legendBlock
	for i := 0; i < len(p.legend); i += rows {
		l := plot.NewLegend()
		l.TextStyle.Font = font.From(plot.DefaultFont, legendFont)
		l.TextStyle.Handler = p.Plot.Legend.TextStyle.Handler
		l.ThumbnailWidth = vg.Points(thumbWidth)
		l.Padding = vg.Points(entryGap)
		l.Top, l.Left = true, true
		for _, e := range p.legend[i:min(i+rows, len(p.legend))] {
			l.Add(e.label, e.thumbs...)
		}
		size := l.Rectangle(draw.Canvas{}).Size()
		if len(b.cols) > 0 {
			b.size.X += columnGap
		}
		b.cols = append(b.cols, l)
		b.widths = append(b.widths, size.X)
		b.size.X += size.X
		b.size.Y = max(b.size.Y, size.Y)
		b.descent = l.TextStyle.FontExtents().Descent
	}
	// plot.Legend draws its first entry a descent below the top, and the last entry's
	// text reaches half a descent below its thumbnail.
	b.size.Y += 2 * b.descent
	return b
}

// draw draws the legend into r, on a white background that hides the grid if inside.
func (b legendBlock) draw(c draw.Canvas, r vg.Rectangle, background bool) {
	if background {
		c.SetColor(color.White)
		bg := vg.Rectangle{Min: r.Min.Sub(vg.Point{X: 1.5, Y: 1.5}), Max: r.Max.Add(vg.Point{X: 1.5, Y: 1.5})}
		c.Fill(bg.Path())
	}
	left := r.Min.X
	for i, l := range b.cols {
		l.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: left, Y: r.Min.Y}, Max: vg.Point{X: left + b.widths[i], Y: r.Max.Y},
		}})
		left += b.widths[i] + columnGap
	}
}

// marks are the drawn extents of a plot's data, in canvas coordinates: stroked segments
// with their half widths, and the bounding boxes of filled shapes, glyphs and text.
type marks struct {
	segments []segment
	boxes    []vg.Rectangle
}

type segment struct {
	a, b vg.Point
	half vg.Length
}

// marks draws p's data plotters into the plot area dc of q on a recorder and collects what
// they drew.
func (p *Plot) marks(q *plot.Plot, dc draw.Canvas) marks {
	var m marks
	for _, d := range p.data {
		md := markOf(d, q, dc)
		m.segments = append(m.segments, md.segments...)
		m.boxes = append(m.boxes, md.boxes...)
	}
	return m
}

// extent is the rectangle that holds every mark, with the lines' widths, and whether there
// is any mark.
func (m marks) extent() (vg.Rectangle, bool) {
	var r vg.Rectangle
	first := true
	add := func(b vg.Rectangle) {
		if first {
			r, first = b, false
			return
		}
		r.Min.X, r.Min.Y = min(r.Min.X, b.Min.X), min(r.Min.Y, b.Min.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, b.Max.X), max(r.Max.Y, b.Max.Y)
	}
	for _, b := range m.boxes {
		add(b)
	}
	for _, s := range m.segments {
		add(grow(vg.Rectangle{Min: vg.Point{X: min(s.a.X, s.b.X), Y: min(s.a.Y, s.b.Y)}, Max: vg.Point{X: max(s.a.X, s.b.X), Y: max(s.a.Y, s.b.Y)}}, s.half))
	}
	return r, !first
}

// markOf draws one data plotter into the plot area dc of q on a recorder and collects what
// it drew.
func markOf(d plot.Plotter, q *plot.Plot, dc draw.Canvas) marks {
	rec := &recorder.Canvas{}
	d.Plot(draw.Canvas{Canvas: rec, Rectangle: dc.Rectangle}, q)
	var m marks
	tr := []affine{identity}
	width := vg.Length(0)
	for _, act := range rec.Actions {
		t := &tr[len(tr)-1]
		switch a := act.(type) {
		case *recorder.Push:
			tr = append(tr, *t)
		case *recorder.Pop:
			tr = tr[:len(tr)-1]
		case *recorder.Translate:
			*t = t.then(affine{1, 0, 0, 1, float64(a.Point.X), float64(a.Point.Y)})
		case *recorder.Scale:
			*t = t.then(affine{a.X, 0, 0, a.Y, 0, 0})
		case *recorder.Rotate:
			s, c := math.Sincos(a.Angle)
			*t = t.then(affine{c, s, -s, c, 0, 0})
		case *recorder.SetLineWidth:
			width = a.Width
		case *recorder.Stroke:
			if width > 0 {
				m.stroke(a.Path, *t, width/2)
			}
		case *recorder.Fill:
			m.fill(a.Path, *t)
		case *recorder.FillString:
			face := q.TextHandler.Cache().Lookup(a.Font, a.Size)
			ext := face.Extents()
			m.box(*t, []vg.Point{a.Point.Add(vg.Point{Y: -ext.Descent}), a.Point.Add(vg.Point{X: face.Width(a.String), Y: ext.Ascent})})
		case *recorder.DrawImage:
			m.box(*t, []vg.Point{a.Rectangle.Min, a.Rectangle.Max})
		}
	}
	return m
}

// affine maps (x, y) to (a x + c y + e, b x + d y + f), as PDF and SVG matrices do.
type affine struct{ a, b, c, d, e, f float64 }

var identity = affine{1, 0, 0, 1, 0, 0}

// then is t with u applied first: the canvas calls transform the coordinates that follow.
func (t affine) then(u affine) affine {
	return affine{
		t.a*u.a + t.c*u.b, t.b*u.a + t.d*u.b,
		t.a*u.c + t.c*u.d, t.b*u.c + t.d*u.d,
		t.a*u.e + t.c*u.f + t.e, t.b*u.e + t.d*u.f + t.f,
	}
}

func (t affine) apply(p vg.Point) vg.Point {
	x, y := float64(p.X), float64(p.Y)
	return vg.Point{X: vg.Length(t.a*x + t.c*y + t.e), Y: vg.Length(t.b*x + t.d*y + t.f)}
}

// stroke adds the segments of a stroked path; arcs and curves count as their bounding boxes.
func (m *marks) stroke(path vg.Path, t affine, half vg.Length) {
	var start, at vg.Point
	for _, pc := range path {
		switch pc.Type {
		case vg.MoveComp:
			start, at = pc.Pos, pc.Pos
		case vg.LineComp:
			m.segments = append(m.segments, segment{t.apply(at), t.apply(pc.Pos), half})
			at = pc.Pos
		case vg.CloseComp:
			m.segments = append(m.segments, segment{t.apply(at), t.apply(start), half})
			at = start
		default:
			m.box(t, curveHull(at, pc), half)
			at = curveEnd(pc)
		}
	}
}

// fill adds the bounding box of a filled path.
func (m *marks) fill(path vg.Path, t affine) {
	var pts []vg.Point
	at := vg.Point{}
	for _, pc := range path {
		switch pc.Type {
		case vg.MoveComp, vg.LineComp:
			pts = append(pts, pc.Pos)
			at = pc.Pos
		case vg.CloseComp:
		default:
			pts = append(pts, curveHull(at, pc)...)
			at = curveEnd(pc)
		}
	}
	m.box(t, pts)
}

// box adds the bounding box of pts after t, grown by pad on each side, unless it is empty:
// a bar of height zero draws nothing.
func (m *marks) box(t affine, pts []vg.Point, pad ...vg.Length) {
	if len(pts) == 0 {
		return
	}
	r := vg.Rectangle{Min: t.apply(pts[0]), Max: t.apply(pts[0])}
	for _, p := range pts[1:] {
		q := t.apply(p)
		r.Min.X, r.Min.Y = min(r.Min.X, q.X), min(r.Min.Y, q.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, q.X), max(r.Max.Y, q.Y)
	}
	if len(pad) == 0 && (r.Size().X < 1e-3 || r.Size().Y < 1e-3) {
		return
	}
	for _, d := range pad {
		r = grow(r, d)
	}
	m.boxes = append(m.boxes, r)
}

// curveHull are points whose bounding box holds an arc (its whole circle) or a curve (its
// control points), drawn from at.
func curveHull(at vg.Point, pc vg.PathComp) []vg.Point {
	if pc.Type == vg.ArcComp {
		r := vg.Point{X: pc.Radius, Y: pc.Radius}
		return []vg.Point{pc.Pos.Sub(r), pc.Pos.Add(r)}
	}
	return append([]vg.Point{at, pc.Pos}, pc.Control...)
}

func curveEnd(pc vg.PathComp) vg.Point {
	if pc.Type == vg.ArcComp {
		s, c := math.Sincos(pc.Start + pc.Angle)
		return pc.Pos.Add(vg.Point{X: pc.Radius * vg.Length(c), Y: pc.Radius * vg.Length(s)})
	}
	return pc.Pos
}

func grow(r vg.Rectangle, d vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: r.Min.Sub(vg.Point{X: d, Y: d}), Max: r.Max.Add(vg.Point{X: d, Y: d})}
}

// clear reports whether r, grown by the clearance, touches no mark.
func (m marks) clear(r vg.Rectangle) bool {
	r = grow(r, clearance)
	for _, b := range m.boxes {
		if b.Min.X < r.Max.X && r.Min.X < b.Max.X && b.Min.Y < r.Max.Y && r.Min.Y < b.Max.Y {
			return false
		}
	}
	for _, s := range m.segments {
		if clips(s.a, s.b, grow(r, s.half)) {
			return false
		}
	}
	return true
}

// clips reports whether the segment from a to b meets r (Liang and Barsky's clipping: the
// part of the segment inside each of r's four half-planes is an interval of its parameter,
// and the segment meets r when the four intervals overlap).
func clips(a, b vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	d := b.Sub(a)
	for _, e := range [4][2]float64{
		{-float64(d.X), float64(a.X - r.Min.X)},
		{float64(d.X), float64(r.Max.X - a.X)},
		{-float64(d.Y), float64(a.Y - r.Min.Y)},
		{float64(d.Y), float64(r.Max.Y - a.Y)},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}
