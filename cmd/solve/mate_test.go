package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
)

func TestMateCommandsBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"handicap"},
		{"handicap", "queen"},
		{"handicap", "bare-king", "--max-plies", "-1"},
		{"handicap", "bare-king", "--memory", "lots"},
		{"mate", "--sfen", "4k/5/5/P4/KGSBR w - 1"},
		{"mate", "--sfen", "4k/5/5/P4 w - 1", "--attacker", "b"},
		{"mate", "--sfen", "4k/5/5/P4/KGSBR w - 1", "--attacker", "x"},
		{"check", "--sfen", "4k/5/5/P4/KGSBR w - 1"},
		{"check", "--sfen", "4k/5/5/P4/KGSBR w - 1", "--line", "1a2a", "extra"},
	} {
		code, _, stderr := runSolve(args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "solve "+args[0]+": ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
	for _, sub := range []string{"handicap", "mate", "check"} {
		t.Run(sub, func(t *testing.T) {
			if code, out, _ := runSolve(sub, "-h"); code != 0 || !strings.Contains(out, "usage: solve "+sub) {
				t.Errorf("%s -h: exit %d, %q", sub, code, out)
			}
		})
	}
}

func TestHandicapBareKingJSON(t *testing.T) {
	proof := filepath.Join(t.TempDir(), "bare-king.proof")
	code, out, stderr := runSolve("handicap", "bare-king", "--json", "--max-plies", "10", "--retro-plies", "8", "--proof", proof)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		MatePlies    *int     `json:"mate_plies"`
		PV           []string `json:"pv"`
		Positions    int      `json:"positions"`
		Seconds      float64  `json:"seconds"`
		ProofChecked bool     `json:"proof_checked"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.MatePlies == nil || *rep.MatePlies != 8 || len(rep.PV) != 8 || !rep.ProofChecked || rep.Positions == 0 {
		t.Fatalf("report %+v, want a checked mate in 8", rep)
	}
	text, err := os.ReadFile(proof)
	if err != nil || !strings.HasPrefix(string(text), "shogilab-mate-proof 1\n") {
		t.Fatalf("proof file: %v %q", err, text)
	}
	// The claimed line is the PV: check must accept it.
	if code, out, stderr := runSolve("check", "--sfen", "4k/5/5/P4/KGSBR w - 1", "--line", strings.Join(rep.PV, " ")); code != 0 {
		t.Fatalf("check of the pv: exit %d\n%s%s", code, out, stderr)
	}
}

func TestNoMateIsNull(t *testing.T) {
	code, out, stderr := runSolve("mate", "--sfen", "2k2/5/5/5/K4 b R 1", "--attacker", "b", "--max-plies", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"mate_plies":null`) || !strings.Contains(out, `"proof_checked":false`) {
		t.Fatalf("want mate_plies null: %s", out)
	}
}

// TestPlot checks --out with the figure flags: the study's two figures in each format
// asked, PDFs that render with their fonts embedded and their axis labels intact, PNGs of the
// column size (3.5 in × 2.6 in at 200 dpi), and a bad format refused as a usage error.
func TestPlot(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := runSolve("handicap", "bare-king", "--json", "--max-plies", "10", "--retro-plies", "0",
		"--out", dir, "--study-plies", "4", "--format", "pdf,png", "--size", "column")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Plots []string `json:"plots"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var want []string
	for _, name := range []string{"bare-king-layers", "bare-king-distances"} {
		want = append(want, filepath.Join(dir, name+".pdf"), filepath.Join(dir, name+".png"))
	}
	if strings.Join(rep.Plots, " ") != strings.Join(want, " ") {
		t.Fatalf("plots %v; want %v", rep.Plots, want)
	}
	figuretest.CheckPDF(t, want[0], figure.Column, "ply from the start", "positions", "Sente forces mate")
	figuretest.CheckPDF(t, want[2], figure.Column, "plies to mate from the position")
	f, err := os.Open(want[1])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if cfg, err := png.DecodeConfig(f); err != nil || cfg.Width != 700 || cfg.Height != 520 {
		t.Errorf("%s: %v, %dx%d; want 700x520", want[1], err, cfg.Width, cfg.Height)
	}
	code, _, stderr = runSolve("handicap", "bare-king", "--out", dir, "--format", "eps")
	if code != 2 || !strings.Contains(stderr, `unknown format "eps"`) {
		t.Errorf("--format eps: exit %d, %q", code, stderr)
	}
}

// TestOutputPathsCheckedFirst: a --proof or --out path that cannot be written fails at
// once, with the exit status of a bad command line (2), before the search reports anything.
func TestOutputPathsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct{ flag, path, want string }{
		{"--proof", filepath.Join(dir, "missing", "p.proof"), "--proof: output file"},
		{"--proof", dir, "is a directory"},
		{"--out", filepath.Join(file, "plots"), "--out: output directory"},
	} {
		t.Run(c.want, func(t *testing.T) {
			code, _, stderr := runSolve("handicap", "bare-king", "--max-plies", "10", c.flag, c.path)
			if code != 2 || strings.Contains(stderr, "df-pn") || !strings.Contains(stderr, c.want) {
				t.Errorf("%s %s: exit %d, stderr %q; want one error line with %q and no search", c.flag, c.path, code, stderr, c.want)
			}
		})
	}
}

// TestStudyRespectsMemory: --study-plies far beyond what fits stops deepening before the
// graph outgrows --memory, and says so.
func TestStudyRespectsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("five seconds of graph enumeration")
	}
	const budget = 256 << 20
	code, out, stderr := runSolve("handicap", "bare-king", "--out", t.TempDir(), "--study-plies", "99", "--memory", "256MiB",
		"--max-plies", "9", "--retro-plies", "0", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Study struct {
			Plies          int
			Layers         []int
			AllocatedBytes uint64 `json:"allocated_bytes"`
			Note           string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	st := rep.Study
	if st.Plies >= 99 || len(st.Layers) != st.Plies+1 || st.AllocatedBytes > budget || !strings.Contains(st.Note, "beyond --memory 256 MiB") ||
		!strings.Contains(stderr, "the study stops at") {
		t.Errorf("study %+v, stderr %q", st, stderr)
	}
}

// TestVerify writes the bare-king proof and its no-mate-within-6 certificate, verifies both,
// and checks that a certificate with its root reply changed to a move that walks into the
// mate of the shipped line fails with status 1.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	proof, cert := dir+"/bk.proof", dir+"/bk.cert"
	var out, errOut bytes.Buffer
	if code := program.Run([]string{"handicap", "bare-king", "--retro-plies", "0", "--proof", proof, "--certificate", cert, "--json"}, &out, &errOut); code != 0 {
		t.Fatal(code, errOut.String())
	}
	var rep struct {
		Bounds struct {
			Upper          *int `json:"mate_within"`
			UpperCertified bool `json:"mate_within_certified"`
			Lower          *int `json:"no_mate_within"`
			LowerCertified bool `json:"no_mate_within_certified"`
			Exact          bool `json:"exact"`
		} `json:"bounds"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	// Fairy-Stockfish reports mate in 8 for the bare-king handicap (datasets/README.md).
	if b := rep.Bounds; b.Upper == nil || *b.Upper != 8 || b.Lower == nil || *b.Lower != 6 || !b.UpperCertified || !b.LowerCertified || !b.Exact {
		t.Fatalf("bounds %+v", rep.Bounds)
	}
	for _, f := range []string{proof, cert} {
		out.Reset()
		if code := program.Run([]string{"verify", f}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "verdict   holds") {
			t.Fatalf("verify %s: status %d\n%s", f, code, out.String())
		}
	}
	b, err := os.ReadFile(cert)
	if err != nil {
		t.Fatal(err)
	}
	// The root is Gote to move with its king on 1a: 1a1c is no king move (two squares), so a
	// certificate whose root reply is 1a1c must fail as illegal.
	lines := strings.Split(string(b), "\n")
	found := false
	for i, l := range lines {
		if strings.HasPrefix(l, "4k/5/5/P4/KGSBR w - ") {
			lines[i] = "4k/5/5/P4/KGSBR w - 1a1c"
			found = true
		}
	}
	if !found {
		t.Fatal("the certificate has no line for the root")
	}
	if err := os.WriteFile(cert, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := program.Run([]string{"verify", cert}, &out, &errOut); code != 1 || !strings.Contains(out.String(), "illegal") {
		t.Fatalf("a corrupted certificate verified: status %d\n%s", code, out.String())
	}
}

// TestStoppedJSON: a df-pn stopped by --node-limit says so in its JSON (stopped), with the
// longest length it disproved; a search that decides says nothing of it. The four-piece mate
// is in 10 plies (datasets/README.md), so 3,000 nodes cannot decide it.
func TestStoppedJSON(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		stopped bool
	}{
		{[]string{"handicap", "four-piece", "--max-plies", "10", "--retro-plies", "0", "--node-limit", "3000", "--json"}, true},
		{[]string{"handicap", "four-piece", "--max-plies", "10", "--retro-plies", "0", "--json"}, false},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := program.Run(tc.args, &out, &errOut); code != 0 {
				t.Fatalf("%v: exit %d: %s", tc.args, code, errOut.String())
			}
			var rep map[string]any
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("%v: %v in %s", tc.args, err, out.String())
			}
			if got := rep["stopped"] == true; got != tc.stopped {
				t.Errorf("%v: stopped %v, want %v (%s)", tc.args, rep["stopped"], tc.stopped, out.String())
			}
		})
	}
}
