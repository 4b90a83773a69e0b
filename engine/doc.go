// Package engine is the shogilab Minishogi engine: a Monte Carlo tree search (package mcts)
// guided by the evaluator of package engine/eval, usable directly from Go (Player) and over
// USI (Engine, which cmd/usi serves).
//
// A tour:
//
//	cfg := engine.DefaultPlayerConfig()          // mcts.Config + eval.Config
//	cfg.Search.Seed = 1                           // every random choice flows from it
//	p, err := engine.NewPlayer(cfg)               // allocates the node pool once
//	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
//	d, err := p.Think(ctx, g, mcts.Limits{Playouts: 2000})
//	g.Play(d.Move)                                // d also has Value, Score, PV, Top (visits per move)
//
// For self-play set cfg.Search.DirichletEpsilon (root noise) and TemperaturePlies (moves
// drawn by visit counts), and call p.NewGame(seed) before each game: with one search
// goroutine and playout limits a game is then a function of its seed. Think reuses the tree
// of the previous call when the new position follows from it.
//
// Game adapts a Minishogi game to mcts.Game: Play and Undo keep the minishogi.History that
// the repetition rules of docs/rules.md#repetition judge (fourth occurrence, perpetual check,
// the first-mover-loses default), behind a filter by hash bucket, and allocate nothing;
// Outcome counts no legal move as a loss.
//
// Engine is the USI side: `go` with nodes, movetime, byoyomi, btime/wtime/binc/winc (a
// twentieth of the remaining time plus increment and byoyomi, less MoveOverhead) or
// infinite until `stop`; info lines with depth, seldepth, nodes (playouts), nps, hashfull,
// score cp or mate, and pv. Its options are the settings table (AllSettings, in
// settings.go): each setting is declared there once, with its USI name, type, range, default
// and doc, and the same names are the keys of a player spec in package selfplay (USI_Hash is
// checked against the machine's memory; USI_Ponder makes bestmove name the reply to ponder
// on). It answers `bestmove resign` only when every move is proven lost, and not even then
// with Resign=never (it plays the longest resistance); it never claims a win. `go mate` (Mate) is a tsume search by df-pn (package retro) over checking moves.
package engine
