package paper

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/train/loop"
)

// LoopRun is the shipped self-play learning loop (path below the repository root): its
// loop.jsonl and provenance.json, as `train loop` wrote them; datasets/README.md has the
// command.
const LoopRun = "datasets/loop/run1"

// LoopStudy is the section on the learning loop: each generation's self-play, fit and gate,
// and the learning curve against the fixed anchor.
type LoopStudy struct {
	Generations []loop.Generation
	Curve       []loop.CurvePoint
	Provenance  loop.Provenance
	// Settings are run1's settings under the keys of the loop it was made with (before
	// the ladder: an anchor match, a gate, a window of generations).
	Settings run1Settings
	Promoted int // candidates promoted
}

// NewLoopStudy reads the shipped loop run under root.
func NewLoopStudy(root string) (*LoopStudy, error) {
	dir := filepath.Join(root, LoopRun)
	gens, err := loop.ReadLog(dir)
	if err != nil {
		return nil, fmt.Errorf("paper: loop: %w", err)
	}
	prov, err := loop.ReadProvenance(dir)
	if err != nil {
		return nil, fmt.Errorf("paper: loop: %w", err)
	}
	s := &LoopStudy{Generations: gens, Curve: loop.Curve(gens), Provenance: prov}
	b, err := os.ReadFile(filepath.Join(dir, "provenance.json"))
	if err == nil {
		var p struct {
			Config run1Settings `json:"config"`
		}
		err = json.Unmarshal(b, &p)
		s.Settings = p.Config
	}
	if err != nil {
		return nil, fmt.Errorf("paper: loop: %w", err)
	}
	for _, g := range gens {
		if g.Result == "promoted" {
			s.Promoted++
		}
	}
	return s, nil
}

// Figures is the learning curve.
func (s *LoopStudy) Figures() []Figure {
	c := s.Settings
	anchor := s.Provenance.Config.AnchorName()
	var parts []string
	for _, g := range s.Generations[1:] {
		part := fmt.Sprintf("generation %d: held-out loss %.3f to %.3f, gate %d-%d-%d (%s)", g.N, float64(g.StartHeldLoss), float64(g.HeldLoss),
			g.Gate.Wins, g.Gate.Draws, g.Gate.Losses, g.Result)
		if a := g.Anchor; a != nil && !a.Exact {
			part += ", against the anchor " + eloInterval(a)
		}
		parts = append(parts, part)
	}
	initial := "the built-in network"
	if c.Initial != "builtin" {
		initial = "the network " + filepath.Base(c.Initial)
	}
	caption := fmt.Sprintf("The self-play learning loop (package train/loop) from %s, %d generations, run datasets/loop/run1 (made by `go run ./cmd/train loop`; `go run ./cmd/train curve datasets/loop/run1` prints the points): the Elo of the best network after each generation against %s, in matches of %d games (game pairs from the 100 balanced openings) at %d playouts a move, with 95%% intervals; generation 0 is the initial network. Each generation played %d self-play games at %d playouts (noise %g, %d plies drawn by visits), fitted a candidate from the best's weights to the last %d generations' games, and gated it against the best at %d playouts (SPRT %s, at most %d games); %d of %d candidates were promoted. %s.",
		initial, len(s.Generations)-1, anchor, c.AnchorGames, c.AnchorPlayouts, c.Games, c.Playouts, c.Noise, c.TemperaturePlies, c.Window,
		c.GatePlayouts, c.SPRT, c.GateGames, s.Promoted, len(s.Generations)-1, capitalize(strings.Join(parts, "; ")))
	return []Figure{{Name: "loop_curve", Caption: caption, Draw: func() (*figure.Plot, error) { return loop.PlotCurve(s.Curve, anchor) }}}
}

// run1Settings are the settings of a loop run from before the ladder.
type run1Settings struct {
	Initial          string    `json:"initial"`
	Games            int       `json:"games"`
	Playouts         int       `json:"playouts"`
	Noise            float64   `json:"noise"`
	TemperaturePlies int       `json:"temperature_plies"`
	Window           int       `json:"window"`
	GatePlayouts     int       `json:"gate_playouts"`
	GateGames        int       `json:"gate_games"`
	SPRT             sprt.Test `json:"sprt"`
	AnchorPlayouts   int       `json:"anchor_playouts"`
	AnchorGames      int       `json:"anchor_games"`
}

// eloInterval is an Elo with its 95% interval, "+12 [-30, +54]".
func eloInterval(m *loop.MatchResult) string {
	f := func(x loop.Num) string {
		if math.IsNaN(float64(x)) {
			return "unbounded"
		}
		return fmt.Sprintf("%+.0f", float64(x))
	}
	return fmt.Sprintf("%s [%s, %s] Elo", f(m.Elo), f(m.Low), f(m.High))
}
