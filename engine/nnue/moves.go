package nnue

import ms "github.com/shogilab/shogilab/rules/minishogi"

// The move feature set "moves-5x5": what the policy head knows of a legal move. A move is a
// handful of active features, each a row of the head's move table (Policy.E, with a bias
// in Policy.C), and its logit is the sum over its rows of the bias and the row dotted with
// the head's hidden layer (Model gives the formula). Squares are seen from the mover's side
// of the board, turned 180 degrees for Gote as the position features are (features.go), so
// both sides share one table. The rows, in table order:
//
//	move       1375  a board move by its from-square, to-square and promotion,
//	                 from·25 + to (+625 if it promotes); a drop by its kind and square,
//	                 1250 + (kind−pawn)·25 + to (kinds pawn, silver, gold, bishop, rook)
//	piece-to    250  the piece as it stands after the move (its kind, promoted or not, of
//	                 the ten of features.go) and its to-square: kind·25 + to
//	capture       9  the kind of the piece taken (never a king), if the move captures
//	check         1  the move gives check
//	threat       20  the to-square is attacked by the opponent: the piece's kind after the
//	                 move, and whether another of the mover's pieces defends the square:
//	                 2·kind + defended
//	escape       10  a board move from a square the opponent attacks: the mover's kind
//
// "Attacked" and "defended" are read in the position before the move, as the hand-set
// priors read them (engine/eval): the move, the piece, the capture and the check are the
// facts a hand-set prior weighs, here each with a weight that depends on the position
// through the hidden layer. A move has 2 to 6 active features (MaxMoveActive).
const (
	// MoveFeatureSet names the move features in evaluation files.
	MoveFeatureSet = "moves-5x5"

	moveRows    = 2*ms.NumSquares*ms.NumSquares + 5*ms.NumSquares
	pieceToRows = boardKinds * ms.NumSquares
	captureRows = boardKinds - 1
	threatRows  = 2 * boardKinds
	escapeRows  = boardKinds

	pieceToBase = moveRows
	captureBase = pieceToBase + pieceToRows
	checkRow    = captureBase + captureRows
	threatBase  = checkRow + 1
	escapeBase  = threatBase + threatRows

	// NumMoveFeatures is the rows of the move table: 1665.
	NumMoveFeatures = escapeBase + escapeRows
	// MaxMoveActive bounds a move's active features.
	MaxMoveActive = 6
)

// dropBase is the first move row of a drop.
const dropBase = 2 * ms.NumSquares * ms.NumSquares

// MoveContext is what the move features read of one position beyond the move itself: the
// squares the opponent attacks and the check test, paid once per position and shared by
// its moves. The position must not change while the context is in use.
type MoveContext struct {
	pos    *ms.Position
	us     ms.Color
	occ    ms.Bitboard
	byThem ms.Bitboard
	checks ms.CheckTest
}

// NewMoveContext returns the move context of pos, for its side to move.
func NewMoveContext(pos *ms.Position) MoveContext {
	us := pos.SideToMove()
	them := us.Opponent()
	occ := pos.Occupied()
	var by ms.Bitboard
	for b := pos.ColorPieces(them); b != 0; b &= b - 1 {
		s := b.First()
		by |= ms.PieceAttacks(pos.PieceAt(s).Type(), them, s, occ)
	}
	return MoveContext{pos: pos, us: us, occ: occ, byThem: by, checks: pos.NewCheckTest()}
}

// MoveFeatures appends the active features of m, a legal move of the context's position,
// to dst and returns them, with whether m gives check (the search's mate search wants the
// checks, and this is where they are found).
func (c *MoveContext) MoveFeatures(m ms.Move, dst []int32) ([]int32, bool) {
	us := c.us
	to := m.To()
	oto := orient(to, us)
	var after ms.PieceType
	left := ms.Bitboard(0) // the square the mover leaves, which defends nothing after
	if m.IsDrop() {
		after = m.DropType()
		dst = append(dst, dropBase+int32(after-ms.Pawn)*ms.NumSquares+oto)
	} else {
		from := m.From()
		mover := c.pos.PieceAt(from).Type()
		after = mover
		row := orient(from, us)*ms.NumSquares + oto
		if m.IsPromotion() {
			after = mover.Promoted()
			row += ms.NumSquares * ms.NumSquares
		}
		dst = append(dst, row)
		if captured := c.pos.PieceAt(to); captured != ms.NoPiece {
			dst = append(dst, captureBase+kindIndex[captured.Type()])
		}
		if c.byThem.Has(from) {
			dst = append(dst, escapeBase+kindIndex[mover])
		}
		left = 1 << uint(from)
	}
	dst = append(dst, pieceToBase+kindIndex[after]*ms.NumSquares+oto)
	check := c.checks.GivesCheck(m)
	if check {
		dst = append(dst, checkRow)
	}
	if c.byThem.Has(to) {
		defended := int32(0)
		if c.pos.Attackers(to, us, c.occ)&^left != 0 {
			defended = 1
		}
		dst = append(dst, threatBase+2*kindIndex[after]+defended)
	}
	return dst, check
}

// MoveFeatures returns the active features of each of moves, legal moves of pos, as a
// trainer wants them (one slice per move).
func MoveFeatures(pos *ms.Position, moves []ms.Move) [][]int32 {
	c := NewMoveContext(pos)
	out := make([][]int32, len(moves))
	for i, m := range moves {
		out[i], _ = c.MoveFeatures(m, make([]int32, 0, MaxMoveActive))
	}
	return out
}
