// Package minishogi implements the rules of Minishogi (5x5 shogi, Kusumoto 1970) as stated in
// docs/rules.md#minishogi: positions with bitboards and an incremental Zobrist hash, an exact legal
// move generator (promotion choices, forced promotion, drops, nifu, uchifuzume), SFEN and USI
// notation, perft, handicap start positions, and games with the repetition,
// perpetual-check and play-limit rules.
//
// A tour:
//
//	pos := minishogi.StartPosition()          // or ParseSFEN, or Handicap("bare-king")
//	var ml minishogi.MoveList
//	pos.GenerateLegal(&ml)                     // 14 moves from the start
//	m, err := pos.ParseMove("2e3d")            // USI notation; an illegal move is an error
//	u := pos.MakeMove(m)                       // play it ...
//	pos.UnmakeMove(m, u)                       // ... and take it back
//	fmt.Println(pos.SFEN(), pos.Perft(4))      // rbsgk/4p/5/P4/KGSBR b - 1 35401
//
//	g := minishogi.NewGame(pos, minishogi.GameOptions{MaxPlies: 200})
//	err = g.PlayUSI("2e3d")                    // g.Result() tells when and why the game ends
//
// Squares are numbered 0 (5a, Gote's side, left as Sente sees the board) to 24 (1e); a
// Bitboard holds one bit per square in a uint32. Moves are packed in 16 bits. The hot code
// is in movegen.go; the rest is written for the reader.
//
// Where Fairy-Stockfish and this package differ: Fairy-Stockfish generates a pawn drop that
// mates and only scores it as a loss, so its perft counts such drops where they are leaves;
// this package never generates them (shogiops agrees), so its counts can be lower.
package minishogi
