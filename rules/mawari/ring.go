package mawari

import "fmt"

// The board is the outer ring of a 9x9 shogi board: 32 squares numbered 0..31
// counter-clockwise, with a corner every 8 squares (squares 0, 8, 16 and 24).
const (
	RingSquares           = 32
	SquaresBetweenCorners = 8
	Corners               = RingSquares / SquaresBetweenCorners
)

// Rank is the shogi piece that marks a player's progress.
type Rank uint8

const (
	Pawn Rank = iota
	Lance
	Knight
	Silver
	Gold
	Bishop
	Rook
	King
)

var rankNames = [...]string{"pawn", "lance", "knight", "silver", "gold", "bishop", "rook", "king"}

func (k Rank) String() string {
	if int(k) < len(rankNames) {
		return rankNames[k]
	}
	return fmt.Sprintf("Rank(%d)", uint8(k))
}

// Piece is one player's marker: how far it has climbed the ladder and where it stands.
// The zero Piece is a pawn on its start corner.
type Piece struct {
	// Rung indexes Rules.Ladder; it reaches len(Ladder) when the king wins.
	Rung int
	// Progress counts squares counter-clockwise from the player's start corner, 0..31.
	// Under ExactCorner the piece is on a corner when Progress is a multiple of 8; under
	// PerLap the piece completes a lap when Progress passes 31.
	Progress int
}

// Rank is the piece's current rank under r.
func (pc Piece) Rank(r Rules) Rank { return r.Ladder()[pc.Rung] }

// StartCorner is the square where seat starts: opposite corners for two players, one
// corner each, in counter-clockwise order, for three or four.
func StartCorner(seat, players int) int {
	if players == 2 {
		return seat * 2 * SquaresBetweenCorners
	}
	return seat * SquaresBetweenCorners
}

// Square is where a piece of the player in seat stands on the ring.
func (pc Piece) Square(seat, players int) int {
	return (StartCorner(seat, players) + pc.Progress) % RingSquares
}

// Advance applies move m to pc and reports whether that wins the game.
//
// A move of zero steps is no stop. A forward move stops on the square it reaches; under
// ExactCorner a stop on a corner promotes once, under PerLap every lap completed on the
// way promotes once. The king's promotion is the win. With CornerJump a stop on a corner
// is followed by a jump to the next corner, which is a stop too.
func (r Rules) Advance(pc Piece, m Move) (Piece, bool) {
	var steps int
	switch {
	case m.ToNextCorner:
		steps = SquaresBetweenCorners - pc.Progress%SquaresBetweenCorners
	case m.Steps < 0:
		return r.moveBack(pc, -m.Steps), false
	case m.Steps == 0:
		return pc, false
	default:
		steps = m.Steps
	}
	pc, won := r.stopAhead(pc, steps)
	if !won && r.CornerJump && pc.Progress%SquaresBetweenCorners == 0 {
		pc, won = r.stopAhead(pc, SquaresBetweenCorners)
	}
	return pc, won
}

// stopAhead moves pc steps > 0 squares forward, promotes it as the rules say, and reports
// a win.
func (r Rules) stopAhead(pc Piece, steps int) (Piece, bool) {
	end := pc.Progress + steps
	switch r.Promotion {
	case ExactCorner:
		if end%SquaresBetweenCorners == 0 {
			pc.Rung++
		}
	case PerLap:
		pc.Rung += end / RingSquares
	}
	pc.Progress = end % RingSquares
	return pc, pc.Rung >= r.StopsToWin()
}

func (r Rules) moveBack(pc Piece, steps int) Piece {
	if r.Promotion == PerLap {
		pc.Progress = max(pc.Progress-steps, 0)
		return pc
	}
	pc.Progress = ((pc.Progress-steps)%RingSquares + RingSquares) % RingSquares
	return pc
}
