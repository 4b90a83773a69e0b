package notation

import (
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// JapaneseMove writes m, a legal move of pos, as a KIF move line writes it: ２四銀(25),
// ２一角成(55), ３三歩打, or 同　銀(34) when it captures on lastTo, the square the previous
// move went to (minishogi.NoSquare when there is none).
func JapaneseMove(pos *minishogi.Position, m minishogi.Move, lastTo minishogi.Square) string {
	st := step{mover: pos.SideToMove(), move: m}
	if m.IsDrop() {
		st.piece = m.DropType()
	} else {
		st.piece = pos.PieceAt(m.From()).Type()
	}
	return kifMove(st, lastTo)
}

// JapaneseMoves writes every move of g as JapaneseMove does, replaying them with the rules (a
// move that is not legal is an error).
func JapaneseMoves(g *record.Game) ([]string, error) {
	_, steps, err := replay(g)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(steps))
	last := minishogi.NoSquare
	for i, st := range steps {
		out[i] = kifMove(st, last)
		last = st.move.To()
	}
	return out, nil
}

// BoardName is the one-character name of a piece kind in a board diagram (KIF's): 歩 銀 金 角
// 飛 玉, and と 全 馬 龍 for the promoted kinds.
func BoardName(pt minishogi.PieceType) string { return kifBoardNames[pt] }
