package minishogi

// Position is a Minishogi position: the board, both hands, the side to move and the move
// number, with bitboards and a Zobrist hash kept up to date by MakeMove and UnmakeMove.
// The zero Position is not valid; get one from StartPosition, ParseSFEN or Handicap.
// A Position is a value: copying it copies the whole position.
type Position struct {
	board   [NumSquares]Piece
	byType  [numPieceTypes]Bitboard // both colours
	byColor [2]Bitboard
	hand    [2][numPieceTypes]uint8 // indexed by unpromoted PieceType
	king    [2]Square
	stm     Color
	moveNum int
	hash    uint64
}

// StartSFEN is the standard Minishogi start position.
const StartSFEN = "rbsgk/4p/5/P4/KGSBR b - 1"

// StartPosition returns the standard start position.
func StartPosition() Position {
	p, err := ParseSFEN(StartSFEN)
	if err != nil {
		panic(err)
	}
	return p
}

// SideToMove returns the side whose turn it is.
func (p *Position) SideToMove() Color { return p.stm }

// MoveNumber returns the SFEN move number (1 for the first move of a game).
func (p *Position) MoveNumber() int { return p.moveNum }

// Hash returns the Zobrist hash of board, hands and side to move.
func (p *Position) Hash() uint64 { return p.hash }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// Hand returns how many pieces of kind pt side c holds.
func (p *Position) Hand(c Color, pt PieceType) int { return int(p.hand[c][pt]) }

// KingSquare returns the square of c's king.
func (p *Position) KingSquare(c Color) Square { return p.king[c] }

// Occupied returns the occupied squares.
func (p *Position) Occupied() Bitboard { return p.byColor[Sente] | p.byColor[Gote] }

// Pieces returns the squares of c's pieces of kind pt.
func (p *Position) Pieces(c Color, pt PieceType) Bitboard { return p.byType[pt] & p.byColor[c] }

// ColorPieces returns the squares of all of c's pieces.
func (p *Position) ColorPieces(c Color) Bitboard { return p.byColor[c] }

// goldMovers returns the squares of pieces that move as a gold.
func (p *Position) goldMovers() Bitboard {
	return p.byType[Gold] | p.byType[Tokin] | p.byType[ProSilver]
}

// Attackers returns the squares of c's pieces that attack s when the board's occupancy is occ.
// It uses the symmetry of piece moves: a piece of colour c on x attacks s exactly when a
// piece of the same kind and the other colour on s would attack x.
func (p *Position) Attackers(s Square, c Color, occ Bitboard) Bitboard {
	them := c.Opponent()
	a := pawnAttacks[them][s]&p.byType[Pawn] |
		silverAttacks[them][s]&p.byType[Silver] |
		goldAttacks[them][s]&p.goldMovers() |
		kingAttacks[s]&(p.byType[King]|p.byType[Horse]|p.byType[Dragon])
	if r := rookPseudo[s] & (p.byType[Rook] | p.byType[Dragon]) & p.byColor[c]; r != 0 {
		a |= rookAttacks(s, occ) & r
	}
	if b := bishopPseudo[s] & (p.byType[Bishop] | p.byType[Horse]) & p.byColor[c]; b != 0 {
		a |= bishopAttacks(s, occ) & b
	}
	return a & p.byColor[c]
}

// IsAttacked reports whether c attacks s.
func (p *Position) IsAttacked(s Square, c Color) bool {
	return p.Attackers(s, c, p.Occupied()) != 0
}

// Checkers returns the squares of the pieces that give check to the side to move.
func (p *Position) Checkers() Bitboard {
	return p.Attackers(p.king[p.stm], p.stm.Opponent(), p.Occupied())
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool { return p.Checkers() != 0 }

// pinned returns c's pieces that may not leave the line between c's king and an enemy slider.
func (p *Position) pinned(c Color) Bitboard { return p.loneBlockers(p.king[c], c.Opponent(), c) }

// loneBlockers returns the pieces of colour owner that stand alone between the square k and
// a slider of colour sliders that sees k along an empty line otherwise. With k a king and
// sliders the enemy, they are the king's pinned pieces; with k the enemy king and sliders
// and owner both the mover, the pieces whose move may uncover a check.
func (p *Position) loneBlockers(k Square, sliders, owner Color) Bitboard {
	snipers := (rookPseudo[k]&(p.byType[Rook]|p.byType[Dragon]) |
		bishopPseudo[k]&(p.byType[Bishop]|p.byType[Horse])) & p.byColor[sliders]
	occ := p.Occupied()
	var found Bitboard
	for ; snipers != 0; snipers &= snipers - 1 {
		b := between[k][snipers.First()] & occ
		if b != 0 && b&(b-1) == 0 {
			found |= b & p.byColor[owner]
		}
	}
	return found
}

// put and remove change a square and the hash with it; set and clear change only the square,
// for UnmakeMove, which restores the hash whole.
func (p *Position) put(pc Piece, s Square) {
	p.set(pc, s)
	p.hash ^= zobristPiece[pc.Color()][pc.Type()][s]
}

func (p *Position) remove(s Square) {
	pc := p.clear(s)
	p.hash ^= zobristPiece[pc.Color()][pc.Type()][s]
}

func (p *Position) set(pc Piece, s Square) {
	p.board[s] = pc
	p.byType[pc.Type()] |= squareBB(s)
	p.byColor[pc.Color()] |= squareBB(s)
	if pc.Type() == King {
		p.king[pc.Color()] = s
	}
}

func (p *Position) clear(s Square) Piece {
	pc := p.board[s]
	p.board[s] = NoPiece
	p.byType[pc.Type()] &^= squareBB(s)
	p.byColor[pc.Color()] &^= squareBB(s)
	return pc
}

func (p *Position) addHand(c Color, pt PieceType, delta int) {
	n := p.hand[c][pt]
	p.hash ^= zobristHand[c][pt][n]
	n = uint8(int(n) + delta)
	p.hand[c][pt] = n
	p.hash ^= zobristHand[c][pt][n]
}

// computeHash returns the Zobrist hash computed from scratch; the incremental hash must equal it.
func (p *Position) computeHash() uint64 {
	var h uint64
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != NoPiece {
			h ^= zobristPiece[pc.Color()][pc.Type()][s]
		}
	}
	for c := Sente; c <= Gote; c++ {
		for _, pt := range HandTypes {
			h ^= zobristHand[c][pt][p.hand[c][pt]]
		}
	}
	if p.stm == Gote {
		h ^= zobristGote
	}
	return h
}
