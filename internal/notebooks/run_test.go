package notebooks

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/paper"
)

var update = flag.Bool("update", false, "write the executed notebooks, outputs included, back into notebooks/")

// needTools skips the test when Jupyter or GoNB is missing, and fails it under CI=true,
// where a missing tool means the CI setup (ci/install-notebooks.sh) did not run.
func needTools(t *testing.T) {
	t.Helper()
	if missing := Tools(); len(missing) > 0 {
		msg := "notebook tools missing: " + strings.Join(missing, "; ")
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestFailures checks the failure detection on hand-written notebooks covering what GoNB
// prints: a compile error (an error output), a panic and an os.Exit (stderr ending in
// "exit status N"), and outputs that merely look alarming.
func TestFailures(t *testing.T) {
	cell := func(outputs string) string {
		return `{"cell_type": "code", "source": ["%%\n", "run()"], "outputs": [` + outputs + `]}`
	}
	notebook := func(cells ...string) []byte {
		return []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [` + strings.Join(cells, ",") + `]}`)
	}
	ok := cell(`{"output_type": "stream", "name": "stdout", "text": ["exit status 1 is printed here on stdout\n"]}`)
	warn := cell(`{"output_type": "stream", "name": "stderr", "text": "warning: the exit status 1 of a helper was ignored\n"}`)
	compile := cell(`{"output_type": "error", "ename": "ERROR", "evalue": "failed to run go build", "traceback": []}`)
	panicked := cell(`{"output_type": "stream", "name": "stderr", "text": ["panic: boom\n", "\n", "goroutine 1 [running]:\n", "exit status 2\n"]}`)
	exited := cell(`{"output_type": "stream", "name": "stderr", "text": "exit status 3\n"}`)
	md := `{"cell_type": "markdown", "source": "exit status 1\n"}`
	for _, tc := range []struct {
		name  string
		raw   []byte
		cells []int // failing cells, numbered from 1
	}{
		{"clean", notebook(md, ok, warn), nil},
		{"compile error", notebook(ok, compile), []int{2}},
		{"panic and exit", notebook(panicked, md, ok, exited), []int{1, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb, err := Parse(tc.raw)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			fails := nb.Failures()
			if len(fails) != len(tc.cells) {
				t.Errorf("%s: %d failures %v; want cells %v", tc.name, len(fails), fails, tc.cells)
				return
			}
			for i, f := range fails {
				if want := fmt.Sprintf("cell %d ", tc.cells[i]); !strings.HasPrefix(f.Error(), want) {
					t.Errorf("%s: failure %q does not start with %q", tc.name, f, want)
				}
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	for _, raw := range []string{`{`, `{"nbformat": 3, "cells": []}`, `{"nbformat": 4, "cells": [{"cell_type": "code", "source": 7}]}`} {
		t.Run(raw, func(t *testing.T) {
			if _, err := Parse([]byte(raw)); err == nil {
				t.Errorf("Parse(%s) succeeded", raw)
			}
		})
	}
}

// TestBrokenNotebookFails executes the broken fixture: the runner must report its panicking
// cell (the third code cell, fourth cell) even though the cells after it run.
func TestBrokenNotebookFails(t *testing.T) {
	needTools(t)
	nb, err := Execute(context.Background(), "testdata/broken.ipynb", Options{Root: repoRoot(t)})
	if err == nil {
		t.Fatal("the broken notebook executed without error")
	}
	if !strings.Contains(err.Error(), "cell 4 ") || !strings.Contains(err.Error(), "nil map") {
		t.Errorf("error %q does not name cell 4 and its panic", err)
	}
	if nb == nil || len(nb.Cells) != 5 || !strings.Contains(text(nb.Cells[4]), "must not go unnoticed") {
		t.Error("the cells after the broken one did not run, so the test does not show that a later success cannot hide a failure")
	}
}

func text(c Cell) string {
	var b strings.Builder
	for _, o := range c.Outputs {
		b.WriteString(o.Text)
	}
	return b.String()
}

// TestNotebooks executes every notebook on a copy and checks that it shows exactly the
// figures of package paper, which cmd/figures writes: the same captions and the same PNG
// bytes (full width, titled: figure.Notebook). With -update it
// writes the executed notebooks back (outputs included) for the repository.
func TestNotebooks(t *testing.T) {
	needTools(t)
	root := repoRoot(t)
	start := time.Now()
	for _, s := range paper.Sections() {
		t.Run(s.Name, func(t *testing.T) {
			path := filepath.Join(root, "notebooks", s.Notebook)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			nb, err := Execute(context.Background(), path, Options{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s executed in %.1fs", path, time.Since(t0).Seconds())
			figs, err := s.Figures(root)
			if err != nil {
				t.Fatal(err)
			}
			checkFigures(t, path+" executed", nb, figs)
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Errorf("executing %s changed the file in the repository", path)
			}
			if *update {
				tidy, err := Tidy(nb.Raw)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, tidy, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	t.Logf("all notebooks executed in %.1fs", time.Since(start).Seconds())
}

// TestCommittedNotebooks checks, without Jupyter, that the outputs kept in the repository's
// notebooks are current: every figure of every section is shown, with the caption and PNG
// that package paper makes now, in the section's notebook; and that every notebook belongs to
// a section.
func TestCommittedNotebooks(t *testing.T) {
	root := repoRoot(t)
	known := map[string]bool{}
	for _, s := range paper.Sections() {
		known[s.Notebook] = true
		path := filepath.Join(root, "notebooks", s.Notebook)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if fails := nb.Failures(); len(fails) > 0 {
			t.Errorf("%s: committed outputs show failures: %v", path, fails)
		}
		figs, err := s.Figures(root)
		if err != nil {
			t.Fatal(err)
		}
		checkFigures(t, path+" in the repository (refresh: go test ./internal/notebooks -run TestNotebooks -update)", nb, figs)
	}
	all, err := filepath.Glob(filepath.Join(root, "notebooks", "*.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all {
		if !known[filepath.Base(p)] {
			t.Errorf("%s belongs to no section of paper.Sections, so no test checks its figures", p)
		}
	}
}

// checkFigures checks that nb shows each figure: its Markdown caption as a text/markdown
// output, and its PNG, byte for byte, as an image/png output.
func checkFigures(t *testing.T, what string, nb *Notebook, figs []paper.Figure) {
	t.Helper()
	captions := map[string]bool{}
	pngs := map[[32]byte]bool{}
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if md, ok := o.Data["text/markdown"]; ok {
				captions[md] = true
			}
			if b64, ok := o.Data["image/png"]; ok {
				png, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(b64), ""))
				if err != nil {
					t.Errorf("%s: an image/png output is not base64: %v", what, err)
					continue
				}
				pngs[sha256.Sum256(png)] = true
			}
		}
	}
	if len(figs) == 0 {
		t.Errorf("%s: the section has no figures", what)
	}
	for _, f := range figs {
		if !captions[f.Markdown()] {
			t.Errorf("%s: no output with the caption of figure %s:\n%s", what, f.Name, f.Markdown())
		}
		png, err := f.NotebookPNG()
		if err != nil {
			t.Fatal(err)
		}
		if !pngs[sha256.Sum256(png)] {
			t.Errorf("%s: no output with the PNG of figure %s", what, f.Name)
		}
	}
}
