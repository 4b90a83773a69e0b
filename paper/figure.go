package paper

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/internal/figure"
)

// Figure is one figure of the paper: a name that is also its file name (without extension),
// a caption that states what it shows, from which data and by which estimate, and how to
// draw it.
type Figure struct {
	Name    string
	Caption string
	// Draw draws the figure in the house style: an analysis package's Chart.Plot, or its
	// PlotXxx function where it adds error bars to the chart.
	Draw func() (*figure.Plot, error)
}

// chartFigure is a Figure drawn from chart data alone.
func chartFigure(name, caption string, c figure.Chart) Figure {
	return Figure{Name: name, Caption: caption, Draw: c.Plot}
}

// Plot draws the figure.
func (f Figure) Plot() (*figure.Plot, error) {
	p, err := f.Draw()
	if err != nil {
		return nil, fmt.Errorf("paper: figure %s: %w", f.Name, err)
	}
	return p, nil
}

// Save writes the figure to dir/<name>.<format> for each of o's formats and returns the
// paths.
func (f Figure) Save(dir string, o figure.Options) ([]string, error) {
	p, err := f.Plot()
	if err != nil {
		return nil, err
	}
	paths, err := p.Save(dir, f.Name, o)
	if err != nil {
		return nil, fmt.Errorf("paper: figure %s: %w", f.Name, err)
	}
	return paths, nil
}

// Encode returns the figure as a file of format ft drawn as o says: byte for byte what Save
// writes, except for the creation date inside a PDF.
func (f Figure) Encode(ft figure.Format, o figure.Options) ([]byte, error) {
	p, err := f.Plot()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := p.Encode(&buf, ft, o); err != nil {
		return nil, fmt.Errorf("paper: figure %s: %w", f.Name, err)
	}
	return buf.Bytes(), nil
}

// NotebookPNG is the figure as the notebooks show it: PNG, full width, with its title
// (figure.Notebook).
func (f Figure) NotebookPNG() ([]byte, error) {
	return f.Encode(figure.PNG, figure.Notebook())
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
