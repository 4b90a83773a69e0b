package eval

import ms "github.com/shogilab/shogilab/rules/minishogi"

// Terms are the quantities the hand-set value weighs, for the side to move (its own minus
// the opponent's): the value's score is Σ Board[pt]·Board[pt] + Σ Hand[pt]·Hand[pt] +
// KingEscape·Escape − KingZoneAttacked·Attacked + Threat·Capture + Tempo, with the
// weights of Weights (see score). A fit of the value weights to data (package
// train/linfit) reads them. Capture is the best capture on offer as the current weights
// value it, so a fit that changes Board treats it as fixed.
type Terms struct {
	Board    [ms.Dragon + 1]float64 // pieces on the board by type, ours minus theirs (King unused)
	Hand     [ms.Rook + 1]float64   // pieces in hand by type, ours minus theirs
	Escape   float64                // free squares next to our king minus next to theirs
	Attacked float64                // attacked squares next to our king minus next to theirs
	Capture  float64                // the best capture on offer to the side to move, in centipawns
}

// ValueTerms returns the terms of pos's static score for its side to move.
func (e *Evaluator) ValueTerms(pos *ms.Position) Terms {
	var maps attackMaps
	maps.compute(pos)
	us := pos.SideToMove()
	var t Terms
	for c := ms.Sente; c <= ms.Gote; c++ {
		sign := 1.0
		if c != us {
			sign = -1
		}
		for b := pos.ColorPieces(c); b != 0; b &= b - 1 {
			if pt := pos.PieceAt(b.First()).Type(); pt != ms.King {
				t.Board[pt] += sign
			}
		}
		for _, pt := range ms.HandTypes {
			t.Hand[pt] += sign * float64(pos.Hand(c, pt))
		}
		zone := ms.PieceAttacks(ms.King, c, pos.KingSquare(c), 0)
		attacked := zone & maps.by[c.Opponent()]
		free := zone &^ attacked &^ pos.ColorPieces(c)
		t.Escape += sign * float64(free.Count())
		t.Attacked += sign * float64(attacked.Count())
	}
	t.Capture = float64(e.bestCapture(pos, &maps))
	return t
}
