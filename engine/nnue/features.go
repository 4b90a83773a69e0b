package nnue

import ms "github.com/shogilab/shogilab/rules/minishogi"

// The feature set "halfkp-5x5": for one perspective (a side, seen from its own side of the
// board), every piece other than that side's king is one active feature, indexed by the
// perspective's king square, whose piece it is (own or the opponent's), its kind and its
// square; a piece in hand is indexed by its kind and its number within the hand (the first
// and second pawn in hand are two features). This is HalfKP, the input of the first NNUE
// evaluators for shogi (Nasu, "Efficiently Updatable Neural-Network-based Evaluation
// Functions for Computer Shogi", 2018), cut down to the 5x5 board; the enemy king counts
// as a piece, since on so small a board it is never far.
//
// The board is turned 180 degrees for Gote, so that both perspectives share one set of
// weights (the side to move's accumulator comes first in the next layer).
const (
	// FeatureSet names the inputs in evaluation files.
	FeatureSet = "halfkp-5x5"

	// kinds of piece on the board, per owner: the nine non-king kinds and the king.
	boardKinds = 10
	// handSlots is the hand features per owner: five kinds, two of each at most.
	handSlots = 5 * ms.SetCount
	// PieceFeatures is the features under one king square: 2 owners × (10 kinds × 25
	// squares + 10 hand slots).
	PieceFeatures = 2 * (boardKinds*ms.NumSquares + handSlots)
	// NumFeatures is the whole input: one block of PieceFeatures per king square.
	NumFeatures = ms.NumSquares * PieceFeatures
	// MaxActive bounds the active features of a perspective: the ten pieces that are not
	// kings, on the board or in hand, and the enemy king.
	MaxActive = 11
)

// kindIndex maps a piece type to its board-kind index (0..9); King is 9.
var kindIndex = [...]int32{
	ms.Pawn: 0, ms.Silver: 1, ms.Gold: 2, ms.Bishop: 3, ms.Rook: 4,
	ms.Tokin: 5, ms.ProSilver: 6, ms.Horse: 7, ms.Dragon: 8, ms.King: 9,
}

// orient turns a square to persp's view: Gote sees the board rotated.
func orient(s ms.Square, persp ms.Color) int32 {
	if persp == ms.Gote {
		return int32(ms.NumSquares - 1 - s)
	}
	return int32(s)
}

// boardFeature is the feature of piece pc on square s for persp, without the king block
// (add kingBase(persp's king) to it).
func boardFeature(pc ms.Piece, s ms.Square, persp ms.Color) int32 {
	owner := int32(0)
	if pc.Color() != persp {
		owner = 1
	}
	return owner*(boardKinds*ms.NumSquares+handSlots) + kindIndex[pc.Type()]*ms.NumSquares + orient(s, persp)
}

// handFeature is the feature of the i-th (from 0) piece of kind pt in c's hand, for persp,
// without the king block.
func handFeature(c ms.Color, pt ms.PieceType, i int, persp ms.Color) int32 {
	owner := int32(0)
	if c != persp {
		owner = 1
	}
	return owner*(boardKinds*ms.NumSquares+handSlots) + boardKinds*ms.NumSquares + int32(pt-ms.Pawn)*ms.SetCount + int32(i)
}

// kingBase is the first feature of the block of persp's king on square k.
func kingBase(k ms.Square, persp ms.Color) int32 { return orient(k, persp) * PieceFeatures }

// Features appends the active features of pos for persp to dst and returns it: at most
// MaxActive of them, in board order and then hand order.
func Features(pos *ms.Position, persp ms.Color, dst []int32) []int32 {
	base := kingBase(pos.KingSquare(persp), persp)
	own := pos.KingSquare(persp)
	for b := pos.Occupied(); b != 0; b &= b - 1 {
		s := b.First()
		if s == own {
			continue
		}
		dst = append(dst, base+boardFeature(pos.PieceAt(s), s, persp))
	}
	for c := ms.Sente; c <= ms.Gote; c++ {
		for pt := ms.Pawn; pt <= ms.Rook; pt++ {
			for i := range pos.Hand(c, pt) {
				dst = append(dst, base+handFeature(c, pt, i, persp))
			}
		}
	}
	return dst
}
