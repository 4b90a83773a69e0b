package figure

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/cmpimg"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// sampleChart uses every kind of series once, on data whose shape is easy to check by
// eye in the golden image: a rising line, three points on it, and bars of heights 1, 2, 3.
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

func samplePlot(t *testing.T) {
	p, err := sampleChart().Plot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Save(p, "testdata", "sample"); err != nil {
		t.Fatal(err)
	}
}

// TestSaveGolden compares against golden images, as gonum/plot's own tests do; run
// go test -regen after a deliberate change of style, and look at the new images.
func TestSaveGolden(t *testing.T) {
	t.Cleanup(func() {
		if !t.Failed() { // keep a failing image beside its golden one for a look
			os.Remove(filepath.Join("testdata", "sample.png"))
			os.Remove(filepath.Join("testdata", "sample.svg"))
		}
	})
	cmpimg.CheckPlot(func() { samplePlot(t) }, t, "sample.png", "sample.svg")
}

func TestSaveSizes(t *testing.T) {
	dir := t.TempDir()
	p := New("Empty", "x", "y")
	paths, err := Save(p, filepath.Join(dir, "nested"), "empty")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 || !strings.HasSuffix(paths[0], "empty.png") || !strings.HasSuffix(paths[1], "empty.svg") {
		t.Fatalf("Save wrote %v", paths)
	}
	f, err := os.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	// 16 cm x 10 cm at 200 dpi: 16/2.54*200 = 1259.8 and 10/2.54*200 = 787.4 pixels.
	if cfg.Width != 1260 || cfg.Height != 787 {
		t.Errorf("PNG is %dx%d; want 1260x787", cfg.Width, cfg.Height)
	}
	svg, err := os.ReadFile(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	if w := vg.Length(16 * vg.Centimeter).Points(); !strings.Contains(string(svg), "<svg") {
		t.Errorf("%s is not an SVG (%g pt wide expected)", paths[1], w)
	}
}

func TestSaveError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Save(New("", "", ""), file, "x"); err == nil || !strings.HasPrefix(err.Error(), "figure: ") {
		t.Errorf("Save into a file: %v", err)
	}
}

func TestColorCycles(t *testing.T) {
	if Color(0) != Color(len(palette)) || Color(0) == Color(1) {
		t.Error("palette does not cycle")
	}
}

func TestChartErrors(t *testing.T) {
	bad := Chart{Series: []Series{{"nan", Line, plotter.XYs{{X: 0, Y: math.NaN()}}}}}
	if _, err := bad.Plot(); err == nil || !strings.HasPrefix(err.Error(), `figure: series "nan"`) {
		t.Errorf("NaN line: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("bars with a gap did not panic")
		}
	}()
	Chart{Series: []Series{{"gap", Bars, plotter.XYs{{X: 0, Y: 1}, {X: 2, Y: 1}}}}}.Plot()
}
