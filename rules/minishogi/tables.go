package minishogi

import "math/bits"

// The tables below are computed once at package initialisation and only read afterwards.

// Directions as (file step, rank step) in board coordinates: file step +1 moves toward
// file 1 (right, as Sente sees the board), rank step -1 moves toward rank a (Sente's forward).
type delta struct{ df, dr int }

var (
	north     = delta{0, -1}
	south     = delta{0, 1}
	west      = delta{-1, 0}
	east      = delta{1, 0}
	northWest = delta{-1, -1}
	northEast = delta{1, -1}
	southWest = delta{-1, 1}
	southEast = delta{1, 1}
)

// Step patterns for Sente; Gote's are mirrored through the board's centre rank.
var (
	pawnSteps   = []delta{north}
	silverSteps = []delta{north, northWest, northEast, southWest, southEast}
	goldSteps   = []delta{north, northWest, northEast, west, east, south}
	kingSteps   = []delta{north, northWest, northEast, west, east, south, southWest, southEast}
)

// The eight ray directions; the first four run toward higher square numbers.
const (
	dirSouth = iota
	dirEast
	dirSouthEast
	dirSouthWest
	dirNorth
	dirWest
	dirNorthWest
	dirNorthEast
	numDirs
)

var rayDeltas = [numDirs]delta{south, east, southEast, southWest, north, west, northWest, northEast}

var (
	pawnAttacks   [2][NumSquares]Bitboard
	silverAttacks [2][NumSquares]Bitboard
	goldAttacks   [2][NumSquares]Bitboard
	kingAttacks   [NumSquares]Bitboard
	rays          [numDirs][NumSquares]Bitboard
	rookPseudo    [NumSquares]Bitboard // rook attacks on an empty board
	bishopPseudo  [NumSquares]Bitboard

	// between[a][b] holds the squares strictly between two aligned squares (empty otherwise);
	// line[a][b] the whole line through them, a and b included.
	between [NumSquares][NumSquares]Bitboard
	line    [NumSquares][NumSquares]Bitboard

	// promotionZone[c] is the rank farthest from c; it is also c's last rank, where an
	// unpromoted pawn could never move.
	promotionZone = [2]Bitboard{0x1F, 0x1F << 20}
	fileMask      [NumSquares]Bitboard // all squares on the file of a square
)

func onBoard(f, r int) bool { return f >= 0 && f < 5 && r >= 0 && r < 5 }

func stepTable(steps []delta, c Color) (t [NumSquares]Bitboard) {
	for s := Square(0); s < NumSquares; s++ {
		f, r := int(s)%5, int(s)/5
		for _, d := range steps {
			dr := d.dr
			if c == Gote {
				dr = -dr
			}
			if onBoard(f+d.df, r+dr) {
				t[s] |= squareBB(Square((r+dr)*5 + f + d.df))
			}
		}
	}
	return t
}

func init() {
	for c := Sente; c <= Gote; c++ {
		pawnAttacks[c] = stepTable(pawnSteps, c)
		silverAttacks[c] = stepTable(silverSteps, c)
		goldAttacks[c] = stepTable(goldSteps, c)
	}
	kingAttacks = stepTable(kingSteps, Sente)
	for d := 0; d < numDirs; d++ {
		for s := Square(0); s < NumSquares; s++ {
			f, r := int(s)%5, int(s)/5
			for k := 1; onBoard(f+k*rayDeltas[d].df, r+k*rayDeltas[d].dr); k++ {
				rays[d][s] |= squareBB(Square((r+k*rayDeltas[d].dr)*5 + f + k*rayDeltas[d].df))
			}
		}
	}
	for s := Square(0); s < NumSquares; s++ {
		rookPseudo[s] = rays[dirNorth][s] | rays[dirSouth][s] | rays[dirEast][s] | rays[dirWest][s]
		bishopPseudo[s] = rays[dirNorthEast][s] | rays[dirNorthWest][s] | rays[dirSouthEast][s] | rays[dirSouthWest][s]
		fileMask[s] = rays[dirNorth][s] | rays[dirSouth][s] | squareBB(s)
		for d := 0; d < numDirs; d++ {
			for t := rays[d][s]; t != 0; t &= t - 1 {
				u := t.First()
				between[s][u] = rays[d][s] &^ rays[d][u] &^ squareBB(u)
				line[s][u] = rays[d][s] | rays[(d+4)%numDirs][s] | squareBB(s)
			}
		}
	}
	initZobrist()
}

// slide returns the squares a slider on s attacks along direction d, up to and including
// the first occupied square.
func slide(d int, s Square, occ Bitboard) Bitboard {
	r := rays[d][s]
	if b := r & occ; b != 0 {
		var blocker int
		if d < dirNorth { // ray runs toward higher squares: the nearest blocker is the lowest bit
			blocker = bits.TrailingZeros32(uint32(b))
		} else {
			blocker = 31 - bits.LeadingZeros32(uint32(b))
		}
		r ^= rays[d][blocker]
	}
	return r
}

func rookAttacks(s Square, occ Bitboard) Bitboard {
	return slide(dirNorth, s, occ) | slide(dirSouth, s, occ) | slide(dirEast, s, occ) | slide(dirWest, s, occ)
}

func bishopAttacks(s Square, occ Bitboard) Bitboard {
	return slide(dirNorthEast, s, occ) | slide(dirNorthWest, s, occ) | slide(dirSouthEast, s, occ) | slide(dirSouthWest, s, occ)
}

// attacksFrom returns the squares a piece of kind pt and colour c on s attacks.
func attacksFrom(pt PieceType, c Color, s Square, occ Bitboard) Bitboard {
	switch pt {
	case Pawn:
		return pawnAttacks[c][s]
	case Silver:
		return silverAttacks[c][s]
	case Gold, Tokin, ProSilver:
		return goldAttacks[c][s]
	case Bishop:
		return bishopAttacks(s, occ)
	case Rook:
		return rookAttacks(s, occ)
	case King:
		return kingAttacks[s]
	case Horse:
		return bishopAttacks(s, occ) | kingAttacks[s]
	case Dragon:
		return rookAttacks(s, occ) | kingAttacks[s]
	}
	return 0
}

// Zobrist keys (Zobrist 1970), drawn from a fixed SplitMix64 stream so that hashes are the
// same in every run and on every machine.
var (
	zobristPiece [2][numPieceTypes][NumSquares]uint64
	zobristHand  [2][numPieceTypes][SetCount + 1]uint64
	zobristGote  uint64 // XORed in when Gote is to move
)

func initZobrist() {
	state := uint64(0x5348_4F47_494C_4142) // "SHOGILAB"
	next := func() uint64 {                // SplitMix64 (Steele, Lea, Flood 2014)
		state += 0x9E3779B97F4A7C15
		z := state
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for c := range zobristPiece {
		for pt := range zobristPiece[c] {
			for s := range zobristPiece[c][pt] {
				zobristPiece[c][pt][s] = next()
			}
			for n := 1; n <= SetCount; n++ { // an empty hand contributes nothing
				zobristHand[c][pt][n] = next()
			}
		}
	}
	zobristGote = next()
}
