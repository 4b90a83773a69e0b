package notebooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Options say how to execute a notebook.
type Options struct {
	// Root is the repository the notebook imports and reads datasets from; it is passed to
	// the kernel as SHOGILAB_ROOT.
	Root string
	// CellTimeout bounds each cell (nbconvert's per-cell timeout); zero means 10 minutes.
	CellTimeout time.Duration
}

// Execute runs the notebook at path top to bottom on a copy in a temporary directory and
// returns the executed notebook. It returns an error naming the notebook and the cell if
// nbconvert fails or a cell failed (see Failures); the executed notebook is returned with it
// when there is one.
func Execute(ctx context.Context, path string, opts Options) (*Notebook, error) {
	if opts.Root == "" {
		panic("notebooks: Execute needs Options.Root")
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("notebooks: %w", err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("notebooks: %w", err)
	}
	dir, err := os.MkdirTemp("", "shogilab-notebook-")
	if err != nil {
		return nil, fmt.Errorf("notebooks: %w", err)
	}
	defer os.RemoveAll(dir)
	name := filepath.Base(path)
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		return nil, fmt.Errorf("notebooks: %w", err)
	}
	timeout := opts.CellTimeout
	if timeout == 0 {
		timeout = 10 * time.Minute
	}
	const out = "executed.ipynb"
	cmd := exec.CommandContext(ctx, "jupyter", "nbconvert", "--to", "notebook", "--execute",
		"--ExecutePreprocessor.timeout="+strconv.Itoa(int(timeout.Seconds())),
		"--output", out, name)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SHOGILAB_ROOT="+root)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	runErr := cmd.Run()

	var nb *Notebook
	if raw, err := os.ReadFile(filepath.Join(dir, out)); err == nil {
		if nb, err = Parse(raw); err != nil {
			return nil, fmt.Errorf("notebooks: %s: executed copy: %w", name, err)
		}
	}
	if runErr != nil {
		return nb, fmt.Errorf("notebooks: %s: nbconvert: %v: %s", name, runErr, cellError(stderr.String()))
	}
	if nb == nil {
		return nil, fmt.Errorf("notebooks: %s: nbconvert wrote no notebook", name)
	}
	if fails := nb.Failures(); len(fails) > 0 {
		return nb, fmt.Errorf("notebooks: %s: %w", name, errors.Join(fails...))
	}
	return nb, nil
}

// cellError picks from nbconvert's stderr the part that says which cell failed and why: the
// text after CellExecutionError, without GoNB's log lines and Python's traceback.
func cellError(stderr string) string {
	i := strings.Index(stderr, "CellExecutionError")
	if i < 0 {
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		return strings.Join(lines[max(0, len(lines)-5):], "\n")
	}
	var keep []string
	for _, line := range strings.Split(stderr[i:], "\n") {
		if logLine.MatchString(line) {
			continue
		}
		keep = append(keep, line)
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// logLine matches the glog lines GoNB writes to stderr (I1202 15:27:41.735372 ...).
var logLine = regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ `)

// Tools returns what is missing to execute notebooks, one entry per missing tool, each saying
// how to install it; nil when everything is there.
func Tools() []string {
	var missing []string
	if _, err := exec.LookPath("jupyter-nbconvert"); err != nil {
		missing = append(missing, "jupyter-nbconvert (apt-get install jupyter-nbconvert, or bash ci/install-notebooks.sh)")
	}
	if _, err := exec.LookPath("goimports"); err != nil {
		missing = append(missing, "goimports on PATH, which GoNB runs on every cell (bash ci/install-notebooks.sh)")
	}
	if kernelSpec("gonb") == "" {
		missing = append(missing, "the gonb Jupyter kernel (bash ci/install-notebooks.sh)")
	}
	return missing
}

// kernelSpec returns the kernel.json of the named kernel in the directories Jupyter searches
// (jupyter --paths: the user's data directory first, then the system ones), or "".
func kernelSpec(name string) string {
	var dirs []string
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "share", "jupyter"))
	}
	dirs = append(dirs, "/usr/local/share/jupyter", "/usr/share/jupyter")
	for _, d := range dirs {
		p := filepath.Join(d, "kernels", name, "kernel.json")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// exitStatus matches the line GoNB prints on a cell's stderr when the cell's program (or a
// shell command) exits non-zero, panics included.
var exitStatus = regexp.MustCompile(`(?m)^exit status \d+$`)

// Failures lists the cells that failed: an error output (a compile error or a kernel
// exception), or an "exit status N" line on stderr. Each error names the cell by its number
// (from 1, counting every cell) and quotes the start of its source.
func (nb *Notebook) Failures() []error {
	var errs []error
	for i, c := range nb.Cells {
		for _, o := range c.Outputs {
			var why string
			switch {
			case o.Type == "error":
				why = strings.TrimSpace(o.Name + ": " + o.Value)
			case o.Type == "stream" && o.Name == "stderr" && exitStatus.MatchString(o.Text):
				why = lastLines(o.Text, 6)
			default:
				continue
			}
			errs = append(errs, fmt.Errorf("cell %d (%s): %s", i+1, firstLine(c.Source), why))
			break
		}
	}
	return errs
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// Notebook is the part of a notebook file the checks read.
type Notebook struct {
	Cells []Cell
	// Raw is the whole file as read.
	Raw []byte
}

// Cell is one cell: its kind ("code", "markdown"), its source and, for code, its outputs.
type Cell struct {
	Kind    string
	Source  string
	Outputs []Output
}

// Output is one output of a code cell. Type is nbformat's output_type ("stream",
// "display_data", "execute_result", "error"); for a stream Name is "stdout" or "stderr" and
// Text its text; for an error Name and Value are the exception's; Data maps MIME types to
// their content (base64 for images, as nbformat stores them).
type Output struct {
	Type, Name, Text, Value string
	Data                    map[string]string
}

// Parse reads a notebook in nbformat 4 JSON.
func Parse(raw []byte) (*Notebook, error) {
	var file struct {
		NBFormat int `json:"nbformat"`
		Cells    []struct {
			CellType string          `json:"cell_type"`
			Source   json.RawMessage `json:"source"`
			Outputs  []struct {
				OutputType string                     `json:"output_type"`
				Name       string                     `json:"name"`
				Text       json.RawMessage            `json:"text"`
				EName      string                     `json:"ename"`
				EValue     string                     `json:"evalue"`
				Data       map[string]json.RawMessage `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, fmt.Errorf("notebook JSON: %w", err)
	}
	if file.NBFormat != 4 {
		return nil, fmt.Errorf("nbformat %d; want 4", file.NBFormat)
	}
	nb := &Notebook{Raw: raw}
	for i, c := range file.Cells {
		src, err := multiline(c.Source)
		if err != nil {
			return nil, fmt.Errorf("cell %d source: %w", i+1, err)
		}
		cell := Cell{Kind: c.CellType, Source: src}
		for j, o := range c.Outputs {
			out := Output{Type: o.OutputType, Name: o.Name, Value: o.EValue}
			if o.OutputType == "error" {
				out.Name = o.EName
			}
			if out.Text, err = multiline(o.Text); err != nil {
				return nil, fmt.Errorf("cell %d output %d text: %w", i+1, j+1, err)
			}
			if len(o.Data) > 0 {
				out.Data = make(map[string]string, len(o.Data))
				for mime, v := range o.Data {
					if out.Data[mime], err = multiline(v); err != nil {
						return nil, fmt.Errorf("cell %d output %d %s: %w", i+1, j+1, mime, err)
					}
				}
			}
			cell.Outputs = append(cell.Outputs, out)
		}
		nb.Cells = append(nb.Cells, cell)
	}
	return nb, nil
}

// multiline decodes nbformat's multiline strings: a string, or a list of strings to join.
// JSON values other than those (application/json data) are returned as their JSON text.
func multiline(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err == nil {
		return strings.Join(parts, ""), nil
	}
	if raw[0] == '{' {
		return string(raw), nil
	}
	return "", fmt.Errorf("want a string or a list of strings, got %.20s", raw)
}

// Tidy rewrites an executed notebook for the repository: it drops the per-cell execution
// timestamps nbconvert records (metadata.execution), which would change on every run and
// make diffs noisy, and writes nbformat's layout (one-space indent, sorted keys).
func Tidy(raw []byte) ([]byte, error) {
	var nb map[string]any
	if err := json.Unmarshal(raw, &nb); err != nil {
		return nil, fmt.Errorf("notebooks: tidy: %w", err)
	}
	cells, _ := nb["cells"].([]any)
	for _, c := range cells {
		if cell, ok := c.(map[string]any); ok {
			if md, ok := cell["metadata"].(map[string]any); ok {
				delete(md, "execution")
			}
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(nb); err != nil {
		return nil, fmt.Errorf("notebooks: tidy: %w", err)
	}
	return buf.Bytes(), nil
}
