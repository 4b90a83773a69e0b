// Package viewer serves game records, opening trees, matches and mate proofs as web pages,
// offline and from one binary: the server behind cmd/view.
//
// A tour:
//
//	s, err := viewer.New([]string{"games.jsonl.gz", "datasets/handicap/bare-king.proof"}, viewer.Options{})
//	http.ListenAndServe("127.0.0.1:8080", s.Handler("127.0.0.1:8080"))
//	stats, err := s.Export("site", 20000, nil) // the same pages as static files
//
// New reads each file once. Record files (JSON Lines, plain or gzip) and games tables are
// indexed: each game keeps a few dozen bytes (its players, result, termination, length,
// start, and where its record is: record.Locate), so the games list filters and pages a
// hundred thousand games by scanning integers, and a game page reads its one record again
// (record.ReadAt). The opening explorer is package openings' tree, built by the same stream
// and checks as analyze openings, so its numbers are that command's. A directory is a match
// (cmd/match --out): its records are counted in pairs with package sprt, the SPRT run pair by
// pair for a chart of its log-likelihood ratio. Proofs and certificates (solver.WriteProof,
// solver.WriteCertificate) are read and checked with the solver's checkers, and walked as a
// tree of lines: the file's move where it has one, every legal move (the rules' move
// generator) where it has none, and for a proof the plies to mate after each move.
//
// Pages. A route names each page; the server reads routes from URLs and the export writes
// them as files, and every link is made from a route, so both show the same pages. The board
// is SVG drawn here (board.go), with kanji or Latin letters; the one script (assets/view.js)
// steps through a game's frames, which the page carries as data. Assets and templates are
// embedded: nothing is fetched from elsewhere.
//
// Safety. The server is read-only and serves only what it was given: a URL names a game, a
// file or a line of moves by number or by move, never by path; numbers are bounded, moves
// spelled as USI and replayed with the rules; addresses and queries are bounded in length;
// only GET and HEAD are answered; on a loopback address a request naming another host is
// refused (a web page cannot reach the server by DNS rebinding); every page forbids loading
// anything from elsewhere (Content-Security-Policy). A damaged file does not stop the server:
// its bad records are skipped and counted, and its page says what is wrong.
//
// The viewer reads records, tables, proofs and analyses; it imports no engine
// (docs/architecture.md#import-rules).
package viewer
