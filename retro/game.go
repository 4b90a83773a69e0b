package retro

import "github.com/shogilab/shogilab/outcome"

// Rules are a two-player game with alternating moves as the solver needs it: not a game in
// progress (mcts.Game) but a small table of functions of a position, in the manner of
// GamesmanOne's tier solver API. S is a position; K is an exact,
// compact code for it (for example uint16, or [2]uint64 for a 128-bit Minishogi code).
//
// Code must be exact: two positions with equal codes are the same position for the game
// (the solver deduplicates by the code itself, not by a hash of it). A game may make Code
// canonical, mapping symmetric positions (same value) to one code; the solver then stores one
// representative per class, and moves read off it are moves of that representative.
type Rules[S any, K comparable] interface {
	// Code returns the position's exact code.
	Code(s S) K
	// Children appends to dst the positions after each legal move of s, in move order, and
	// returns the extended slice. It is not called on terminal positions.
	Children(s S, dst []S) []S
	// Terminal reports whether the game is over in s and, if so, its value for the side to
	// move. A non-terminal position without children is a loss for the side to move (as in
	// shogi, where a player with no legal move loses).
	Terminal(s S) (v outcome.Value, over bool)
}

// DenseRules is an optional extension of Rules for games whose positions are numbered densely:
// DenseCode(s) is in [0, CodeSpace()) and equal exactly when Code is equal. The solver then
// indexes positions with a slice instead of a map, which makes repeated small solves cheap.
type DenseRules[S any] interface {
	CodeSpace() int
	DenseCode(s S) int
}
