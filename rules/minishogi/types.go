package minishogi

import (
	"math/bits"
	"strconv"
)

// Color is a side: Sente (Black, moves first in an even game, uppercase in SFEN)
// or Gote (White, lowercase).
type Color uint8

const (
	Sente Color = 0
	Gote  Color = 1
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

func (c Color) String() string {
	if c == Sente {
		return "sente"
	}
	return "gote"
}

// PieceType is a kind of piece, without its owner. The unpromoted types that can be
// held in hand come first, so that a hand is indexed by PieceType directly.
type PieceType uint8

const (
	NoPieceType PieceType = iota
	Pawn
	Silver
	Gold
	Bishop
	Rook
	King
	Tokin     // promoted pawn, moves as a gold
	ProSilver // promoted silver, moves as a gold
	Horse     // promoted bishop: bishop plus one orthogonal step
	Dragon    // promoted rook: rook plus one diagonal step

	numPieceTypes = 11
)

// HandTypes lists the piece types that can be held in hand, in SFEN order.
var HandTypes = [...]PieceType{Rook, Bishop, Gold, Silver, Pawn}

// SetCount is how many pieces of each unpromoted kind a Minishogi set has (one per side).
const SetCount = 2

// CanPromote reports whether pt has a promoted form.
func (pt PieceType) CanPromote() bool {
	return pt == Pawn || pt == Silver || pt == Bishop || pt == Rook
}

// Promoted returns the promoted form of pt; pt must be able to promote.
func (pt PieceType) Promoted() PieceType { return promotedOf[pt] }

// Unpromoted returns the kind a piece reverts to when captured.
func (pt PieceType) Unpromoted() PieceType { return unpromotedOf[pt] }

// IsPromoted reports whether pt is a promoted kind.
func (pt PieceType) IsPromoted() bool { return pt >= Tokin }

var promotedOf = [numPieceTypes]PieceType{Pawn: Tokin, Silver: ProSilver, Bishop: Horse, Rook: Dragon}
var unpromotedOf = [numPieceTypes]PieceType{
	Pawn: Pawn, Silver: Silver, Gold: Gold, Bishop: Bishop, Rook: Rook, King: King,
	Tokin: Pawn, ProSilver: Silver, Horse: Bishop, Dragon: Rook,
}

// sfenLetters holds the SFEN letter of each unpromoted kind (promoted kinds use '+' and the
// letter of the kind they came from).
const sfenLetters = " PSGBRK"

func (pt PieceType) String() string {
	if pt == NoPieceType || pt >= numPieceTypes {
		return "?"
	}
	s := string(sfenLetters[pt.Unpromoted()])
	if pt.IsPromoted() {
		s = "+" + s
	}
	return s
}

// Piece is a piece with its owner; the zero Piece is an empty square.
type Piece uint8

const NoPiece Piece = 0

// NewPiece returns the piece of kind pt owned by c.
func NewPiece(c Color, pt PieceType) Piece { return Piece(pt) | Piece(c)<<4 }

// Type returns the piece's kind.
func (p Piece) Type() PieceType { return PieceType(p & 15) }

// Color returns the piece's owner.
func (p Piece) Color() Color { return Color(p >> 4) }

// String returns the SFEN spelling: uppercase for Sente, lowercase for Gote, "+" for promoted.
func (p Piece) String() string {
	if p == NoPiece {
		return "."
	}
	s := []byte(p.Type().String())
	if p.Color() == Gote {
		s[len(s)-1] += 'a' - 'A'
	}
	return string(s)
}

// Square is one of the 25 squares, numbered row by row from Gote's home rank:
// 0 is 5a (Sente's top-left), 4 is 1a, 20 is 5e, 24 is 1e.
type Square int8

const (
	NumSquares = 25
	NoSquare   = Square(-1)
)

// NewSquare returns the square on file (5..1, USI numbering) and rank (0..4 for a..e).
func NewSquare(file, rank int) Square { return Square(rank*5 + (5 - file)) }

// File returns the USI file number 5..1.
func (s Square) File() int { return 5 - int(s)%5 }

// Rank returns the rank index 0..4 (a..e).
func (s Square) Rank() int { return int(s) / 5 }

func (s Square) String() string {
	if s < 0 || s >= NumSquares {
		return "??"
	}
	return strconv.Itoa(s.File()) + string(rune('a'+s.Rank()))
}

// Bitboard is a set of squares, bit i for Square i.
type Bitboard uint32

const fullBoard Bitboard = 1<<NumSquares - 1

func (b Bitboard) Has(s Square) bool { return b&(1<<uint(s)) != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount32(uint32(b)) }

// First returns the lowest square in b; b must not be empty.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros32(uint32(b))) }

func squareBB(s Square) Bitboard { return 1 << uint(s) }

// Move is a move packed in 16 bits: bits 0-4 the destination, bits 5-9 the origin square
// (or, for a drop, the dropped piece type), bit 10 promotion, bit 11 drop.
type Move uint16

const (
	NoMove     Move = 0
	movePromo  Move = 1 << 10
	moveIsDrop Move = 1 << 11
)

// NewMove returns a board move.
func NewMove(from, to Square, promote bool) Move {
	m := Move(to) | Move(from)<<5
	if promote {
		m |= movePromo
	}
	return m
}

// NewDrop returns a drop of a hand piece of kind pt on to.
func NewDrop(pt PieceType, to Square) Move { return Move(to) | Move(pt)<<5 | moveIsDrop }

func (m Move) To() Square              { return Square(m & 31) }
func (m Move) From() Square            { return Square(m >> 5 & 31) }
func (m Move) IsDrop() bool            { return m&moveIsDrop != 0 }
func (m Move) IsPromotion() bool       { return m&movePromo != 0 }
func (m Move) DropType() PieceType     { return PieceType(m >> 5 & 31) }
func (m Move) withPromotion() Move     { return m | movePromo }
func (m Move) sameSquares(o Move) bool { return m&^movePromo == o&^movePromo }

// String returns the move in USI notation: 5d5c, 2b1a+, P*3c.
func (m Move) String() string {
	if m == NoMove {
		return "none"
	}
	if m.IsDrop() {
		return m.DropType().String() + "*" + m.To().String()
	}
	s := m.From().String() + m.To().String()
	if m.IsPromotion() {
		s += "+"
	}
	return s
}
