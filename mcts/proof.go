package mcts

import "fmt"

// Status is the game-theoretic result of a position, for its side to move.
type Status uint8

const (
	Unproven Status = iota // the search does not know the result
	Win                    // the side to move wins with best play
	Loss                   // the side to move loses with best play
	Draw                   // best play from both sides ends in a draw
)

func (s Status) String() string {
	switch s {
	case Unproven:
		return "unproven"
	case Win:
		return "win"
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MaxProofPlies is the largest distance a Proof records; longer distances
// are stored as MaxProofPlies (the proof itself stays valid).
const MaxProofPlies = 1<<proofPliesBits - 1

// Proof is a proven result and its distance in plies to the end of the game.
// For a win the distance is an upper bound: the search proves a win as soon as
// one winning move is proven, which need not be the fastest. For a loss it is
// the longest resistance among the moves the search proved.
type Proof struct {
	Status Status
	Plies  int
}

func (p Proof) String() string {
	if p.Status == Unproven {
		return "unproven"
	}
	return fmt.Sprintf("%s in %d", p.Status, p.Plies)
}

// Value is the proven result as a value for the side to move: +1, -1 or 0.
func (p Proof) Value() float32 {
	switch p.Status {
	case Win:
		return 1
	case Loss:
		return -1
	}
	return 0
}

// parent is this proof, held by the position after a move, seen from the
// position before it: the mover's opponent wins where the mover loses.
func (p Proof) parent() Proof {
	q := Proof{Status: p.Status, Plies: min(p.Plies+1, MaxProofPlies)}
	switch p.Status {
	case Win:
		q.Status = Loss
	case Loss:
		q.Status = Win
	case Unproven:
		return Proof{}
	}
	return q
}

// outcomeProof is the proof of a finished game with the given Outcome value.
func outcomeProof(value float32) Proof {
	switch {
	case value > 0:
		return Proof{Status: Win}
	case value < 0:
		return Proof{Status: Loss}
	}
	return Proof{Status: Draw}
}
