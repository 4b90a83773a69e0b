package main

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/figure"
)

// namedFigure is a figure a subcommand writes: its file name (without the extension), its
// caption, written from the data as the paper's are (by the analysis packages' caption
// functions), and its drawing.
type namedFigure struct {
	name, caption string
	plot          *figure.Plot
}

// captionsFile is the captions' file beside the figures, as cmd/figures writes one.
const captionsFile = "captions.md"

// saveFigures writes figs into dir in the formats of opts, and their captions, each ending
// with the command that made it (made), into dir/captions.md, where the captions of other
// figures (another subcommand's, written into the same directory) are kept. It returns the
// paths of the figures.
func saveFigures(dir string, opts figure.Options, made string, figs []namedFigure) ([]string, error) {
	var paths []string
	for _, f := range figs {
		written, err := f.plot.Save(dir, f.name, opts)
		if err != nil {
			return nil, err
		}
		paths = append(paths, written...)
	}
	path := filepath.Join(dir, captionsFile)
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, iofs.ErrNotExist) {
		return nil, err
	}
	names, captions := parseCaptions(string(old))
	for _, f := range figs {
		if _, ok := captions[f.name]; !ok {
			names = append(names, f.name)
		}
		captions[f.name] = f.caption + " Made by `" + made + "`."
	}
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "**Figure %s.** %s\n\n", name, captions[name])
	}
	if err := atomicfile.WriteFile(path, []byte(b.String())); err != nil {
		return nil, err
	}
	return paths, nil
}

// parseCaptions reads the figures' names, in order, and captions of a captions file.
func parseCaptions(text string) (names []string, captions map[string]string) {
	captions = map[string]string{}
	for _, entry := range strings.Split(text, "\n\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(entry), "**Figure ")
		if !ok {
			continue
		}
		name, caption, ok := strings.Cut(rest, ".** ")
		if !ok {
			continue
		}
		if _, seen := captions[name]; !seen {
			names = append(names, name)
		}
		captions[name] = caption
	}
	return names, captions
}

// commandLine is how a caption says which command made the figures: the subcommand and its
// arguments, quoted where the shell would need it.
func commandLine(sub string, args []string) string {
	words := []string{"analyze", sub}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"$`\\*?[]{}()<>|&;#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}
