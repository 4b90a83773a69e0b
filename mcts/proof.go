package mcts

import (
	"fmt"

	"github.com/shogilab/shogilab/outcome"
)

// MaxProofPlies is the largest distance a Proof records; longer distances
// are stored as MaxProofPlies (the proof itself stays valid).
const MaxProofPlies = 1<<proofPliesBits - 1

// Proof is a proven result and its distance in plies to the end of the game.
// For a win the distance is an upper bound: the search proves a win as soon as
// one winning move is proven, which need not be the fastest. For a loss it is
// the longest resistance among the moves the search proved.
type Proof struct {
	Outcome outcome.Value
	Plies   int
}

func (p Proof) String() string {
	if p.Outcome == outcome.Unknown {
		return "unknown"
	}
	return fmt.Sprintf("%s in %d", p.Outcome, p.Plies)
}

// Value is the proven result as a value for the side to move: +1, -1 or 0.
func (p Proof) Value() float32 {
	switch p.Outcome {
	case outcome.Win:
		return 1
	case outcome.Loss:
		return -1
	}
	return 0
}

// parent is this proof, held by the position after a move, seen from the
// position before it: the mover's opponent wins where the mover loses.
func (p Proof) parent() Proof {
	q := Proof{Outcome: p.Outcome, Plies: min(p.Plies+1, MaxProofPlies)}
	switch p.Outcome {
	case outcome.Win:
		q.Outcome = outcome.Loss
	case outcome.Loss:
		q.Outcome = outcome.Win
	case outcome.Unknown:
		return Proof{}
	}
	return q
}

// outcomeProof is the proof of a finished game with the given Outcome value.
func outcomeProof(value float32) Proof {
	switch {
	case value > 0:
		return Proof{Outcome: outcome.Win}
	case value < 0:
		return Proof{Outcome: outcome.Loss}
	}
	return Proof{Outcome: outcome.Draw}
}
