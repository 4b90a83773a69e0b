package minishogi

// Undo holds what UnmakeMove needs beyond the move itself.
type Undo struct {
	captured Piece
	hash     uint64
}

// MakeMove plays m, which must be legal (or at least pseudo-legal) in p, and returns what
// UnmakeMove needs to take it back.
func (p *Position) MakeMove(m Move) Undo {
	u := Undo{hash: p.hash}
	us := p.stm
	to := m.To()
	if m.IsDrop() {
		pt := m.DropType()
		p.addHand(us, pt, -1)
		p.put(NewPiece(us, pt), to)
	} else {
		from := m.From()
		pc := p.board[from]
		p.remove(from)
		if captured := p.board[to]; captured != NoPiece {
			u.captured = captured
			p.remove(to)
			p.addHand(us, captured.Type().Unpromoted(), 1)
		}
		if m.IsPromotion() {
			pc = NewPiece(us, pc.Type().Promoted())
		}
		p.put(pc, to)
	}
	p.stm = us.Opponent()
	p.hash ^= zobristGote
	p.moveNum++
	return u
}

// UnmakeMove takes back m, which must be the last move made, restoring p exactly. It
// restores the hash saved by MakeMove rather than updating it square by square.
func (p *Position) UnmakeMove(m Move, u Undo) {
	p.stm = p.stm.Opponent()
	p.moveNum--
	us := p.stm
	to := m.To()
	if m.IsDrop() {
		p.clear(to)
		p.hand[us][m.DropType()]++
	} else {
		pc := p.clear(to)
		if m.IsPromotion() {
			pc = NewPiece(us, pc.Type().Unpromoted())
		}
		p.set(pc, m.From())
		if u.captured != NoPiece {
			p.hand[us][u.captured.Type().Unpromoted()]--
			p.set(u.captured, to)
		}
	}
	p.hash = u.hash
}
