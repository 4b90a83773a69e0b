package minishogi

// This file holds only the hot path: legal move generation.

// MaxMoves bounds the number of legal moves in any Minishogi position: at most 5 kinds of
// hand piece on at most 23 empty squares (115 drops) plus the board moves of at most 11
// pieces, each with at most 16 destinations, doubled for promotion choices, is far below it.
const MaxMoves = 256

// MoveList is a fixed-capacity list of moves that lives on the stack of a search.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

// Slice returns the moves as a slice that aliases the list.
func (ml *MoveList) Slice() []Move { return ml.Moves[:ml.N] }

func (ml *MoveList) add(m Move) {
	ml.Moves[ml.N] = m
	ml.N++
}

// addAll adds a move from from to every square of targets, and also the promoting move where
// the piece may promote (a move that starts or ends in the zone).
func (ml *MoveList) addWithOptionalPromotion(from Square, targets, zone Bitboard) {
	fromZone := zone.Has(from)
	for ; targets != 0; targets &= targets - 1 {
		to := targets.First()
		m := NewMove(from, to, false)
		ml.add(m)
		if fromZone || zone.Has(to) {
			ml.add(m.withPromotion())
		}
	}
}

func (ml *MoveList) addPlain(from Square, targets Bitboard) {
	for ; targets != 0; targets &= targets - 1 {
		ml.add(NewMove(from, targets.First(), false))
	}
}

// movable returns the squares of target that the piece on from may move to: all of them,
// or, when the piece is pinned to its king on k, those on the line through both. It is the
// pin rule of GenerateLegal and GenerateChecks in one place.
func movable(from Square, target, pinned Bitboard, k Square) Bitboard {
	if pinned.Has(from) {
		return target & line[k][from]
	}
	return target
}

// evasionTargets returns where a piece other than the king k may move (target) and where a
// piece may be dropped (dropTarget), given the checkers of k: any square not holding a piece
// of ours (an empty one for a drop) when k is not in check, and with one checker only its
// square or a square between it and k (a drop: only between). GenerateLegal, GenerateChecks
// and HasLegalMove share it; under a double check only the king moves, which they test first.
func evasionTargets(k Square, checkers, own, occ Bitboard) (target, dropTarget Bitboard) {
	target, dropTarget = fullBoard&^own, fullBoard&^occ
	if checkers != 0 {
		c := checkers.First()
		target &= checkers | between[k][c]
		dropTarget &= between[k][c]
	}
	return target, dropTarget
}

// pawnDropSquares returns the squares of dropTarget where the side to move may drop a pawn
// (docs/rules.md#legal-moves): not on the last rank, not on a file that holds an unpromoted
// pawn of its own (nifu), and not a drop that mates (uchifuzume; only the square in front of
// the enemy king can give check, so only that one is tried).
func (p *Position) pawnDropSquares(dropTarget Bitboard) Bitboard {
	us, them := p.stm, p.stm.Opponent()
	t := dropTarget &^ promotionZone[us]
	for b := p.Pieces(us, Pawn); b != 0; b &= b - 1 {
		t &^= fileMask[b.First()]
	}
	if front := pawnAttacks[them][p.king[them]] & t; front != 0 && p.pawnDropMates(front.First()) {
		t &^= front
	}
	return t
}

// GenerateLegal fills ml with every legal move of the side to move (docs/rules.md#legal-moves):
// both promotion choices where promotion is optional, forced promotion of a pawn reaching the
// last rank, drops except a pawn on the last rank, nifu and uchifuzume, and no move that
// leaves the mover's king attacked. It works from checkers and pins rather than by trying
// each move, so that counting the moves of a position needs no make/unmake.
func (p *Position) GenerateLegal(ml *MoveList) {
	ml.N = 0
	us, them := p.stm, p.stm.Opponent()
	k := p.king[us]
	occ := p.Occupied()
	own := p.byColor[us]
	checkers := p.Attackers(k, them, occ)

	// The king may not step onto an attacked square; sliders see through the square it leaves.
	occWithoutKing := occ &^ squareBB(k)
	for t := kingAttacks[k] &^ own; t != 0; t &= t - 1 {
		to := t.First()
		if p.Attackers(to, them, occWithoutKing) == 0 {
			ml.add(NewMove(k, to, false))
		}
	}
	if checkers&(checkers-1) != 0 {
		return // double check: only the king can move
	}

	target, dropTarget := evasionTargets(k, checkers, own, occ)
	pinned := p.pinned(us)
	zone := promotionZone[us]

	for b := p.Pieces(us, Pawn); b != 0; b &= b - 1 {
		from := b.First()
		t := pawnAttacks[us][from] & movable(from, target, pinned, k)
		if t != 0 {
			// A pawn has one step; reaching the last rank it must promote.
			ml.add(NewMove(from, t.First(), zone&t != 0))
		}
	}
	for b := p.Pieces(us, Silver); b != 0; b &= b - 1 {
		from := b.First()
		t := silverAttacks[us][from] & movable(from, target, pinned, k)
		ml.addWithOptionalPromotion(from, t, zone)
	}
	for b := p.goldMovers() & own; b != 0; b &= b - 1 {
		from := b.First()
		t := goldAttacks[us][from] & movable(from, target, pinned, k)
		ml.addPlain(from, t)
	}
	for b := p.Pieces(us, Bishop); b != 0; b &= b - 1 {
		from := b.First()
		t := bishopAttacks(from, occ) & movable(from, target, pinned, k)
		ml.addWithOptionalPromotion(from, t, zone)
	}
	for b := p.Pieces(us, Rook); b != 0; b &= b - 1 {
		from := b.First()
		t := rookAttacks(from, occ) & movable(from, target, pinned, k)
		ml.addWithOptionalPromotion(from, t, zone)
	}
	for b := p.Pieces(us, Horse); b != 0; b &= b - 1 {
		from := b.First()
		t := (bishopAttacks(from, occ) | kingAttacks[from]) & movable(from, target, pinned, k)
		ml.addPlain(from, t)
	}
	for b := p.Pieces(us, Dragon); b != 0; b &= b - 1 {
		from := b.First()
		t := (rookAttacks(from, occ) | kingAttacks[from]) & movable(from, target, pinned, k)
		ml.addPlain(from, t)
	}

	if dropTarget == 0 {
		return
	}
	hand := &p.hand[us]
	if hand[Pawn] != 0 {
		for t := p.pawnDropSquares(dropTarget); t != 0; t &= t - 1 {
			ml.add(NewDrop(Pawn, t.First()))
		}
	}
	for _, pt := range [...]PieceType{Silver, Gold, Bishop, Rook} {
		if hand[pt] != 0 {
			for t := dropTarget; t != 0; t &= t - 1 {
				ml.add(NewDrop(pt, t.First()))
			}
		}
	}
}

// HasLegalMove reports whether the side to move has a legal move: whether GenerateLegal
// would give any. It follows GenerateLegal's rules but stops at the first move found, the
// king's steps and the drops first, so that a mate search asking whether a check mates
// (engine/eval's mate search, which asks it of every check at its last ply) does not build
// the defender's whole list. Tested against GenerateLegal on random games.
func (p *Position) HasLegalMove() bool {
	us, them := p.stm, p.stm.Opponent()
	k := p.king[us]
	occ := p.Occupied()
	own := p.byColor[us]
	checkers := p.Attackers(k, them, occ)

	occWithoutKing := occ &^ squareBB(k)
	for t := kingAttacks[k] &^ own; t != 0; t &= t - 1 {
		if p.Attackers(t.First(), them, occWithoutKing) == 0 {
			return true
		}
	}
	if checkers&(checkers-1) != 0 {
		return false
	}
	target, dropTarget := evasionTargets(k, checkers, own, occ)
	hand := &p.hand[us]
	if dropTarget != 0 && hand[Silver]|hand[Gold]|hand[Bishop]|hand[Rook] != 0 {
		return true
	}
	pinned := p.pinned(us)
	for b := p.Pieces(us, Pawn); b != 0; b &= b - 1 {
		from := b.First()
		if pawnAttacks[us][from]&movable(from, target, pinned, k) != 0 {
			return true
		}
	}
	for b := p.Pieces(us, Silver); b != 0; b &= b - 1 {
		from := b.First()
		if silverAttacks[us][from]&movable(from, target, pinned, k) != 0 {
			return true
		}
	}
	for b := p.goldMovers() & own; b != 0; b &= b - 1 {
		from := b.First()
		if goldAttacks[us][from]&movable(from, target, pinned, k) != 0 {
			return true
		}
	}
	for b := p.Pieces(us, Bishop) | p.Pieces(us, Horse) | p.Pieces(us, Rook) | p.Pieces(us, Dragon); b != 0; b &= b - 1 {
		from := b.First()
		if attacksFrom(p.board[from].Type(), us, from, occ)&movable(from, target, pinned, k) != 0 {
			return true
		}
	}
	return dropTarget != 0 && hand[Pawn] != 0 && p.pawnDropSquares(dropTarget) != 0
}

// pawnDropMates reports whether dropping a pawn on s checkmates (uchifuzume, illegal).
// It is called only for the one square in front of the enemy king, so a full generation for
// the defender is affordable; the defender cannot answer a pawn check by a drop, so this does
// not recurse.
func (p *Position) pawnDropMates(s Square) bool {
	m := NewDrop(Pawn, s)
	u := p.MakeMove(m)
	var replies MoveList
	p.GenerateLegal(&replies)
	p.UnmakeMove(m, u)
	return replies.N == 0
}

// LegalMoves appends the legal moves to dst and returns the extended slice.
func (p *Position) LegalMoves(dst []Move) []Move {
	var ml MoveList
	p.GenerateLegal(&ml)
	return append(dst, ml.Slice()...)
}
