package paper

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/analysis/ladder"
	"github.com/shogilab/shogilab/analysis/learning"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/train/loop"
)

// LoopRun is the shipped self-play learning loop (path below the repository root): its
// loop.jsonl and provenance.json, as `train loop` wrote them; datasets/README.md has the
// command.
const LoopRun = "datasets/loop/run1"

// ZeroRun is the shipped loop run from zero (the hand-set evaluation and priors, nothing
// learned from fairy-stockfish), each generation rated on the ladder.
const ZeroRun = "datasets/loop/zero"

// FittedPlayer is the network fitted to fairy-stockfish's games (fsf5000-64x16-p8, with the
// policy head of issue 31; the built-in one until the run from zero's generation 40
// replaced it) at 1,000 playouts, as its shipped gauntlet against the ladder's anchors names
// it (datasets/ladder/gauntlet): what the run from zero set out to overtake.
const FittedPlayer = "shogilab-p8-1k"

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

	// Zero is the run from zero's curve on the ladder, ZeroConfig its configuration, and
	// Fitted the place of the network fitted to fairy-stockfish's games on the same ladder,
	// from its gauntlet.
	Zero       []learning.Point
	ZeroConfig loop.Config
	// ZeroWindows is its replay window's schedule, if a resume grew the window.
	ZeroWindows []loop.WindowChange
	Fitted      ladder.Rating
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
	zero := filepath.Join(root, ZeroRun)
	if s.Zero, err = learning.Read(zero); err != nil {
		return nil, fmt.Errorf("paper: loop: %w", err)
	}
	zp, err := loop.ReadProvenance(zero)
	if err != nil {
		return nil, fmt.Errorf("paper: loop: %w", err)
	}
	s.ZeroConfig, s.ZeroWindows = zp.Config, zp.Windows
	l, err := ladder.ReadFile(filepath.Join(root, s.ZeroConfig.Rate.Ladder))
	if err != nil {
		return nil, fmt.Errorf("paper: loop: %w", err)
	}
	gauntlet, err := filepath.Glob(filepath.Join(root, "datasets/ladder/gauntlet", FittedPlayer+"-vs-*", "*.jsonl.gz"))
	if err == nil && len(gauntlet) == 0 {
		err = fmt.Errorf("no gauntlet of %s in datasets/ladder/gauntlet", FittedPlayer)
	}
	if err != nil {
		return nil, fmt.Errorf("paper: loop: %w", err)
	}
	g := l.NewGauntlet(FittedPlayer)
	if _, err := selection.Stream(gauntlet, selection.Filter{}, selection.Options{Fields: record.FieldID | record.FieldPlayers | record.FieldResult}, g.Add); err != nil {
		return nil, fmt.Errorf("paper: loop: %w", err)
	}
	if s.Fitted, err = g.Rate(); err != nil {
		return nil, fmt.Errorf("paper: loop: %w", err)
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
	figs := []Figure{{Name: "loop_curve", Caption: caption, Draw: func() (*figure.Plot, error) { return loop.PlotCurve(s.Curve, anchor) }}}
	return append(figs, s.zeroFigures()...)
}

// zeroFigures are the run from zero's learning curve, against CPU-hours and against games.
func (s *LoopStudy) zeroFigures() []Figure {
	c := s.ZeroConfig
	last := s.Zero[len(s.Zero)-1]
	var parts []string
	for _, p := range s.Zero {
		if math.IsNaN(p.Elo) {
			continue
		}
		parts = append(parts, fmt.Sprintf("generation %d %s", p.Generation, eloRange(p.Elo, p.Low, p.High)))
	}
	gate := "every candidate became the best (no gate, as in AlphaZero)"
	if c.GateGames > 0 {
		gate = fmt.Sprintf("a candidate became the best on an SPRT's H1 (%s, at most %d games at %d playouts)", c.SPRT, c.GateGames, c.GatePlayouts)
	}
	sp := c.SelfPlay
	ref := learning.Reference{Label: "the network fitted to fairy-stockfish's games", Elo: s.Fitted.Elo}
	fittedGames := 0
	for _, x := range s.Fitted.Results {
		fittedGames += x.Wins + x.Draws + x.Losses
	}
	caption := func(axis string) string {
		return fmt.Sprintf("The self-play learning loop from zero (package train/loop), run %s (made by `go run ./cmd/train loop`, the command in its provenance.json; `go run ./cmd/train curve %s` prints the points): the Elo on the rating ladder (datasets/ladder, fsf-1k = 0) of each generation's network at %d playouts, from a gauntlet of %d games against each of %s, with 95%% likelihood intervals, against %s; generation 0 is the hand-set evaluation and priors, nothing learned from fairy-stockfish. The level line is the network fitted to fairy-stockfish's games (fsf5000-64x16-p8, the built-in one until generation 40 replaced it) at the same playouts on the same ladder (%s, from its gauntlet of %d games in datasets/ladder/gauntlet: %s). Each generation played %d self-play games at %d playouts (Gumbel root sampling %d moves, playout cap randomization: a share %g of moves searched in full and used as policy targets, the others at %d playouts), fitted a candidate to a replay window of %s, and %s. %d generations: %d games, %d positions, %.2f CPU-hours of self-play and fits. %s.",
			ZeroRun, ZeroRun, c.Rate.Playouts, c.Rate.Games, strings.Join(c.Rate.Anchors, ", "), axis, FittedPlayer, fittedGames, eloRange(s.Fitted.Elo, s.Fitted.Low, s.Fitted.High),
			sp.Games, sp.Playouts, sp.GumbelMoves, sp.CapProb, sp.CapFast, windowText(c.WindowPositions, s.ZeroWindows), gate,
			last.Generation, last.Games, last.Positions, last.CPUHours, capitalize(strings.Join(parts, "; ")))
	}
	return []Figure{
		{Name: "loop_zero_cpu", Caption: caption("the cumulative CPU-hours of self-play and fits"), Draw: func() (*figure.Plot, error) {
			return learning.Plot(s.Zero, learning.ByCPUHours, ref)
		}},
		{Name: "loop_zero_games", Caption: caption("the cumulative self-play games"), Draw: func() (*figure.Plot, error) {
			return learning.Plot(s.Zero, learning.ByGames, ref)
		}},
	}
}

// windowText says what the replay window held: "the latest 100000 positions", or with a
// schedule "the latest 100000 positions (generations 1 to 20), then 1000000 (from 21)".
func windowText(positions int, schedule []loop.WindowChange) string {
	if len(schedule) == 0 {
		return fmt.Sprintf("the latest %d positions", positions)
	}
	var parts []string
	for i, w := range schedule {
		span := fmt.Sprintf("from generation %d", w.From)
		if i+1 < len(schedule) {
			span = fmt.Sprintf("generations %d to %d", w.From, schedule[i+1].From-1)
		}
		parts = append(parts, fmt.Sprintf("%d positions (%s)", w.Positions, span))
	}
	return "the latest " + strings.Join(parts, ", then ")
}

// eloRange is an Elo with its 95% interval, "+243 [+175, +311]"; an open end is "unbounded".
func eloRange(elo, low, high float64) string {
	f := func(x float64) string {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "unbounded"
		}
		return fmt.Sprintf("%+.0f", x)
	}
	return fmt.Sprintf("%s [%s, %s]", f(elo), f(low), f(high))
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

// eloInterval is a match's Elo with its 95% interval, "+12 [-30, +54] Elo".
func eloInterval(m *loop.MatchResult) string {
	return eloRange(float64(m.Elo), float64(m.Low), float64(m.High)) + " Elo"
}
