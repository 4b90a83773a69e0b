package viewer

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/shogilab/shogilab/record"
)

func (s *Server) matchPage(rt route, lk linker) (any, error) {
	src := s.sources[rt.n]
	d := map[string]any{"Path": src.Path, "GamesHref": lk.href(route{kind: pageGames, filter: filter{Source: rt.n + 1}})}
	if src.match == nil {
		d["Err"] = errText(src.Err)
		return d, nil
	}
	if src.Err != nil {
		d["Warn"] = src.Err.Error()
	}
	m := src.match
	d["M"] = m
	d["E"] = m.Estimate
	d["Chart"] = llrChart(m)
	d["Penta"] = pentanomialBars(m)
	if n := len(m.Steps); n > 0 {
		d["Last"] = m.Steps[n-1]
	}
	type termRow struct {
		Name  string
		Count int
	}
	var terms []termRow
	for _, t := range record.Terminations() {
		if c := m.Terminations[t]; c > 0 {
			terms = append(terms, termRow{string(t), c})
		}
	}
	d["Terms"] = terms
	rows, total := s.index.page(filter{Source: rt.n + 1}, 0, pageSize)
	type row struct {
		gameRow
		Href string
	}
	var out []row
	for _, n := range rows {
		out = append(out, row{s.index.row(n), lk.href(route{kind: pageGame, n: n})})
	}
	d["Rows"], d["Total"] = out, total
	return d, nil
}

// llrChart draws the SPRT's log-likelihood ratio after each pair against the games played,
// with its two bounds (Wald's, moved in by the overshoot estimate as the test goes).
func llrChart(m *matchReport) template.HTML {
	if len(m.Steps) == 0 {
		return ""
	}
	const w, h, left, top, width, height = 640, 240, 50, 12, 570, 190
	lo, hi := 0.0, 0.0
	for _, st := range m.Steps {
		lo = math.Min(lo, math.Min(st.LLR, st.Lower))
		hi = math.Max(hi, math.Max(st.LLR, st.Upper))
	}
	pad := (hi - lo) * 0.05
	lo, hi = lo-pad, hi+pad
	games := m.Steps[len(m.Steps)-1].Games
	x := func(g int) float64 { return left + float64(g)/float64(games)*width }
	y := func(v float64) float64 { return top + (hi-v)/(hi-lo)*height }
	line := func(class string, v func(sprtStep) float64) string {
		pts := []string{fmt.Sprintf("%.1f,%.1f", x(0), y(v(sprtStep{Verdict: m.Steps[0].Verdict})))}
		if class == "llr" {
			pts = []string{fmt.Sprintf("%.1f,%.1f", x(0), y(0))}
		}
		for _, st := range m.Steps {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(st.Games), y(v(st))))
		}
		return fmt.Sprintf(`<polyline class="%s" points="%s"/>`, class, strings.Join(pts, " "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="llr-chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="log-likelihood ratio after each pair">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect class="plot" x="%d" y="%d" width="%d" height="%d"/>`, left, top, width, height)
	fmt.Fprintf(&b, `<line class="zero" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`, left, left+width, y(0), y(0))
	b.WriteString(line("bound", func(st sprtStep) float64 { return st.Upper }))
	b.WriteString(line("bound", func(st sprtStep) float64 { return st.Lower }))
	b.WriteString(line("llr", func(st sprtStep) float64 { return st.LLR }))
	last := m.Steps[len(m.Steps)-1]
	fmt.Fprintf(&b, `<text class="axis" x="%d" y="%.1f">%.2f</text><text class="axis" x="%d" y="%.1f">%.2f</text><text class="axis" x="%d" y="%.1f">0</text>`,
		left-4, y(last.Upper)+4, last.Upper, left-4, y(last.Lower)+4, last.Lower, left-4, y(0)+4)
	fmt.Fprintf(&b, `<text class="axis mid" x="%d" y="%d">0</text><text class="axis mid" x="%d" y="%d">%d games</text>`, left, top+height+16, left+width, top+height+16, games)
	fmt.Fprintf(&b, `<text class="legend" x="%d" y="%d">LLR (line) after each pair; H1 accepted at the upper bound, H0 at the lower (dashed)</text>`, left, top+height+34)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// pentanomialBars draws the pairs by A's points.
func pentanomialBars(m *matchReport) template.HTML {
	p := m.Pairs
	most := 1
	for _, c := range p {
		most = max(most, c)
	}
	const w, h, barW, height = 320, 150, 48, 100
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="pairs by A's points">`, w, h, w, h)
	for i, c := range p {
		bh := float64(c) / float64(most) * height
		x := 20 + i*(barW+12)
		fmt.Fprintf(&b, `<rect class="penta" x="%d" y="%.1f" width="%d" height="%.1f"/><text class="axis mid" x="%d" y="%.1f">%d</text><text class="axis mid" x="%d" y="%d">%s</text>`,
			x, 10+height-bh, barW, bh, x+barW/2, 6+height-bh, c, x+barW/2, 10+height+18, []string{"0", "½", "1", "1½", "2"}[i])
	}
	fmt.Fprintf(&b, `<text class="legend" x="20" y="%d">pairs by A's points</text>`, h-4)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
