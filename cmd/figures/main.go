// Command figures regenerates every figure of the paper into one directory, without Jupyter:
// it calls the same functions (package paper) as the notebooks, so the files show
// the notebooks' figures and captions. By default it writes what a LaTeX paper includes: PDF,
// one column wide, without titles (the captions, in captions.md, carry them).
//
//	go run ./cmd/figures -out figures          # all sections, PDF
//	go run ./cmd/figures -out figures -section mawari --format png,pdf --size full --json
//	go run ./cmd/figures -out docs/figures -format png -gallery docs/figures.md
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/paper"
)

func main() {
	os.Exit(cli.RunOne(cli.Command{Name: "figures", Run: run}, os.Args[1:], os.Stdout, os.Stderr))
}

// report is what figures prints: one entry per figure, and the time taken.
type report struct {
	Out      string        `json:"out"`
	Figures  []figureEntry `json:"figures"`
	Seconds  float64       `json:"seconds"`
	Sections []string      `json:"sections"`
}

type figureEntry struct {
	Section string   `json:"section"`
	Name    string   `json:"name"`
	Files   []string `json:"files"`
	Caption string   `json:"caption"`
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("figures", flag.ContinueOnError)
	out := fs.String("out", "figures", "directory to write the figures and captions.md into")
	root := fs.String("root", "", "the shogilab repository, for the datasets (default: $"+paper.RootEnv+", or the repository above the working directory)")
	only := fs.String("section", "", "comma-separated `sections` to make (default all: "+strings.Join(sectionNames(), ", ")+")")
	asJSON := fs.Bool("json", false, "print one JSON object instead of a table")
	gallery := fs.String("gallery", "", "also write a Markdown `file` showing every figure (PNG or SVG, the first of --format) above its caption")
	opts := figure.Paper()
	opts.AddFlags(fs)
	if err := cli.ParseHelp(fs, args, stdout, `usage: figures [flags]

Regenerates every figure of the paper and writes captions.md beside them: by default as PDF
(fonts embedded) one column wide and without titles, ready for LaTeX. The notebooks in
notebooks/ show the same figures with the same captions.`); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q (flags only)", fs.Arg(0))
	}
	if *out == "" {
		return cli.Usagef("-out must name a directory")
	}
	if *gallery != "" && opts.Formats[0] == figure.PDF {
		return cli.Usagef("-gallery shows the first of -format, which must be png or svg: Markdown cannot show a PDF")
	}
	sections, err := choose(*only)
	if err != nil {
		return err
	}
	if *root == "" {
		*root, err = paper.Root()
	} else {
		*root, err = paper.CheckRoot(*root)
	}
	if err != nil {
		return err
	}

	if err := cli.CheckOutputDir(*out); err != nil {
		return err
	}
	start := time.Now()
	rep := report{Out: *out}
	// captions.md keeps the captions of the sections not made this time (-section).
	old, err := os.ReadFile(filepath.Join(*out, "captions.md"))
	if err != nil && !errors.Is(err, iofs.ErrNotExist) {
		return err
	}
	captions := parseCaptions(string(old))
	for _, s := range sections {
		var block strings.Builder
		t := time.Now()
		figs, err := s.Figures(*root)
		if err != nil {
			return fmt.Errorf("section %s: %w", s.Name, err)
		}
		rep.Sections = append(rep.Sections, s.Name)
		for _, f := range figs {
			files, err := f.Save(*out, opts)
			if err != nil {
				return err
			}
			rep.Figures = append(rep.Figures, figureEntry{Section: s.Name, Name: f.Name, Files: files, Caption: f.Caption})
			fmt.Fprintf(&block, "%s\n\n", f.Markdown())
		}
		captions[s.Name] = block.String()
		// Plain lines, not a bar: there are a handful of sections, each a few seconds.
		fmt.Fprintf(stderr, "figures: section %s: %d figures in %.1fs\n", s.Name, len(figs), time.Since(t).Seconds())
	}
	if err := atomicfile.WriteFile(filepath.Join(*out, "captions.md"), []byte(formatCaptions(captions))); err != nil {
		return err
	}
	if *gallery != "" {
		if err := writeGallery(*gallery, rep, opts); err != nil {
			return err
		}
	}
	rep.Seconds = time.Since(start).Seconds()

	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "section\tfigure\tfiles")
	for _, f := range rep.Figures {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Section, f.Name, strings.Join(f.Files, " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d figures and %s in %.1fs\n", len(rep.Figures), filepath.Join(*out, "captions.md"), rep.Seconds)
	return nil
}

// captionMark starts each section's captions in captions.md: an HTML comment, which Markdown
// does not show, so that a run of some sections (-section) replaces theirs and keeps the rest.
const captionMark = "<!-- section %s -->\n"

// parseCaptions splits a captions.md into its sections' blocks; text before the first mark
// (a file from before the marks) is dropped.
func parseCaptions(text string) map[string]string {
	blocks := map[string]string{}
	for _, part := range strings.Split(text, "<!-- section ")[1:] {
		name, body, ok := strings.Cut(part, " -->\n")
		if ok {
			blocks[name] = body
		}
	}
	return blocks
}

// formatCaptions writes the blocks in the paper's order.
func formatCaptions(blocks map[string]string) string {
	var b strings.Builder
	for _, name := range sectionNames() {
		if body, ok := blocks[name]; ok {
			fmt.Fprintf(&b, captionMark, name)
			b.WriteString(body)
		}
	}
	return b.String()
}

func sectionNames() []string {
	var names []string
	for _, s := range paper.Sections() {
		names = append(names, s.Name)
	}
	return names
}

// choose returns the sections named in the comma-separated list, in the paper's order; all
// of them for an empty list.
func choose(list string) ([]paper.Section, error) {
	all := paper.Sections()
	if list == "" {
		return all, nil
	}
	want := strings.Split(list, ",")
	for _, name := range want {
		if !slices.Contains(sectionNames(), name) {
			return nil, cli.Usagef("-section: no section %q; have %s", name, strings.Join(sectionNames(), ", "))
		}
	}
	var chosen []paper.Section
	for _, s := range all {
		if slices.Contains(want, s.Name) {
			chosen = append(chosen, s)
		}
	}
	return chosen, nil
}

// writeGallery writes a Markdown page at path that shows every figure of rep, in the first
// of opts' formats, above its caption, with links relative to the page.
func writeGallery(path string, rep report, opts figure.Options) error {
	var b strings.Builder
	w, _ := opts.Size.Dimensions()
	fmt.Fprintf(&b, "# Figures\n\nEvery figure of the paper, %s wide (%.1f in), with its caption, as the notebooks in\n`notebooks/` and `go run ./cmd/figures` make them from the shipped datasets. This page is\nmade by\n\n    go run ./cmd/figures -out %s -format %s -size %s -gallery %s\n\nand `go run ./cmd/figures` alone writes the same figures as PDF for LaTeX.\n",
		opts.Size, w/vg.Inch, filepath.ToSlash(rep.Out), opts.Formats, opts.Size, filepath.ToSlash(path))
	section := ""
	for _, f := range rep.Figures {
		if f.Section != section {
			section = f.Section
			fmt.Fprintf(&b, "\n## %s\n", section)
		}
		rel, err := filepath.Rel(filepath.Dir(path), f.Files[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "\n![%s](%s)\n\n**Figure %s.** %s\n", f.Name, filepath.ToSlash(rel), f.Name, f.Caption)
	}
	return atomicfile.WriteFile(path, []byte(b.String()))
}
