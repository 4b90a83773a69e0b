// Package figure gives every plot of the project one style, ready for a paper, on top of
// gonum/plot.
//
// Describe a figure as a Chart: a title, axis labels, how each axis is ticked, and labelled
// series of points (lines, lines with marks, points or bars). Plot draws it as a *Plot,
// which embeds gonum's *plot.Plot for anything else (error bars, axis ranges, named rows);
// Save writes it in the formats and at the size Options give:
//
//	c := figure.Chart{
//		Title: "Turns to win", XLabel: "turns", YLabel: "probability",
//		XTicks: figure.Integer, // turns are whole numbers
//		Series: []figure.Series{{Label: "standard", Kind: figure.Line, XYs: xys}},
//	}
//	p, err := c.Plot()
//	p.Add(errorBars)                           // data plotters: p.Add, not p.Plot.Add
//	p.AddLegend("95% interval", thumbnail)     // legend entries: p.AddLegend
//	paths, err := p.Save("out", "turns", figure.Paper()) // out/turns.pdf
//
// The style, the same for every figure:
//
//   - Sizes: Column (3.5 in wide, one column of a two-column paper) and Full (7 in, the
//     text width). Text keeps its size in points at both (10 pt title, 9 pt axis labels,
//     8 pt ticks and legend, Liberation Serif), so figures placed at 100% match each other.
//   - Series i gets the i-th colour of the Okabe–Ito palette, which stays distinct under
//     colour-vision deficiencies, and its own dash pattern (lines) and glyph (points), so
//     that series stay apart in grey print too. LineStyle(i) and GlyphStyle(i) give them
//     to plotters added by hand.
//   - Ticks: Decimal axes label 1, 2 or 5 times a power of ten with a common number of
//     decimals; Integer axes whole numbers only; Log axes run between whole decades and
//     label them as powers of ten; every axis gets at least three labelled ticks, as many
//     as fit without crowding, and is labelled up to its ends (no tick beyond its outermost
//     labels).
//   - The frame: the axes reach past the data so that no bar, point, error bar or line
//     comes within FrameGap of the plot area's edges, where it would read as cut; bars and
//     lines may stand on the bottom edge when the y axis starts at zero.
//   - The legend goes where it covers no data: a corner or an edge of the plot area clear
//     of every drawn mark, else above the plot area in columns.
//   - Titles are drawn only with Options.Titles: in a paper the caption carries them.
//
// Options come in three presets, Paper (PDF, column, no title: cmd/figures and analyze),
// Screen (PNG and SVG, full width, titles: solve) and Notebook (PNG, full width, titles), and
// Options.AddFlags gives a command the flags --format, --size and --titles.
//
// Because a Chart is plain data, a test can check what a figure shows without looking at
// pixels; Layout tells where drawing puts the legend and the plot area, and package
// figuretest checks any figure against the rules above.
package figure
