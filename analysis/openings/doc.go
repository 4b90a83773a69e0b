// Package openings builds the opening tree of a set of Minishogi games: every
// move sequence up to a chosen depth with the games that followed it, their
// results from Sente's side (with a Wilson 95% interval of Sente's score) and
// their mean length, and the same merged through transpositions, by the
// position reached.
//
//	tree := openings.NewTree(6)
//	for each game g { if err := tree.Add(g); err != nil { ... } } // replays the first 6 plies
//	for _, l := range tree.Lines(10) { fmt.Println(l.Moves, l.Games, l.Score) }  // most played first
//	for _, p := range tree.Positions(10) { ... }                                   // by position
//
// Memory grows with the number of distinct lines up to the depth, never with
// the number of games: a game is folded into the counters of the nodes it
// passes and then dropped, so a million games stream through in the memory
// of their opening tree.
//
// Lines are identified by their USI moves; positions by the rules package's
// 64-bit Zobrist hash of board, hands and side to move. Two different
// positions share a hash with probability about n²/2⁶⁵ for n positions
// (3·10⁻⁸ for a million), which is far below every other error of the
// statistics. A position is counted once per game, so the few games that
// repeat a position within the depth are not counted twice.
//
// PlotFirstMoves and PlotTopLines draw the tree for papers.
package openings
