package mcts

// Move is a game's move packed in an integer; only the game interprets it.
type Move uint32

// Game is a position of a two-player zero-sum game with alternating moves.
// Not safe for concurrent use; the search clones one per goroutine.
//
// The search walks the tree by playing moves on its clone and taking them back
// with Undo, so Play and Undo should be cheap; Clone is called only a few
// times per search.
type Game interface {
	LegalMoves(dst []Move) []Move        // appends the side to move's legal moves to dst
	Play(m Move)                         // makes a legal move
	Undo()                               // takes back the last move played
	Outcome() (over bool, value float32) // if over: +1 win, 0 draw, -1 loss for the side to move
	Hash() uint64                        // identifies the position (history-relevant state included)
	Clone() Game                         // independent copy, history included
	MoveString(m Move) string            // human/USI notation of a move
}

// Repeater is a Game in which a position can recur, for Config.RepetitionLeaves.
type Repeater interface {
	// Repeats reports whether the current position occurred before in the game (the
	// moves before the search's root included), and if so the value, for the side to
	// move, of the game ending there by the game's repetition rule.
	Repeats() (repeats bool, value float32)
}
