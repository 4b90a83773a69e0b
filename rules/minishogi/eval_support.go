package minishogi

// This file exports what an evaluator needs beyond the rules: the attack sets of single
// pieces, so that an evaluation can build attack maps without making moves.

// PieceAttacks returns the squares that a piece of kind pt and colour c on s attacks when the
// board's occupancy is occ (sliders stop at the first occupied square, which they attack).
func PieceAttacks(pt PieceType, c Color, s Square, occ Bitboard) Bitboard {
	return attacksFrom(pt, c, s, occ)
}
