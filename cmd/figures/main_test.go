package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
	"github.com/shogilab/shogilab/paper"
)

// TestWritesFigures checks that figures writes each figure in every format asked, equal to
// what package paper draws (PNG and SVG byte for byte; each PDF rendered by pdftoppm, its
// fonts embedded and its axis labels and legend found by pdftotext), and captions.md with
// the paper's captions.
func TestWritesFigures(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"-out", out, "-section", "bushi,handicap", "--format", "png,svg,pdf", "--json"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var rep report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout.String())
	}
	if strings.Join(rep.Sections, ",") != "handicap,bushi" {
		t.Errorf("sections %v; want the paper's order, handicap then bushi", rep.Sections)
	}
	root, err := paper.Root()
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	n := 0
	opts := figure.Options{Size: figure.Column} // the default: a column wide, no titles
	for _, s := range paper.Sections() {
		if s.Name != "bushi" && s.Name != "handicap" {
			continue
		}
		want.WriteString("<!-- section " + s.Name + " -->\n")
		figs, err := s.Figures(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range figs {
			for _, ft := range []figure.Format{figure.PNG, figure.SVG} {
				data, err := f.Encode(ft, opts)
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(out, f.Name+"."+string(ft)))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, data) {
					t.Errorf("%s.%s differs from the figure package paper draws", f.Name, ft)
				}
			}
			p, err := f.Plot()
			if err != nil {
				t.Fatal(err)
			}
			figuretest.CheckPDF(t, filepath.Join(out, f.Name+".pdf"), figure.Column, append(p.LegendLabels(), p.X.Label.Text, p.Y.Label.Text)...)
			if rep.Figures[n].Name != f.Name || rep.Figures[n].Caption != f.Caption || len(rep.Figures[n].Files) != 3 {
				t.Errorf("--json figure %d is %s with %v; want %s with the paper's caption and three files", n, rep.Figures[n].Name, rep.Figures[n].Files, f.Name)
			}
			n++
			want.WriteString(f.Markdown() + "\n\n")
		}
	}
	if len(rep.Figures) != n {
		t.Errorf("%d figures reported; want %d", len(rep.Figures), n)
	}
	captions, err := os.ReadFile(filepath.Join(out, "captions.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(captions) != want.String() {
		t.Errorf("captions.md:\n%s\nwant:\n%s", captions, want.String())
	}
	if !strings.Contains(stderr.String(), "figures: section bushi: 2 figures") {
		t.Errorf("no progress line for bushi on stderr: %q", stderr.String())
	}
}

// TestDefaultIsPDF: without -format, figures writes PDFs only, for LaTeX.
func TestDefaultIsPDF(t *testing.T) {
	out := t.TempDir()
	if err := run(context.Background(), []string{"-out", out, "-section", "bushi"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(out, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if got := strings.Join(names, " "); got != "bushi_default_layers.pdf bushi_layouts.pdf captions.md" {
		t.Errorf("wrote %s; want the two PDFs and captions.md", got)
	}
}

// TestGalleryIsCurrent remakes the gallery, docs/figures.md with its PNGs, as its header
// says, and checks that the repository's copy is the same: every figure at column width
// above its caption.
func TestGalleryIsCurrent(t *testing.T) {
	root, err := paper.Root()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	args := []string{"-root", root, "-out", "docs/figures", "-format", "png", "-size", "column", "-gallery", "docs/figures.md"}
	if err := run(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	made, err := filepath.Glob("docs/figures/*")
	if err != nil {
		t.Fatal(err)
	}
	const refresh = "go run ./cmd/figures -out docs/figures -format png -size column -gallery docs/figures.md"
	for _, path := range append(made, "docs/figures.md") {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		kept, err := os.ReadFile(filepath.Join(root, path))
		if err != nil || !bytes.Equal(got, kept) {
			t.Errorf("%s in the repository is not current (%v); refresh: %s", path, err, refresh)
		}
	}
	kept, err := filepath.Glob(filepath.Join(root, "docs/figures/*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != len(made) {
		t.Errorf("docs/figures holds %d files; the gallery makes %d", len(kept), len(made))
	}
	page, err := os.ReadFile("docs/figures.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), "!["); n != 18 {
		t.Errorf("the gallery shows %d figures; want the paper's 18 (README.md, cmd/figures)", n)
	}
}

func TestTable(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"-out", t.TempDir(), "-section", "bushi"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "bushi    bushi_layouts") || !strings.Contains(stdout.String(), "2 figures and ") {
		t.Errorf("table:\n%s", stdout.String())
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-section", "chess"}, cli.ExitUsage, `no section "chess"`},
		{[]string{"extra"}, cli.ExitUsage, `unexpected argument "extra"`},
		{[]string{"-out", ""}, cli.ExitUsage, "-out must name a directory"},
		{[]string{"-bogus"}, cli.ExitUsage, "flag provided but not defined"},
		{[]string{"-root", "/"}, cli.ExitFailure, "not the shogilab repository"},
		{[]string{"-out", "main_test.go/figures"}, cli.ExitUsage, "output directory"}, // before any figure is made
		{[]string{"-format", "gif"}, cli.ExitUsage, `unknown format "gif"`},
		{[]string{"-size", "a4"}, cli.ExitUsage, "want column"},
		{[]string{"-gallery", "g.md"}, cli.ExitUsage, "-gallery shows the first of -format"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			// An -out of its own, first, so that a case that wrongly succeeds writes nothing here.
			args := append([]string{"-out", t.TempDir()}, tc.args...)
			var errs bytes.Buffer
			code := cli.RunOne(cli.Command{Name: "figures", Run: run}, args, &bytes.Buffer{}, &errs)
			msg := errs.String()
			if code != tc.code || strings.Count(msg, "\n") != 1 || strings.Count(msg, "figures:") != 1 || !strings.Contains(msg, tc.want) {
				t.Errorf("figures %v: exit %d, stderr %q; want exit %d, one line with %q", tc.args, code, msg, tc.code, tc.want)
			}
		})
	}
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, &stdout, &bytes.Buffer{}); !errors.Is(err, flag.ErrHelp) || !strings.Contains(stdout.String(), "usage: figures") {
		t.Errorf("-h: %v, %q", err, stdout.String())
	}
}

// TestSectionKeepsOtherCaptions: making one section rewrites its captions in captions.md and
// keeps the other sections', in the paper's order.
func TestSectionKeepsOtherCaptions(t *testing.T) {
	out := t.TempDir()
	for _, sec := range []string{"bushi", "handicap", "bushi"} {
		if err := run(context.Background(), []string{"-out", out, "-section", sec}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
	}
	captions, err := os.ReadFile(filepath.Join(out, "captions.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(captions)
	h, b := strings.Index(text, "<!-- section handicap -->"), strings.Index(text, "<!-- section bushi -->")
	if h < 0 || b < h || strings.Count(text, "<!-- section") != 2 || !strings.Contains(text, "**Figure bushi_layouts.**") {
		t.Errorf("captions.md after bushi, handicap, bushi:\n%s", text)
	}
}
