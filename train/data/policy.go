package data

import (
	"fmt"

	"github.com/shogilab/shogilab/record/table"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// PolicyExample is one searched position and where its search went: the legal moves and
// the share of the root's visits each received. Records keep only the most visited moves
// (selfplay.TopMoves); the other legal moves count as unvisited.
type PolicyExample struct {
	Pos   ms.Position
	Moves []ms.Move
	// Share is each move's share of the recorded visits (summing to 1), by Moves' index.
	Share []float32
}

// PolicySet is the searched positions of some record files, split as Load splits them.
type PolicySet struct {
	Train, Held []PolicyExample
	Games       int    // games read
	Positions   int    // positions read
	Skipped     int    // positions without visits, or with fewer than two legal moves
	Digest      string // SHA-256 of the files' bytes, in order
}

// Describe is a one-line account of the set.
func (s *PolicySet) Describe() string {
	return fmt.Sprintf("%d games, %d positions, %d searched for training, %d held out; sha256 %s",
		s.Games, s.Positions, len(s.Train), len(s.Held), s.Digest)
}

// LoadPolicy reads the searched positions of the record files or tables at paths: every
// position whose mover recorded the visits of its most visited moves. Each occurrence is
// an example (the searches of one position differ). Games are held out by their id as in
// Load; Options.Mirror is ignored.
func LoadPolicy(paths []string, o Options) (*PolicySet, error) {
	digest, err := checkAndDigest(paths, o)
	if err != nil {
		return nil, err
	}
	s := &PolicySet{Digest: digest}
	lastGame := -1
	err = table.Positions(paths, func(p *table.Position) error {
		if p.Game != lastGame || p.Ply == 0 {
			s.Games++
			lastGame = p.Game
		}
		s.Positions++
		if o.MaxPly > 0 && p.Ply >= o.MaxPly {
			return nil
		}
		if p.Stats == nil || len(p.Stats.Top) == 0 {
			s.Skipped++
			return nil
		}
		pos, err := ms.ParseSFEN(p.SFEN)
		if err != nil {
			return fmt.Errorf("data: game %d ply %d: %w", p.Game, p.Ply, err)
		}
		moves := pos.LegalMoves(nil)
		if len(moves) < 2 {
			s.Skipped++
			return nil
		}
		ex := PolicyExample{Pos: pos, Moves: moves, Share: make([]float32, len(moves))}
		var total int64
		for _, t := range p.Stats.Top {
			m, err := pos.ParseMove(t.Move)
			if err != nil {
				return fmt.Errorf("data: game %d ply %d: top move: %w", p.Game, p.Ply, err)
			}
			for i := range moves {
				if moves[i] == m {
					ex.Share[i] += float32(t.Visits)
				}
			}
			total += t.Visits
		}
		if total <= 0 {
			s.Skipped++
			return nil
		}
		for i := range ex.Share {
			ex.Share[i] /= float32(total)
		}
		if heldOut(p.Game, o.HeldOut) {
			s.Held = append(s.Held, ex)
		} else {
			s.Train = append(s.Train, ex)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}
