package minishogi

import "fmt"

// Code is an exact, compact code of a position (board, both hands, side to move; not the move
// number): equal codes mean equal positions and distinct positions get distinct codes, so a
// solver can deduplicate by the code itself rather than by a hash that may collide.
//
// Layout (85 of 128 bits). A Minishogi set has two pieces of each of six kinds. Each piece is a
// 7-bit slot: location<<2 | promoted<<1 | owner, where location 0..24 is a square, 25 is "in
// its owner's hand" and 26 is "absent" (removed for a handicap). The two slots of a kind are
// sorted so that the two identical pieces have one code; kinds come in the order
// King, Rook, Bishop, Gold, Silver, Pawn. Slots 0..8 fill bits 0..62 of Code[0], slots 9..11
// bits 0..20 of Code[1], and bit 21 of Code[1] is set when Gote is to move.
type Code [2]uint64

const (
	codeSlotBits   = 7
	codeInHand     = 25
	codeAbsent     = 26
	codeSlotsInLo  = 9
	codeGoteBit    = 3 * codeSlotBits // in Code[1]
	codeSlotsTotal = 12
)

// codeKinds is the order of kinds in a code.
var codeKinds = [...]PieceType{King, Rook, Bishop, Gold, Silver, Pawn}

// Code returns the position's exact code.
func (p *Position) Code() Code {
	var slots [numPieceTypes][SetCount]uint64
	var n [numPieceTypes]int
	for s := Square(0); s < NumSquares; s++ {
		pc := p.board[s]
		if pc == NoPiece {
			continue
		}
		pt := pc.Type()
		base := pt.Unpromoted()
		v := uint64(s)<<2 | uint64(pc.Color())
		if pt.IsPromoted() {
			v |= 2
		}
		slots[base][n[base]] = v
		n[base]++
	}
	for c := Sente; c <= Gote; c++ {
		for _, pt := range HandTypes {
			for range p.hand[c][pt] {
				slots[pt][n[pt]] = codeInHand<<2 | uint64(c)
				n[pt]++
			}
		}
	}
	var code Code
	for i, pt := range codeKinds {
		for ; n[pt] < SetCount; n[pt]++ {
			slots[pt][n[pt]] = codeAbsent << 2
		}
		a, b := slots[pt][0], slots[pt][1]
		if a > b {
			a, b = b, a
		}
		code.setSlot(2*i, a)
		code.setSlot(2*i+1, b)
	}
	if p.stm == Gote {
		code[1] |= 1 << codeGoteBit
	}
	return code
}

func (c *Code) setSlot(i int, v uint64) {
	if i < codeSlotsInLo {
		c[0] |= v << (codeSlotBits * i)
	} else {
		c[1] |= v << (codeSlotBits * (i - codeSlotsInLo))
	}
}

func (c Code) slot(i int) uint64 {
	if i < codeSlotsInLo {
		return c[0] >> (codeSlotBits * i) & (1<<codeSlotBits - 1)
	}
	return c[1] >> (codeSlotBits * (i - codeSlotsInLo)) & (1<<codeSlotBits - 1)
}

// Decode returns the position with this code, with move number 1. A code that no legal
// position has (a bad location, two pieces on a square, a promoted king or gold, a promoted
// piece in hand, stray bits, or anything ParseSFEN would reject) is an error.
func (c Code) Decode() (Position, error) {
	var p Position
	if c[1]>>(codeGoteBit+1) != 0 || c[0]>>(codeSlotBits*codeSlotsInLo) != 0 {
		return p, fmt.Errorf("minishogi: code %016x%016x: stray bits beyond the 85 used", c[1], c[0])
	}
	p.stm = Color(c[1] >> codeGoteBit & 1)
	p.moveNum = 1
	for i := range codeSlotsTotal {
		pt := codeKinds[i/2]
		v := c.slot(i)
		if i%2 == 1 && c.slot(i-1) > v {
			return p, fmt.Errorf("minishogi: code %016x%016x: the two %s slots are not in order", c[1], c[0], pt)
		}
		loc, promoted, owner := v>>2, v>>1&1 == 1, Color(v&1)
		switch {
		case loc == codeAbsent && v&3 == 0:
		case loc == codeInHand && !promoted:
			p.hand[owner][pt]++
		case loc < NumSquares && (!promoted || pt.CanPromote()):
			s := Square(loc)
			if p.board[s] != NoPiece {
				return p, fmt.Errorf("minishogi: code %016x%016x: two pieces on %s", c[1], c[0], s)
			}
			if promoted {
				pt = pt.Promoted()
			}
			p.put(NewPiece(owner, pt), s)
		default:
			return p, fmt.Errorf("minishogi: code %016x%016x: slot %d (%s) holds no valid piece", c[1], c[0], i, pt)
		}
	}
	if err := p.validate(); err != nil {
		return p, fmt.Errorf("minishogi: code %016x%016x: %w", c[1], c[0], err)
	}
	p.hash = p.computeHash()
	return p, nil
}
