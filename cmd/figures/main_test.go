package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/notebooks/paper"
)

// TestWritesFigures checks that figures writes a PNG and an SVG per figure, equal to what
// package paper draws (the notebooks' images), and captions.md with the paper's captions.
func TestWritesFigures(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-out", out, "-section", "bushi,handicap", "--json"}, &stdout, &stderr); err != nil {
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
			png, svg, err := f.Images()
			if err != nil {
				t.Fatal(err)
			}
			for ext, data := range map[string][]byte{".png": png, ".svg": svg} {
				got, err := os.ReadFile(filepath.Join(out, f.Name+ext))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, data) {
					t.Errorf("%s%s differs from the figure package paper draws", f.Name, ext)
				}
			}
			if rep.Figures[n].Name != f.Name || rep.Figures[n].Caption != f.Caption {
				t.Errorf("--json figure %d is %s; want %s with the paper's caption", n, rep.Figures[n].Name, f.Name)
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

func TestTable(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-out", t.TempDir(), "-section", "bushi"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "bushi    bushi_layouts") || !strings.Contains(stdout.String(), "2 figures and ") {
		t.Errorf("table:\n%s", stdout.String())
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-section", "chess"}, `no section "chess"`},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-out", ""}, "-out must name a directory"},
		{[]string{"-bogus"}, "flag provided but not defined"},
		{[]string{"-root", "/"}, "not the shogilab repository"},
		{[]string{"-out", "main_test.go/figures"}, "output directory"}, // before any figure is made
	} {
		// An -out of its own, first, so that a case that wrongly succeeds writes nothing here.
		args := append([]string{"-out", t.TempDir()}, tc.args...)
		err := run(args, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("figures %v: error %v; want one containing %q", tc.args, err, tc.want)
		}
	}
	var stderr bytes.Buffer
	if err := run([]string{"-h"}, &bytes.Buffer{}, &stderr); !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr.String(), "Usage: figures") {
		t.Errorf("-h: %v, %q", err, stderr.String())
	}
}

// TestSectionKeepsOtherCaptions: making one section rewrites its captions in captions.md and
// keeps the other sections', in the paper's order.
func TestSectionKeepsOtherCaptions(t *testing.T) {
	out := t.TempDir()
	for _, sec := range []string{"bushi", "handicap", "bushi"} {
		if err := run([]string{"-out", out, "-section", sec}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
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
