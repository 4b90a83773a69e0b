// Package usi speaks the Universal Shogi Interface (USI), the engine protocol of shogi and
// Minishogi GUIs, from both ends.
//
// The server side (Server, Engine) runs our engine behind stdin and stdout:
//
//	srv := usi.NewServer(engine.New(), os.Stdout)
//	srv.Serve(os.Stdin)
//
// The server reads its input in a goroutine of its own, as the USI specification asks ("the
// engine must always be able to process input from stdin, even while thinking"): during a
// search it answers `isready` at once, acts on `stop`, `ponderhit`, `quit` and `gameover`,
// and holds the other commands until the search ends. `go ponder` searches until `ponderhit`
// (then within its limits) or `stop`; `go mate MS|infinite` is Shogidokoro's tsume search,
// answered with `checkmate MOVES`, `checkmate nomate`, `checkmate timeout`, or `checkmate
// notimplemented` for an Engine that is not a Mater. Beyond standard USI it answers `go perft
// N` with one `MOVE: COUNT` line per legal move and `Nodes searched: N`, and `d` with a
// picture of the position, as Fairy-Stockfish does. A malformed command, an illegal move or a
// line over MaxLineBytes gets `info string error: ...` and the engine keeps its previous
// state.
//
// The messages both ends speak (messages.go) are each written and read in one place: Option
// (an `option` line: Format, ParseOption, Check), SearchInfo (`info`: Format, ParseInfo),
// GoParams (`go`: Format, ParseGo) and BestMove (Format, ParseBestMove). An Engine reports
// its search as SearchInfo values, which the server formats.
//
// The client side (Client) starts an external engine, such as Debian's fairy-stockfish, and
// drives it with timeouts, so that a dead or silent engine is an error and never a hang:
//
//	c, err := usi.Start(ctx, []string{"/usr/games/fairy-stockfish"})
//	info, err := c.Handshake(ctx)
//	err = c.SetOption("UCI_Variant", "minishogi")
//	err = c.Position("", []string{"2e3d"})
//	best, err := c.Go(ctx, usi.GoParams{MoveTime: 100 * time.Millisecond}, func(in usi.SearchInfo) { ... })
//
// StartVariant does the first steps (Start, Handshake, UCI_Variant, the first isready) at once.
//
// Protocol reference: the USI specification (Tord Romstad, 2007) with the Shogidokoro GUI's
// extensions (`byoyomi`, `gameover`, `go mate` and `checkmate`), and Fairy-Stockfish's
// variant extensions (`UCI_Variant`, `go perft`).
package usi
