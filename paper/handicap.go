package paper

import (
	"fmt"
	"github.com/shogilab/shogilab/internal/figure"
	"os"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/analysis/matestats"
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
	solution := fmt.Sprintf("Sente mates in %d plies against the best defence (df-pn, minimal length proved by iterative deepening; the shipped proof of %d attacker positions, datasets/handicap/bare-king.proof from `solve handicap bare-king --proof`, re-checked with the rules engine); principal variation %s",
		s.Mate.Plies, len(s.Proof.Moves), strings.Join(s.PV(), " "))
	source := fmt.Sprintf("Graph enumerated and solved by retrograde analysis (package solver, as `go run ./cmd/solve handicap bare-king --out DIR --study-plies %d` does)", st.Plies)
	total, mates := 0, 0
	for d := range st.Layers {
		total += st.Layers[d]
		mates += st.MatesByLayer[d]
	}
	layersChart, distancesChart := matestats.Charts(matestats.Study(*st), "Bare-king handicap", "Sente")
	layers := chartFigure("handicap_layers",
		fmt.Sprintf("The Minishogi bare-king handicap (start %s, Gote, the bare king, to move): positions first reached at each ply from the start within %d plies, and those from which Sente forces mate within that graph (log scale). %s. %s. Positions per ply: %s (%s in all, %s with a forced mate found in the graph).",
			s.Root.SFEN(), st.Plies, source, solution, joinInts(st.Layers), figure.Thousands(total), figure.Thousands(mates)),
		layersChart)
	distances := chartFigure("handicap_distances",
		fmt.Sprintf("The Minishogi bare-king handicap: the positions within %d plies of the start (the graph of handicap_layers) by the length of Sente's forced mate from each, against the longest defence (log scale). The lengths run past %d plies because a position at the graph's last ply may need as many plies again; a mate is found within the graph, so the length is exact where the graph holds the whole mate and an upper bound otherwise. %s. Positions by plies to mate, from 0: %s.",
			st.Plies, st.Plies, source, joinInts(st.MatesByDistance)),
		distancesChart)
	return []Figure{layers, distances}
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = figure.Thousands(x)
	}
	return strings.Join(s, ", ")
}
