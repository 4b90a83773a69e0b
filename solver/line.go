package solver

import (
	"fmt"
	"strings"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// Refutation is one way a claimed mating line fails.
type Refutation struct {
	Ply  int    `json:"ply"`  // the ply of the line where it applies (0: before the first move)
	Kind string `json:"kind"` // "illegal", "not-mate", "escape", "longer-defence" or "shorter-mate"
	// Text says what is wrong in words; Moves is the line of moves that shows it, from the
	// position before move Ply.
	Text  string   `json:"text"`
	Moves []string `json:"moves"`
}

// LineCheck is the verdict on a claimed mating line.
type LineCheck struct {
	Plies       int  // the claimed length: the number of moves in the line
	Mate        bool // the attacker does force mate from the root within Plies plies
	MinimalMate int  // the exact minimal forced mate from the root, or -1 if none within Plies
	Refutations []Refutation
}

// OK reports whether the claim holds: every move legal, the line ends in mate, the attacker
// forces mate in exactly that many plies and every defence in the line is a longest one.
func (lc *LineCheck) OK() bool { return len(lc.Refutations) == 0 }

// CheckLine checks the claim that line (USI moves) is a mate of the attacker from root with
// best play: the moves are legal, the last one mates, no shorter forced mate exists from the
// root or from any later attacker turn of the line, and no defence in the line is beaten by
// another that escapes or lasts longer. Each question is answered exactly with bounded df-pn
// searches sharing one table of at most maxEntries nodes (0: no limit).
func CheckLine(root minishogi.Position, attacker minishogi.Color, line []string, maxEntries int) (*LineCheck, error) {
	lc := &LineCheck{Plies: len(line), MinimalMate: -1}
	positions := []minishogi.Position{root}
	moves := make([]minishogi.Move, 0, len(line))
	p := root
	for i, s := range line {
		m, err := p.ParseMove(s)
		if err != nil {
			lc.Refutations = append(lc.Refutations, Refutation{Ply: i, Kind: "illegal", Text: fmt.Sprintf("move %d: %v", i+1, err)})
			return lc, nil
		}
		p.MakeMove(m)
		positions = append(positions, p)
		moves = append(moves, m)
	}
	ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, maxEntries)
	// minimal returns the exact minimal mate from position i of the line within the plies
	// the line has left, or -1.
	minimal := func(q minishogi.Position, limit int) (int, error) {
		n, ok, err := ms.MinimalMate(q, q.SideToMove() == attacker, limit)
		if err != nil || !ok {
			return -1, err
		}
		return n, nil
	}
	var legal minishogi.MoveList
	last := positions[len(line)]
	last.GenerateLegal(&legal)
	if last.SideToMove() == attacker || legal.N != 0 {
		lc.Refutations = append(lc.Refutations, Refutation{Ply: len(line), Kind: "not-mate", Text: "the line does not end with the defender mated"})
	}
	var err error
	if lc.MinimalMate, err = minimal(root, len(line)); err != nil {
		return nil, fmt.Errorf("solver: check: %w", err)
	}
	lc.Mate = lc.MinimalMate >= 0
	for i := range line {
		q, left := positions[i], len(line)-i
		if q.SideToMove() == attacker {
			d, err := minimal(q, left-1)
			if err != nil {
				return nil, fmt.Errorf("solver: check: %w", err)
			}
			if d >= 0 {
				pv, err := ms.MateLine(q, true, d)
				if err != nil {
					return nil, fmt.Errorf("solver: check: %w", err)
				}
				lc.Refutations = append(lc.Refutations, Refutation{Ply: i, Kind: "shorter-mate",
					Text:  fmt.Sprintf("after %s the attacker mates in %d plies, the line takes %d", describe(moves[:i]), d, left),
					Moves: usi(pv)})
			}
			continue
		}
		// A defender turn: every defence must be mated within left-1 plies, and the line's
		// defence must last longest.
		claimed, err := minimal(positions[i+1], left-1)
		if err != nil {
			return nil, fmt.Errorf("solver: check: %w", err)
		}
		for _, m := range q.LegalMoves(nil) {
			if m == moves[i] {
				continue
			}
			c := q
			c.MakeMove(m)
			d, err := minimal(c, left-1)
			if err != nil {
				return nil, fmt.Errorf("solver: check: %w", err)
			}
			switch {
			case d < 0:
				lc.Refutations = append(lc.Refutations, Refutation{Ply: i, Kind: "escape",
					Text:  fmt.Sprintf("after %s the defence %s is not mated within the %d plies the line has left", describe(moves[:i]), m, left-1),
					Moves: []string{m.String()}})
			case claimed >= 0 && d > claimed:
				pv, err := ms.MateLine(c, true, d)
				if err != nil {
					return nil, fmt.Errorf("solver: check: %w", err)
				}
				lc.Refutations = append(lc.Refutations, Refutation{Ply: i, Kind: "longer-defence",
					Text:  fmt.Sprintf("after %s the defence %s lasts %d plies, the line's %s only %d", describe(moves[:i]), m, d+1, moves[i], claimed+1),
					Moves: append([]string{m.String()}, usi(pv)...)})
			}
		}
	}
	return lc, nil
}

func usi(moves []minishogi.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}

func describe(moves []minishogi.Move) string {
	if len(moves) == 0 {
		return "the root"
	}
	return strings.Join(usi(moves), " ")
}
