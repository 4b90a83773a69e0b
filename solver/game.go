package solver

import (
	"github.com/shogilab/shogilab/outcome"
	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// codeRules is Minishogi for retro's enumeration: a position is stored as its 85-bit code (16
// bytes instead of the Position's bitboards), decoded when its moves are needed.
type codeRules struct{}

func decode(c minishogi.Code) minishogi.Position {
	p, err := c.Decode()
	if err != nil {
		panic("solver: a code made by Position.Code does not decode: " + err.Error())
	}
	return p
}

func (codeRules) Code(c minishogi.Code) minishogi.Code { return c }

func (codeRules) Children(c minishogi.Code, dst []minishogi.Code) []minishogi.Code {
	p := decode(c)
	var ml minishogi.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		u := p.MakeMove(m)
		dst = append(dst, p.Code())
		p.UnmakeMove(m, u)
	}
	return dst
}

// Terminal reports a position without legal moves as lost for the side to move (checkmate
// or stalemate, docs/rules.md#no-legal-move). The enumeration asks it of every position, including
// those at the ply bound that are never expanded, so mates on the last ply are seen.
func (codeRules) Terminal(c minishogi.Code) (outcome.Value, bool) {
	p := decode(c)
	var ml minishogi.MoveList
	p.GenerateLegal(&ml)
	if ml.N == 0 {
		return outcome.Loss, true
	}
	return outcome.Unknown, false
}

// moveRules is Minishogi for df-pn and the proof checker, move by move with the rules
// engine's own legal move generator.
type moveRules struct{}

func (moveRules) Code(p minishogi.Position) minishogi.Code { return p.Code() }

func (moveRules) Moves(p minishogi.Position, dst []minishogi.Move) []minishogi.Move {
	return p.LegalMoves(dst)
}

// HasMoves tells the search whether p has a legal move (retro.MoveTester) without listing
// them: minishogi.Position.HasLegalMove, which follows the same rules as LegalMoves.
func (moveRules) HasMoves(p minishogi.Position) bool { return p.HasLegalMove() }

func (moveRules) Play(p minishogi.Position, m minishogi.Move) minishogi.Position {
	p.MakeMove(m)
	return p
}

// Proof is a proof of a forced mate in Minishogi: the attacker's move in each position of
// the proof where the attacker is to move, keyed by the position's code.
type Proof = retro.Proof[minishogi.Code, minishogi.Move]

// CheckProof replays proof from root with the rules engine's move generator (see
// retro.CheckProof) and returns nil only if it proves the forced mate.
func CheckProof(root minishogi.Position, proof *Proof) error {
	return retro.CheckProof[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, root, proof)
}

// Initial gives df-pn+ its initial numbers (retro.Knowledge) from what the move list shows.
// At a defender node the attacker's work is the defender's moves, king moves counted twice
// (a king that can step away is the hard case) and quiet positions (no check) made dearer,
// since the attacker must then also find the mating net; the defender needs one escape. At
// an attacker node the attacker's work is one move, two when it must answer a check; the
// defender must refute all its moves.
func (moveRules) Initial(p minishogi.Position, moves []minishogi.Move, attackerToMove bool) (phi, delta uint32) {
	if attackerToMove {
		phi = 1
		if p.InCheck() {
			phi = 2
		}
		return phi, uint32(len(moves))
	}
	k := p.KingSquare(p.SideToMove())
	work := len(moves)
	for _, m := range moves {
		if !m.IsDrop() && m.From() == k {
			work++
		}
	}
	if !p.InCheck() {
		work += 2
	}
	return 1, uint32(work)
}

// Split gives the table its board, hash and hands (retro.HandRules), so that hand superiority
// applies. The board is the position's code (docs: minishogi.Code) with each piece in hand
// recoded as absent: the slots of a kind stay sorted, since a piece on the board codes below
// one in hand and one in hand below an absent one. The hands pack the attacker's counts of
// rook, bishop, gold, silver and pawn in nibbles 0..4 and 7 minus the defender's in 5..9, so
// that more for the attacker and less for the defender both read as more.
func (moveRules) Split(p minishogi.Position, attackerToMove bool) (board minishogi.Code, hash uint64, hand retro.Hand) {
	board = boardOf(p.Code())
	hash = mix(board[0] ^ mix(board[1]))
	att := p.SideToMove()
	if !attackerToMove {
		att = att.Opponent()
	}
	for i, pt := range minishogi.HandTypes {
		hand |= retro.Hand(p.Hand(att, pt)) << (4 * i)
		hand |= retro.Hand(7-p.Hand(att.Opponent(), pt)) << (4 * (i + 5))
	}
	return board, hash, hand
}

// The code's layout (minishogi.Code): 7-bit slots, location<<2 | promoted<<1 | owner; nine
// slots in the low word, three in the high one.
const (
	slotBits    = 7
	slotsInLow  = 9
	slotsInHigh = 3
	locInHand   = 25
	locAbsent   = 26
)

func boardOf(c minishogi.Code) minishogi.Code {
	for w, n := range [2]int{slotsInLow, slotsInHigh} {
		for i := range n {
			shift := uint(slotBits * i)
			if c[w]>>shift>>2&(1<<(slotBits-2)-1) == locInHand {
				c[w] = c[w]&^((1<<slotBits-1)<<shift) | locAbsent<<2<<shift
			}
		}
	}
	return c
}

// mix is a 64-bit finaliser (Stafford's variant 13 of MurmurHash3's).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Certificate is a disproof certificate for Minishogi: the defender's escaping reply in each
// position of it where the defender is to move, keyed by the position's code.
type Certificate = retro.Disproof[minishogi.Code, minishogi.Move]

// CheckCertificate replays d from root with the rules engine's move generator (see
// retro.CheckDisproof) and returns nil only if it shows there is no forced mate within
// d.Plies plies.
func CheckCertificate(root minishogi.Position, d *Certificate) error {
	return retro.CheckDisproof[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, root, d)
}

// certificatePlies checks d from root as CheckCertificate does and returns, for each entry
// the check used, the most plies it showed the position to escape over (retro.DisproofPlies).
func certificatePlies(root minishogi.Position, d *Certificate) (map[minishogi.Code]int, error) {
	return retro.DisproofPlies[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, root, d)
}
