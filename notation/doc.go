// Package notation writes Minishogi game records (package record) in the
// two text formats shogi software reads: KIF (Kakinoki's format, read by
// lishogi, ShogiGUI, Shogidokoro, KifuBrowser) and CSA (the Computer Shogi
// Association's format, version 2.2).
//
// A tour:
//
//	kif, err := notation.KIF(game)   // 手合割：5五将棋, then "   1 ２四銀(25)   ( 0:01/00:00:01)" lines
//	csa, err := notation.CSA(game)   // V2.2, a 5x5 board P1..P5, "+2524GI" and "T1" lines
//	w, err := notation.NewWriter(out, notation.KIFFormat) // many games in one file
//	for _, g := range games { err = w.Write(g) }
//
// Both replay the moves with the rules (a record whose moves are not legal
// is an error), because a move's notation needs the piece on its origin.
// Every move has its time, in whole seconds from the record's stats[].ms
// (0 where the record has none): KIF's time column with the mover's total,
// CSA's T line. Where the record has the mover's search statistics, a
// comment follows the move (KIF "*", CSA "'"): "value 0.120, visits 800,
// score_cp 120, mate 3; top 2e3d 410, 5d5c 200", the record's own fields.
//
// A file of many games (Writer): KIF games one after another, separated by
// a blank line, each whole from its #KIF line, so that cutting the file
// before each #KIF line gives games a GUI opens (a test reads such a file
// back with lishogi's shogiops); CSA games separated by a line "/", as the
// CSA standard joins records.
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
