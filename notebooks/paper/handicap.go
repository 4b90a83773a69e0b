package paper

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/solver"
)

// The paper's handicap question and its shipped proof (path below the repository root; the
// command that wrote it is in datasets/README.md).
const (
	Handicap      = "bare-king"
	HandicapProof = "datasets/handicap/bare-king.proof"
	// HandicapMaxPlies bounds the mate search, as solve handicap does by default.
	HandicapMaxPlies = 21
	// HandicapStudyPlies is the depth of the reachable-graph study: the mate's length, so the
	// graph holds the whole solution.
	HandicapStudyPlies = 8
)

// HandicapStudy is the bare-king section: the shortest forced mate found by df-pn, the
// shipped proof re-checked with the rules engine, and the graph reachable within the mate's
// length.
type HandicapStudy struct {
	Root     minishogi.Position
	Attacker minishogi.Color
	// Mate is the df-pn answer, with its principal variation (the defender's longest defence).
	Mate *solver.DFPN
	// Proof is the shipped proof, which CheckProof accepted for Root.
	Proof      *solver.Proof
	ProofPlies int // the mate length the proof file states
	Study      *solver.Study
}

// NewHandicapStudy solves the bare-king handicap, reads and re-checks the shipped proof under
// root, and studies the reachable graph.
func NewHandicapStudy(root string) (*HandicapStudy, error) {
	pos, err := minishogi.Handicap(Handicap)
	if err != nil {
		return nil, fmt.Errorf("paper: %w", err)
	}
	s := &HandicapStudy{Root: pos, Attacker: minishogi.Sente}
	if s.Mate, err = solver.SolveDFPN(pos, s.Attacker, solver.DFPNOptions{MaxPlies: HandicapMaxPlies}); err != nil {
		return nil, fmt.Errorf("paper: handicap: %w", err)
	}
	if !s.Mate.Found {
		return nil, fmt.Errorf("paper: handicap: no forced mate within %d plies", HandicapMaxPlies)
	}
	path := filepath.Join(root, HandicapProof)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("paper: %w", err)
	}
	defer f.Close()
	proofRoot, attacker, proof, err := solver.ReadProof(f)
	if err != nil {
		return nil, fmt.Errorf("paper: %s: %w", path, err)
	}
	if proofRoot.SFEN() != pos.SFEN() || attacker != s.Attacker {
		return nil, fmt.Errorf("paper: %s: proves a mate from %s for %v, not from the %s start for Sente", path, proofRoot.SFEN(), attacker, Handicap)
	}
	if err := solver.CheckProof(pos, proof); err != nil {
		return nil, fmt.Errorf("paper: %s does not hold: %w", path, err)
	}
	s.Proof = proof
	s.ProofPlies = proof.Plies
	s.Study = solver.StudyGraph(pos, s.Attacker, HandicapStudyPlies)
	return s, nil
}

// PV is the principal variation in USI notation.
func (s *HandicapStudy) PV() []string {
	var pv []string
	for _, m := range s.Mate.PV {
		pv = append(pv, m.String())
	}
	return pv
}

// Figures are the reachable graph by ply with its forced mates, and the positions by distance
// to mate.
func (s *HandicapStudy) Figures() []Figure {
	st := s.Study
	title := "Bare-king handicap (" + s.Root.SFEN() + ")"
	solution := fmt.Sprintf("Sente mates in %d plies against the best defence (df-pn, minimal length proved by iterative deepening; the shipped proof of %d attacker positions re-checked with the rules engine); principal variation %s",
		s.Mate.Plies, len(s.Proof.Moves), strings.Join(s.PV(), " "))
	total, mates := 0, 0
	for d := range st.Layers {
		total += st.Layers[d]
		mates += st.MatesByLayer[d]
	}
	layers := logFigure("handicap_layers",
		fmt.Sprintf("The Minishogi bare-king handicap: positions first reached at each ply from the start (Gote, the bare king, moves first) within %d plies, and those from which Sente forces mate within the graph. %s. Positions per ply: %s (%s in all, %s with a forced mate found in the graph).",
			st.Plies, solution, joinInts(st.Layers), thousands(total), thousands(mates)),
		figure.Chart{Title: title + ": positions per ply", XLabel: "ply from the start", YLabel: "positions (log scale)",
			Series: []figure.Series{
				{Label: "reachable", Kind: figure.Line, XYs: positiveXYs(st.Layers)},
				{Label: "Sente forces mate (found in the graph)", Kind: figure.Line, XYs: positiveXYs(st.MatesByLayer)},
			}})
	distances := logFigure("handicap_distances",
		fmt.Sprintf("The Minishogi bare-king handicap: positions of the %d-ply reachable graph by the length of Sente's forced mate against the longest defence, found within the graph (exact where the graph holds the whole mate). Positions by plies to mate, from 0: %s.",
			st.Plies, joinInts(st.MatesByDistance)),
		figure.Chart{Title: fmt.Sprintf("%s: forced mates in the %d-ply graph", title, st.Plies), XLabel: "plies to mate", YLabel: "positions (log scale)",
			Series: []figure.Series{{Label: "positions", Kind: figure.Line, XYs: positiveXYs(st.MatesByDistance)}}})
	return []Figure{layers, distances}
}

// logFigure draws c with a logarithmic y axis: the counts grow geometrically with the ply.
func logFigure(name, caption string, c figure.Chart) Figure {
	return Figure{Name: name, Caption: caption, Draw: func() (*plot.Plot, error) {
		p, err := c.Plot()
		if err != nil {
			return nil, err
		}
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		return p, nil
	}}
}

// positiveXYs are the points (i, counts[i]) with a positive count, which a log axis can show.
func positiveXYs(counts []int) plotter.XYs {
	var xys plotter.XYs
	for i, n := range counts {
		if n > 0 {
			xys = append(xys, plotter.XY{X: float64(i), Y: float64(n)})
		}
	}
	return xys
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = thousands(x)
	}
	return strings.Join(s, ", ")
}
