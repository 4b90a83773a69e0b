// Package outcome names the game-theoretic value of a position for the side to move: a win,
// a loss or a draw with best play from both sides, or unknown. It is the one word the
// searches share (docs/architecture.md#concepts): the retrograde solver labels positions with
// it (retro), the Monte Carlo tree search records what it has proven with it (mcts), and the
// evaluators report their proofs in it. It imports nothing, so any package may use it.
package outcome

import "fmt"

// Value is the game-theoretic value of a position for the side to move.
//
// The zero value is Unknown, so a fresh table of values reads "not known yet". The four
// values fit in two bits, which mcts packs beside other fields of a tree node.
type Value uint8

// The values.
const (
	// Unknown: the search or enumeration has not decided the position (in a bounded
	// enumeration, its fate lies beyond the ply bound).
	Unknown Value = iota
	Loss          // the side to move loses with best play
	Draw          // best play from both sides ends in a draw
	Win           // the side to move wins with best play
)

// String returns "unknown", "loss", "draw" or "win".
func (v Value) String() string {
	switch v {
	case Unknown:
		return "unknown"
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return fmt.Sprintf("outcome.Value(%d)", uint8(v))
}

// Negate returns the value for the other player: a win for one side is a loss for the other;
// a draw and an unknown stay as they are.
func (v Value) Negate() Value {
	switch v {
	case Loss:
		return Win
	case Win:
		return Loss
	}
	return v
}
