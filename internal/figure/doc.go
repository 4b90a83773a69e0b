// Package figure gives the project's plots one look and one way to be saved, on top of
// gonum/plot.
//
// Describe a figure as a Chart, a title and labelled series of points (lines, points or
// bars; series i gets the i-th colour of a colour-blind-safe palette, and its own dash and
// glyph), draw it with Chart.Plot, add anything else gonum/plot offers, then Save it, which
// writes a PNG for screens and an SVG for papers at the same size:
//
//	c := figure.Chart{Title: "Turns to win", XLabel: "turns", YLabel: "probability",
//		Series: []figure.Series{{Label: "standard", Kind: figure.Line, XYs: xys}}}
//	p, err := c.Plot()
//	paths, err := figure.Save(p, "out", "turns") // out/turns.png, out/turns.svg
//
// Because a Chart is plain data, a test can check what a figure shows without looking at
// pixels; the rendering itself is checked against golden images.
package figure
