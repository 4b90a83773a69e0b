package figure_test

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
)

// A chart of two series over whole numbers, saved for a paper (PDF, one column wide) and
// for a screen.
func Example() {
	var rising, falling plotter.XYs
	for x := 1; x <= 10; x++ {
		rising = append(rising, plotter.XY{X: float64(x), Y: float64(x * x)})
		falling = append(falling, plotter.XY{X: float64(x), Y: float64(100 - x*x)})
	}
	c := figure.Chart{
		Title: "Squares", XLabel: "n", YLabel: "value",
		XTicks: figure.Integer,
		Series: []figure.Series{
			{Label: "n²", Kind: figure.LinePoints, XYs: rising},
			{Label: "100 – n²", Kind: figure.Line, XYs: falling},
		},
	}
	p, err := c.Plot()
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "figure-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	for _, o := range []figure.Options{figure.Paper(), figure.Screen()} {
		paths, err := p.Save(dir, "squares-"+o.Size.String(), o)
		if err != nil {
			panic(err)
		}
		for _, path := range paths {
			fmt.Println(filepath.Base(path))
		}
	}
	// The two curves cross in the middle and leave the top corners free.
	lay, err := p.Layout(figure.Paper())
	if err != nil {
		panic(err)
	}
	fmt.Println("legend outside:", lay.LegendOutside)
	// Output:
	// squares-column.pdf
	// squares-full.png
	// squares-full.svg
	// legend outside: false
}
