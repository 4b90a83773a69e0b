// Package notation writes Minishogi game records (package record) in the
// two text formats shogi software reads: KIF (Kakinoki's format, read by
// lishogi, ShogiGUI, Shogidokoro, KifuBrowser) and CSA (the Computer Shogi
// Association's format, version 2.2).
//
// A tour:
//
//	kif, err := notation.KIF(game)   // 手合割：5五将棋, then "   1 ２四銀(25)" lines
//	csa, err := notation.CSA(game)   // V2.2, a 5x5 board P1..P5, "+2524GI" lines
//
// Both replay the moves with the rules (a record whose moves are not legal
// is an error), because a move's notation needs the piece on its origin.
//
// The 5x5 dialects. KIF: the normal start is the handicap line
// "手合割：5五将棋", the name lishogi's importer (shogiops) maps to
// Minishogi's start; any other start is a board diagram of five files and
// five ranks (lishogi takes the board size from the diagram). Coordinates
// are the usual ones: file 5..1, rank 一..五. CSA: the board lines P1..P5
// hold five cells each, files 5..1; squares are file then rank digits
// (55 is 5e), as 9x9 CSA would number the same squares.
//
// A game's end is written as the format's special move (KIF 詰み, 投了,
// 千日手, 反則勝ち/反則負け, 切れ負け, 持将棋; CSA %TSUMI, %TORYO,
// %SENNICHITE, %+ILLEGAL_ACTION/%-ILLEGAL_ACTION, %TIME_UP, %HIKIWAKE) and
// the record's exact termination is kept in a comment.
//
// Errors are prefixed "notation:".
package notation
