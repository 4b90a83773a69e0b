package paper

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"

	"github.com/shogilab/shogilab/internal/figure"
)

// Figure is one figure of the paper: a name that is also its file name (without extension),
// a caption that states the numbers it shows, and how to draw it.
type Figure struct {
	Name    string
	Caption string
	// Draw draws the figure in the house style: an analysis package's Chart.Plot, or its
	// PlotXxx function where it adds error bars to the chart.
	Draw func() (*plot.Plot, error)
}

// chartFigure is a Figure drawn from chart data alone.
func chartFigure(name, caption string, c figure.Chart) Figure {
	return Figure{Name: name, Caption: caption, Draw: c.Plot}
}

// Plot draws the figure.
func (f Figure) Plot() (*plot.Plot, error) {
	p, err := f.Draw()
	if err != nil {
		return nil, fmt.Errorf("paper: figure %s: %w", f.Name, err)
	}
	return p, nil
}

// Save writes the figure to dir/<name>.png and dir/<name>.svg and returns the paths.
func (f Figure) Save(dir string) ([]string, error) {
	p, err := f.Plot()
	if err != nil {
		return nil, err
	}
	paths, err := figure.Save(p, dir, f.Name)
	if err != nil {
		return nil, fmt.Errorf("paper: figure %s: %w", f.Name, err)
	}
	return paths, nil
}

// Images returns the PNG and the SVG of the figure, byte for byte the files Save writes (it
// saves them to a temporary directory and reads them back, so there is one way of drawing).
func (f Figure) Images() (png, svg []byte, err error) {
	dir, err := os.MkdirTemp("", "shogilab-figure-")
	if err != nil {
		return nil, nil, fmt.Errorf("paper: %w", err)
	}
	defer os.RemoveAll(dir)
	if _, err := f.Save(dir); err != nil {
		return nil, nil, err
	}
	if png, err = os.ReadFile(filepath.Join(dir, f.Name+".png")); err != nil {
		return nil, nil, fmt.Errorf("paper: %w", err)
	}
	if svg, err = os.ReadFile(filepath.Join(dir, f.Name+".svg")); err != nil {
		return nil, nil, fmt.Errorf("paper: %w", err)
	}
	return png, svg, nil
}

// Markdown is the caption as a notebook shows it under the figure: the figure's name in bold,
// then the caption.
func (f Figure) Markdown() string {
	return "**Figure " + f.Name + ".** " + f.Caption
}

// RootEnv is the environment variable that names the repository's root directory.
const RootEnv = "SHOGILAB_ROOT"

const modulePath = "github.com/shogilab/shogilab"

// Root returns the repository's root directory: $SHOGILAB_ROOT if set, otherwise the nearest
// directory, from the working directory upwards, whose go.mod declares this module.
func Root() (string, error) {
	if dir := os.Getenv(RootEnv); dir != "" {
		root, err := CheckRoot(dir)
		if err != nil {
			return "", fmt.Errorf("%w (from %s)", err, RootEnv)
		}
		return root, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("paper: %w", err)
	}
	for {
		if isRoot(dir) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("paper: no shogilab repository above the working directory; set " + RootEnv)
		}
		dir = parent
	}
}

// CheckRoot returns dir as an absolute path if it is the repository's root, and an error
// otherwise.
func CheckRoot(dir string) (string, error) {
	if !isRoot(dir) {
		return "", fmt.Errorf("paper: %s is not the shogilab repository (no go.mod of %s there)", dir, modulePath)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("paper: %w", err)
	}
	return abs, nil
}

func isRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return fields[1] == modulePath
		}
	}
	return false
}
