package paper

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/bushiplay"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/rules/bushi"
)

// BushiLayouts is the shipped study of every cube layout (path below the repository root),
// the JSON that `solve bushi --all-layouts --json` prints; datasets/README.md has the command.
const BushiLayouts = "datasets/bushi/all-layouts.json"

// BushiStudy is the Bushi section: the default layout solved (here, in well under a second)
// and every layout up to rotation (read from the shipped study, which takes minutes).
type BushiStudy struct {
	Layout bushi.Layout
	// Winner and Plies are the value of the game from the empty board: the winner under
	// perfect play and the game's length then (−1 for a draw).
	Winner bushiplay.Result
	Plies  int
	// Positions counts every play position by result; AfterSetup the positions after both
	// placements, Black to move.
	Positions, AfterSetup bushiplay.Counts
	// Layers are the positions first reached at each ply from the empty board.
	Layers    []int
	Reachable int
	// Line is an optimal game, in the notation of bushi.Move.String.
	Line []string

	Layouts LayoutStudy
}

// LayoutStudy is the JSON of `solve bushi --all-layouts --json`.
type LayoutStudy struct {
	Classes int                      `json:"classes"` // layouts up to rotation
	Raw     int                      `json:"raw"`     // all layouts
	Results map[string]LayoutResults `json:"results"` // by winner: black, white, draw
	Workers int                      `json:"workers"` // machine-dependent
	Seconds float64                  `json:"seconds"` // machine-dependent
}

// LayoutResults are the layouts with one result.
type LayoutResults struct {
	Classes      int    `json:"classes"`
	Layouts      int    `json:"layouts"`
	Example      string `json:"example,omitempty"`
	ExamplePlies int    `json:"example_plies,omitempty"`
	Longest      string `json:"longest,omitempty"`
	LongestPlies int    `json:"longest_plies,omitempty"`
}

// ReadLayoutStudy reads a layout study in the JSON of `solve bushi --all-layouts --json`.
func ReadLayoutStudy(path string) (LayoutStudy, error) {
	var st LayoutStudy
	raw, err := os.ReadFile(path)
	if err != nil {
		return st, fmt.Errorf("paper: %w", err)
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return st, fmt.Errorf("paper: %s: %w", path, err)
	}
	for _, w := range bushiWinners {
		if _, ok := st.Results[w]; !ok {
			return st, fmt.Errorf("paper: %s: no %q results", path, w)
		}
	}
	return st, nil
}

// bushiWinners are the results in the order the figures show them.
var bushiWinners = []string{"black", "white", "draw"}

// NewBushiStudy solves the default layout and reads the shipped layout study under root.
func NewBushiStudy(root string) (*BushiStudy, error) {
	rules, err := bushi.NewRules(bushi.DefaultLayout())
	if err != nil {
		return nil, fmt.Errorf("paper: bushi: %w", err)
	}
	sol := bushiplay.Solve(rules)
	start := bushi.Start()
	s := &BushiStudy{Layout: rules.Layout(), Winner: sol.Result(start)}
	_, s.Plies = sol.Value(start)
	s.Positions, s.AfterSetup = sol.PlayCounts()
	s.Layers, s.Reachable = bushiplay.Layers(rules)
	for _, m := range sol.Line(start, 200) {
		s.Line = append(s.Line, m.String())
	}
	if s.Layouts, err = ReadLayoutStudy(filepath.Join(root, BushiLayouts)); err != nil {
		return nil, err
	}
	return s, nil
}

// Figures are the positions of the default layout by ply, and the results of every layout.
func (s *BushiStudy) Figures() []Figure {
	layers := figure.Series{Kind: figure.Bars} // one series: no legend
	for ply, n := range s.Layers {
		layers.XYs = append(layers.XYs, plotter.XY{X: float64(ply), Y: float64(n)})
	}
	layersFig := chartFigure("bushi_default_layers",
		fmt.Sprintf("Bushi shogi with the default cube layout (%s), solved exactly by retrograde analysis (package bushiplay; `go run ./cmd/solve bushi --json` prints the same solution, shipped as datasets/bushi/default-layout.json): the positions first reached at each ply from the empty board (%s in all, ply 0 the empty board; plies 1 and 2 are the placements). %s wins in %d plies under perfect play; of all %s play positions %s are wins for Black, %s for White and %d draws; of the %d positions after both placements, Black to move, %d are won by Black and %d by White.",
			s.Layout.Compact(), figure.Thousands(s.Reachable), capitalize(s.Winner.String()), s.Plies,
			figure.Thousands(s.Positions.BlackWins+s.Positions.WhiteWins+s.Positions.Draws), figure.Thousands(s.Positions.BlackWins), figure.Thousands(s.Positions.WhiteWins), s.Positions.Draws,
			s.AfterSetup.BlackWins+s.AfterSetup.WhiteWins+s.AfterSetup.Draws, s.AfterSetup.BlackWins, s.AfterSetup.WhiteWins),
		figure.Chart{Title: "Bushi shogi, default layout: positions first reached by ply", XLabel: "ply", YLabel: "positions",
			XTicks: figure.Integer, YTicks: figure.Integer, Series: []figure.Series{layers}})

	st := s.Layouts
	classes := figure.Series{Label: fmt.Sprintf("layouts up to rotation (%s)", figure.Thousands(st.Classes)), Kind: figure.Bars}
	raw := figure.Series{Label: fmt.Sprintf("all layouts (%s)", figure.Thousands(st.Raw)), Kind: figure.Points}
	var parts []string
	for i, w := range bushiWinners {
		r := st.Results[w]
		classes.XYs = append(classes.XYs, plotter.XY{X: float64(i), Y: float64(r.Classes) / float64(st.Classes)})
		raw.XYs = append(raw.XYs, plotter.XY{X: float64(i), Y: float64(r.Layouts) / float64(st.Raw)})
		part := fmt.Sprintf("%s: %s classes (%.2f%%), %s layouts (%.2f%%)", w, figure.Thousands(r.Classes), 100*float64(r.Classes)/float64(st.Classes),
			figure.Thousands(r.Layouts), 100*float64(r.Layouts)/float64(st.Raw))
		if r.Longest != "" {
			part += fmt.Sprintf(", longest forced win %d plies", r.LongestPlies)
		}
		parts = append(parts, part)
	}
	layoutsFig := chartFigure("bushi_layouts",
		fmt.Sprintf("Bushi shogi solved exactly, by retrograde analysis, for every cube layout (which face carries which sword pattern and gaze; 16 choices for each of 6 faces), one layout per class of rotations, from the shipped study datasets/bushi/all-layouts.json (made by `go run ./cmd/solve bushi --all-layouts --json`): the share of layout classes (bars) and of all layouts (points) in which Black (who places first) wins, White wins, or neither can force a win. %s.",
			strings.Join(parts, "; ")),
		figure.Chart{Title: "Bushi shogi, every cube layout: result under perfect play", XLabel: "winner under perfect play", YLabel: "share of layouts",
			XNames: []string{"Black", "White", "draw"}, Series: []figure.Series{classes, raw}})
	return []Figure{layersFig, layoutsFig}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
