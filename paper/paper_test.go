package paper

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/figure/figuretest"
	"github.com/shogilab/shogilab/train/loop"
)

func testRoot(t *testing.T) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestRoot(t *testing.T) {
	want, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(RootEnv, "")
	if got := testRoot(t); got != want {
		t.Errorf("Root() from paper = %s; want %s", got, want)
	}
	t.Setenv(RootEnv, t.TempDir())
	if _, err := Root(); err == nil || !strings.Contains(err.Error(), "not the shogilab repository") {
		t.Errorf("Root() with %s an empty directory gave %v; want an error saying it is not the repository", RootEnv, err)
	}
}

// TestSectionsFigures checks every section: figure names are unique (they are file names),
// every figure has a caption that says where its data come from, it draws as the notebooks
// show it (a PNG) and as a paper includes it (an SVG here; cmd/figures checks the PDFs), and
// it passes the checks of figuretest: no legend over the data, three labelled ticks or more
// on every axis, at both sizes.
func TestSectionsFigures(t *testing.T) {
	root := testRoot(t)
	names := map[string]bool{}
	for _, s := range Sections() {
		figs, err := s.Figures(root)
		if err != nil {
			t.Fatalf("section %s: %v", s.Name, err)
		}
		for _, f := range figs {
			if names[f.Name] {
				t.Errorf("two figures named %s", f.Name)
			}
			names[f.Name] = true
			if !strings.HasPrefix(f.Name, s.Name+"_") {
				t.Errorf("figure %s of section %s: names start with the section's", f.Name, s.Name)
			}
			if len(f.Caption) < 80 {
				t.Errorf("figure %s: caption %q is too short to state its numbers", f.Name, f.Caption)
			}
			// A caption stands alone: it names its data (a shipped dataset, or the package
			// that computes them) and a command that prints the same numbers.
			if !strings.Contains(f.Caption, "datasets/") && !strings.Contains(f.Caption, "package ") {
				t.Errorf("figure %s: the caption names neither a dataset nor the package computing the data", f.Name)
			}
			if !strings.Contains(f.Caption, "`go run ./cmd/") {
				t.Errorf("figure %s: the caption gives no command", f.Name)
			}
			png, err := f.NotebookPNG()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
				t.Errorf("figure %s: the PNG does not start with the PNG signature", f.Name)
			}
			svg, err := f.Encode(figure.SVG, figure.Paper())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(svg[:min(len(svg), 200)], []byte("<svg")) {
				t.Errorf("figure %s: the SVG has no <svg element at its start", f.Name)
			}
			p, err := f.Plot()
			if err != nil {
				t.Fatal(err)
			}
			figuretest.Check(t, f.Name, p)
			if strings.Contains(p.Title.Text, ".md") {
				t.Errorf("figure %s: the title %q names a file", f.Name, p.Title.Text)
			}
		}
	}
}

// TestImagesAreStable checks that drawing a figure twice gives the same bytes, which the
// notebook test relies on to compare a notebook's images with package paper's.
func TestImagesAreStable(t *testing.T) {
	s, err := NewBushiStudy(testRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	f := s.Figures()[0]
	png1, err := f.NotebookPNG()
	if err != nil {
		t.Fatal(err)
	}
	png2, err := f.NotebookPNG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(png1, png2) {
		t.Error("two drawings of the same figure differ")
	}
}

// TestHandicapFacts checks the handicap study against published facts: the mate in 8 plies
// (seed 001, Fairy-Stockfish), and the perft counts of docs/rules.md#perft for the first two plies, which
// equal the positions first reached there since no two lines of one or two plies transpose.
func TestHandicapFacts(t *testing.T) {
	s, err := NewHandicapStudy(testRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	if s.Mate.Plies != 8 || s.ProofPlies != 8 {
		t.Errorf("mate in %d plies, proof of %d; want 8", s.Mate.Plies, s.ProofPlies)
	}
	if got := s.Study.Layers[:3]; got[0] != 1 || got[1] != 2 || got[2] != 32 {
		t.Errorf("layers %v; want 1, 2, 32 (perft d1 2, d2 32)", got)
	}
	if !strings.Contains(s.Figures()[0].Caption, "Sente mates in 8 plies") {
		t.Error("the caption does not state the mate in 8")
	}
}

// TestBushiFacts checks the Bushi study against counts that follow from the rules: 2 × 24 × 24
// play positions (side to move, and 24 orientations per cube); 16 placements for Black (each
// face can be on top turned 4 ways, and a sword is on the forward edge in as many of them as
// the face has swords: 3 for the three-sword face, 1 for each other face of the default layout,
// so 8 of the 24 orientations give check and may not be chosen); and 16^6 layouts in the study.
func TestBushiFacts(t *testing.T) {
	s, err := NewBushiStudy(testRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	p := s.Positions
	if n := p.BlackWins + p.WhiteWins + p.Draws; n != 2*24*24 {
		t.Errorf("%d play positions; want 2 × 24 × 24 = 1152", n)
	}
	if s.Layers[1] != 16 {
		t.Errorf("%d placements of Black; want 16", s.Layers[1])
	}
	if s.Layouts.Raw != 1<<24 {
		t.Errorf("%d layouts; want 16^6", s.Layouts.Raw)
	}
	if len(s.Line) != s.Plies {
		t.Errorf("optimal line of %d moves for a game of %d plies", len(s.Line), s.Plies)
	}
}

// TestGamesCounts counts the results of the self-play dataset with a plain reader written
// here (gzip and JSON, nothing of the toolkit) and checks the study and its caption agree.
func TestGamesCounts(t *testing.T) {
	root := testRoot(t)
	f, err := os.Open(filepath.Join(root, SelfplayGames))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(zr)
	results := map[string]int{}
	games := 0
	for {
		var g struct{ Result string }
		if err := dec.Decode(&g); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		results[g.Result]++
		games++
	}
	s, err := NewGamesStudy(root)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Report
	if s.Games.Matched != games || r.SenteWins.Count != results["sente"] || r.GoteWins.Count != results["gote"] || r.Draws.Count != results["draw"] {
		t.Errorf("study: %d games, %d/%d/%d; counted here %d games, %v", s.Games.Matched, r.SenteWins.Count, r.GoteWins.Count, r.Draws.Count, games, results)
	}
	want := fmt.Sprintf("Sente won %d, Gote %d, draws %d", results["sente"], results["gote"], results["draw"])
	if c := s.Figures()[2].Caption; !strings.Contains(c, want) {
		t.Errorf("the lengths caption does not say %q:\n%s", want, c)
	}
}

// TestLoopFacts reads the shipped loop run with a plain JSON reader written here and checks
// that the study and its caption agree with it: generations, promotions and each gate.
func TestLoopFacts(t *testing.T) {
	root := testRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, LoopRun, "loop.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var gates []string
	promoted := 0
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	for _, l := range lines[1:] { // line 0 is the initial network
		var g struct {
			Result string
			Gate   struct{ Wins, Draws, Losses int }
		}
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatal(err)
		}
		if g.Result == "promoted" {
			promoted++
		}
		gates = append(gates, fmt.Sprintf("gate %d-%d-%d (%s)", g.Gate.Wins, g.Gate.Draws, g.Gate.Losses, g.Result))
	}
	s, err := NewLoopStudy(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Generations) != len(lines) || s.Promoted != promoted {
		t.Errorf("study: %d lines, %d promoted; counted here %d lines, %d promoted", len(s.Generations), s.Promoted, len(lines), promoted)
	}
	c := s.Figures()[0].Caption
	for _, want := range append(gates, fmt.Sprintf("%d of %d candidates were promoted", promoted, len(lines)-1)) {
		if !strings.Contains(c, want) {
			t.Errorf("the loop caption does not say %q:\n%s", want, c)
		}
	}
}

// TestLoopZeroFacts checks the run from zero's captions against its files read here: each
// generation's Elo is worked again from its gauntlet's wins and losses in rate.json (a grid
// search of the Bradley-Terry likelihood over the anchors' ladder Elo, written here, a draw
// half a win and half a loss as on a ladder without draws), and the games and CPU-hours are summed from the loop.jsonl lines
// and the times.json files (self-play and fit).
func TestLoopZeroFacts(t *testing.T) {
	root := testRoot(t)
	dir := filepath.Join(root, ZeroRun)
	s, err := NewLoopStudy(root)
	if err != nil {
		t.Fatal(err)
	}
	figs := s.Figures()
	if len(figs) != 3 || figs[1].Name != "loop_zero_cpu" || figs[2].Name != "loop_zero_games" {
		t.Fatalf("figures %v, want loop_curve, loop_zero_cpu, loop_zero_games", figs)
	}
	caption := figs[1].Caption
	raw, err := os.ReadFile(filepath.Join(dir, "loop.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	games, cpu := 0, 0.0
	for n, l := range lines {
		var g struct{ Games int }
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatal(err)
		}
		games += g.Games
		var times map[string]struct {
			CPU float64 `json:"cpu_seconds"`
		}
		if b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("gen-%03d", n), "times.json")); err == nil {
			if err := json.Unmarshal(b, &times); err != nil {
				t.Fatal(err)
			}
		}
		cpu += times["selfplay"].CPU + times["fit"].CPU
		var rate struct {
			Results []struct {
				AnchorElo    float64 `json:"anchor_elo"`
				Wins, Losses int
				Draws        int
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("gen-%03d", n), "rate.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &rate); err != nil {
			t.Fatal(err)
		}
		best, top := 0.0, math.Inf(-1)
		for e := -1500.0; e <= 1500; e += 0.1 {
			l := 0.0
			for _, r := range rate.Results {
				p := 1 / (1 + math.Pow(10, (r.AnchorElo-e)/400))
				w, d := float64(r.Wins)+float64(r.Draws)/2, float64(r.Losses)+float64(r.Draws)/2
				l += w*math.Log(p) + d*math.Log(1-p)
			}
			if l > top {
				best, top = e, l
			}
		}
		m := regexp.MustCompile(fmt.Sprintf(`(?i)generation %d ([+-][0-9]+) \[`, n)).FindStringSubmatch(caption)
		if m == nil {
			t.Errorf("the caption has no Elo for generation %d:\n%s", n, caption)
			continue
		}
		if got, _ := strconv.Atoi(m[1]); math.Abs(float64(got)-best) > 1 {
			t.Errorf("generation %d: the caption says %d Elo, the likelihood here peaks at %.1f", n, got, best)
		}
	}
	want := fmt.Sprintf("%d generations: %d games", len(lines)-1, games)
	if !strings.Contains(caption, want) {
		t.Errorf("the caption does not say %q:\n%s", want, caption)
	}
	if want := fmt.Sprintf("%.2f CPU-hours", cpu/3600); !strings.Contains(caption, want) {
		t.Errorf("the caption does not say %q:\n%s", want, caption)
	}
}

// TestWindowText: the caption's words for a replay window, fixed or grown by a resume.
func TestWindowText(t *testing.T) {
	for _, c := range []struct {
		name     string
		schedule []loop.WindowChange
		want     string
	}{
		{"fixed", nil, "the latest 100000 positions"},
		{"grown once", []loop.WindowChange{{From: 1, Positions: 100000}, {From: 21, Positions: 1000000}},
			"the latest 100000 positions (generations 1 to 20), then 1000000 positions (from generation 21)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := windowText(100000, c.schedule); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
