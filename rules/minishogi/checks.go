package minishogi

// This file holds the checks: their definition (GivesCheck), a fast test of many moves of
// one position (CheckTest), and a hot path of mate searches, generating only the checking
// moves.

// GivesCheck reports whether legal move m checks the opponent. It is the definition: the
// move is made and the enemy king's square tested. CheckTest answers the same question
// without making the move.
func (p *Position) GivesCheck(m Move) bool {
	u := p.MakeMove(m)
	check := p.InCheck()
	p.UnmakeMove(m, u)
	return check
}

// CheckTest tells which legal moves of one position give check, without making them, by
// the reasoning of GenerateChecks: a move checks directly when the piece, as it stands after
// the move, attacks the enemy king from its destination, and by discovery when it takes the
// only piece between the enemy king and one of the mover's sliders off their line. An
// evaluator that scores every legal move asks this once per move; the set-up (the
// discovering pieces) is paid once per position. The position must not change while the
// test is in use.
type CheckTest struct {
	p    *Position
	us   Color
	ek   Square   // the enemy king
	occ  Bitboard // the occupancy before the move
	disc Bitboard // the mover's pieces whose leaving the line to ek uncovers a check
}

// NewCheckTest returns the check test of the position's legal moves.
func (p *Position) NewCheckTest() CheckTest {
	us := p.stm
	ek := p.king[us.Opponent()]
	return CheckTest{p: p, us: us, ek: ek, occ: p.Occupied(), disc: p.discoverers(ek, us)}
}

// GivesCheck reports whether the legal move m of the test's position checks the opponent,
// as Position.GivesCheck would.
func (t *CheckTest) GivesCheck(m Move) bool {
	to := m.To()
	if m.IsDrop() { // a drop uncovers nothing
		return attacksFrom(m.DropType(), t.us, to, t.occ|squareBB(to)).Has(t.ek)
	}
	from := m.From()
	if t.disc.Has(from) && !line[t.ek][from].Has(to) {
		return true
	}
	pt := t.p.board[from].Type()
	if m.IsPromotion() {
		pt = pt.Promoted()
	}
	// The square left is empty after the move: a slider retreating along the line to the
	// king sees through it.
	return attacksFrom(pt, t.us, to, t.occ&^squareBB(from)|squareBB(to)).Has(t.ek)
}

// GenerateChecks fills ml with the legal moves of the side to move that give check: the
// moves of GenerateLegal for which GivesCheck holds. A mate search by checks (tsume) asks
// for nothing else at the attacker's turn, and generating every legal move to keep the
// checks made its attacker nodes cost a full generation and a make/unmake per drop.
//
// A move checks directly when the piece, as it stands after the move (promoted or not),
// attacks the enemy king from its destination: the destination is then among the squares
// a piece of that kind and the other colour on the king's square would attack. It checks
// by discovery when it takes the only piece between the enemy king and one of the mover's
// sliders off their line. A drop checks only directly.
func (p *Position) GenerateChecks(ml *MoveList) {
	ml.N = 0
	us, them := p.stm, p.stm.Opponent()
	k := p.king[us]
	ek := p.king[them]
	occ := p.Occupied()
	own := p.byColor[us]
	checkers := p.Attackers(k, them, occ)
	disc := p.discoverers(ek, us)

	// The king never checks directly; it may uncover a check.
	if disc.Has(k) {
		occWithoutKing := occ &^ squareBB(k)
		for t := kingAttacks[k] &^ own &^ line[ek][k]; t != 0; t &= t - 1 {
			to := t.First()
			if p.Attackers(to, them, occWithoutKing) == 0 {
				ml.add(NewMove(k, to, false))
			}
		}
	}
	if checkers&(checkers-1) != 0 {
		return // double check: only the king can move
	}

	target, dropTarget := evasionTargets(k, checkers, own, occ)
	pinned := p.pinned(us)
	zone := promotionZone[us]

	// checkFrom[pt]: the squares from which a piece of ours of kind pt attacks the enemy king.
	var checkFrom [numPieceTypes]Bitboard
	checkFrom[Pawn] = pawnAttacks[them][ek]
	checkFrom[Silver] = silverAttacks[them][ek]
	checkFrom[Gold] = goldAttacks[them][ek]
	checkFrom[Tokin], checkFrom[ProSilver] = checkFrom[Gold], checkFrom[Gold]
	checkFrom[Bishop] = bishopAttacks(ek, occ)
	checkFrom[Rook] = rookAttacks(ek, occ)
	checkFrom[Horse] = checkFrom[Bishop] | kingAttacks[ek]
	checkFrom[Dragon] = checkFrom[Rook] | kingAttacks[ek]

	// Pieces that cannot promote (or whose promotion is forced, the pawn's) have one move
	// per destination: a check if it uncovers one or attacks the king from there.
	plain := func(from Square, pt PieceType, t Bitboard) {
		if disc.Has(from) {
			t &= checkFrom[pt] | ^line[ek][from]
		} else {
			t &= checkFrom[pt]
		}
		ml.addPlain(from, t)
	}
	// A piece that may promote: the move and the promoting move are checks apart.
	optional := func(from Square, pt PieceType, t Bitboard) {
		fromZone := zone.Has(from)
		uncovers := Bitboard(0)
		if disc.Has(from) {
			uncovers = ^line[ek][from]
		}
		promoted := pt.Promoted()
		for ; t != 0; t &= t - 1 {
			to := t.First()
			bb := squareBB(to)
			m := NewMove(from, to, false)
			if (uncovers|checkFrom[pt])&bb != 0 {
				ml.add(m)
			}
			if (fromZone || zone&bb != 0) && (uncovers|checkFrom[promoted])&bb != 0 {
				ml.add(m.withPromotion())
			}
		}
	}

	for b := p.Pieces(us, Pawn); b != 0; b &= b - 1 {
		from := b.First()
		t := pawnAttacks[us][from] & movable(from, target, pinned, k)
		if t == 0 {
			continue
		}
		// A pawn has one step; reaching the last rank it must promote.
		promote := zone&t != 0
		after := Pawn
		if promote {
			after = Tokin
		}
		if disc.Has(from) && !line[ek][from].Has(t.First()) || checkFrom[after]&t != 0 {
			ml.add(NewMove(from, t.First(), promote))
		}
	}
	for b := p.Pieces(us, Silver); b != 0; b &= b - 1 {
		from := b.First()
		optional(from, Silver, silverAttacks[us][from]&movable(from, target, pinned, k))
	}
	for b := p.goldMovers() & own; b != 0; b &= b - 1 {
		from := b.First()
		plain(from, Gold, goldAttacks[us][from]&movable(from, target, pinned, k))
	}
	for b := p.Pieces(us, Bishop); b != 0; b &= b - 1 {
		from := b.First()
		optional(from, Bishop, bishopAttacks(from, occ)&movable(from, target, pinned, k))
	}
	for b := p.Pieces(us, Rook); b != 0; b &= b - 1 {
		from := b.First()
		optional(from, Rook, rookAttacks(from, occ)&movable(from, target, pinned, k))
	}
	for b := p.Pieces(us, Horse); b != 0; b &= b - 1 {
		from := b.First()
		plain(from, Horse, (bishopAttacks(from, occ)|kingAttacks[from])&movable(from, target, pinned, k))
	}
	for b := p.Pieces(us, Dragon); b != 0; b &= b - 1 {
		from := b.First()
		plain(from, Dragon, (rookAttacks(from, occ)|kingAttacks[from])&movable(from, target, pinned, k))
	}

	if dropTarget == 0 {
		return
	}
	hand := &p.hand[us]
	if hand[Pawn] != 0 {
		// Only the square in front of the king checks, where the drop rules allow it.
		if t := p.pawnDropSquares(dropTarget) & checkFrom[Pawn]; t != 0 {
			ml.add(NewDrop(Pawn, t.First()))
		}
	}
	for _, pt := range [...]PieceType{Silver, Gold, Bishop, Rook} {
		if hand[pt] != 0 {
			for t := dropTarget & checkFrom[pt]; t != 0; t &= t - 1 {
				ml.add(NewDrop(pt, t.First()))
			}
		}
	}
}

// discoverers returns c's pieces that stand alone between the king on ek and one of c's
// sliders: moving one of them off that line gives check by discovery.
func (p *Position) discoverers(ek Square, c Color) Bitboard { return p.loneBlockers(ek, c, c) }
