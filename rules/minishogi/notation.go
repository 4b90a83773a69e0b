package minishogi

import "fmt"

// parseSquare reads a USI square such as "3c".
func parseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < '1' || s[0] > '5' || s[1] < 'a' || s[1] > 'e' {
		return NoSquare, false
	}
	return NewSquare(int(s[0]-'0'), int(s[1]-'a')), true
}

// ParseMoveSyntax reads a move in USI notation (5d5c, 2b1a+, P*3c) without checking that it
// is legal anywhere.
func ParseMoveSyntax(s string) (Move, error) {
	if len(s) == 4 && s[1] == '*' {
		pt := letterType(s[0])
		to, ok := parseSquare(s[2:])
		if pt == NoPieceType || pt == King || !ok {
			return NoMove, fmt.Errorf("minishogi: move %q: a drop is a piece letter P, S, G, B or R, '*', and a square 5a..1e", s)
		}
		return NewDrop(pt, to), nil
	}
	if len(s) == 4 || len(s) == 5 && s[4] == '+' {
		from, ok1 := parseSquare(s[0:2])
		to, ok2 := parseSquare(s[2:4])
		if ok1 && ok2 && from != to {
			return NewMove(from, to, len(s) == 5), nil
		}
	}
	return NoMove, fmt.Errorf("minishogi: move %q is not USI notation (5d5c, 2b1a+, P*3c)", s)
}

// ParseMove reads a move in USI notation and checks that it is legal in p; an illegal move is
// an error that says why.
func (p *Position) ParseMove(s string) (Move, error) {
	m, err := ParseMoveSyntax(s)
	if err != nil {
		return NoMove, err
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	for _, legal := range ml.Slice() {
		if legal == m {
			return m, nil
		}
	}
	return NoMove, fmt.Errorf("minishogi: move %s is illegal in %s: %s", s, p.SFEN(), p.whyIllegal(m, ml.Slice()))
}

// whyIllegal explains, for error messages, why m is not among the legal moves.
func (p *Position) whyIllegal(m Move, legal []Move) string {
	us := p.stm
	if m.IsDrop() {
		pt := m.DropType()
		switch {
		case p.hand[us][pt] == 0:
			return fmt.Sprintf("%s has no %s in hand", us, pt)
		case p.board[m.To()] != NoPiece:
			return "the square is occupied"
		case pt == Pawn && promotionZone[us].Has(m.To()):
			return "a pawn may not be dropped on the last rank"
		case pt == Pawn && p.Pieces(us, Pawn)&fileMask[m.To()] != 0:
			return "nifu: the file already holds an unpromoted pawn of the same side"
		case pt == Pawn && pawnAttacks[us][m.To()].Has(p.king[us.Opponent()]) && p.pawnDropMates(m.To()):
			return "uchifuzume: a pawn drop may not give checkmate"
		}
		return "it leaves the king in check"
	}
	pc := p.board[m.From()]
	switch {
	case pc == NoPiece:
		return fmt.Sprintf("no piece on %s", m.From())
	case pc.Color() != us:
		return fmt.Sprintf("the piece on %s is not %s's", m.From(), us)
	case !attacksFrom(pc.Type(), us, m.From(), p.Occupied()).Has(m.To()):
		return fmt.Sprintf("%s on %s cannot reach %s", pc, m.From(), m.To())
	case p.board[m.To()] != NoPiece && p.board[m.To()].Color() == us:
		return fmt.Sprintf("%s is occupied by %s's own piece", m.To(), us)
	}
	for _, l := range legal {
		if l.sameSquares(m) {
			if m.IsPromotion() {
				return "this piece may not promote on this move"
			}
			return "a pawn reaching the last rank must promote"
		}
	}
	return "it leaves the king in check"
}
