package notation

import (
	"fmt"
	"strings"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// step is one move as both formats need it: the mover, the move, and the
// kind of piece on its origin before it moved.
type step struct {
	mover minishogi.Color
	move  minishogi.Move
	piece minishogi.PieceType // the moving piece's kind before the move; the dropped kind for a drop
}

// replay plays g's moves and returns the start position and the steps.
func replay(g *record.Game) (minishogi.Position, []step, error) {
	start, err := minishogi.ParseSFEN(g.Start)
	if err != nil {
		return start, nil, fmt.Errorf("notation: game %d: %w", g.ID, err)
	}
	pos := start
	steps := make([]step, 0, len(g.Moves))
	for i, s := range g.Moves {
		m, err := pos.ParseMove(s)
		if err != nil {
			return start, nil, fmt.Errorf("notation: game %d: move %d %s: %w", g.ID, i+1, s, err)
		}
		st := step{mover: pos.SideToMove(), move: m}
		if m.IsDrop() {
			st.piece = m.DropType()
		} else {
			st.piece = pos.PieceAt(m.From()).Type()
		}
		steps = append(steps, st)
		pos.MakeMove(m)
	}
	return start, steps, nil
}

// loserToMove reports whether the loser of g is the side to move after its
// last move (false for a draw).
func loserToMove(g *record.Game, start minishogi.Position) bool {
	toMove := start.SideToMove()
	if g.Plies%2 == 1 {
		toMove = toMove.Opponent()
	}
	return g.Result != record.Draw && string(g.Result) != toMove.String()
}

// sideMark returns a format's words for the two sides.
func sideMark(c minishogi.Color, sente, gote string) string {
	if c == minishogi.Sente {
		return sente
	}
	return gote
}

func playerName(p record.Player) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, p.Name)
}
