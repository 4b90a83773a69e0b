// Package engine is the Minishogi engine that cmd/usi serves over USI: it holds the game
// (start position and moves), answers `go perft` and `d`, and searches on `go`.
package engine
