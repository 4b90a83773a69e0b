// Package retro is the project's generic retrograde solver: it enumerates the positions of a
// two-player game reachable from given roots and labels each as a win, loss or draw for the
// side to move, with the distance to the end under optimal play.
//
// # Describing a game
//
// A game is a small table of functions (after GamesmanOne's tier solver API), the Rules
// interface: Code (an exact comparable code such as uint16 or [2]uint64; dedup is by the code
// itself, never by a hash alone), Children (the positions after each move, in move order) and
// Terminal (the value where the game is over). A game that numbers its positions densely
// also implements DenseRules, and the solver indexes by slice instead of map. A game may make
// Code canonical under its symmetries; one representative of each class is then stored.
//
// # Solving
//
//	gr := retro.Enumerate(game, []S{root}, retro.Options{}) // BFS layers, deduplicated
//	sol := gr.Solve(nil)                                    // win/loss/draw and distances
//	slot, _ := gr.Best(sol, 0)                              // an optimal move from the root
//
// Enumerate walks breadth first, so gr.Layers() gives the positions first reached after each
// ply; Options.MaxPly bounds the walk, and positions whose value depends on the unexpanded
// horizon are then outcome.Unknown while all other labels stay exact. The graph keeps successor and
// predecessor lists in compressed form. Solve is the classical backward induction on a
// cyclic graph: losses and wins propagate from the terminal positions breadth first, so the
// winner's distance is the shortest and the loser's the longest; positions never reached are
// draws (neither side can force an end). A Graph and a Solution can be rebuilt and re-solved
// in place (Build, Solve(sol)), which makes thousands of small solves nearly allocation-free.
//
// # Extending
//
// Bounded mate search (an attacker who must mate, a defender who only needs to survive) fits
// beside Solve: enumerate from the root with Options.MaxPly or with a Children that lists only
// the attacker's checks, give Terminal the mate and escape rules, and label with attacker and
// defender roles instead of the symmetric win/loss of Solve; the graph, its predecessor lists
// and the FIFO propagation are reusable as they are. Keep the invariants: node numbers follow
// the BFS order, Children(i) is in the game's move order (so a slot maps back to a move), and
// Parents lists a parent once per move that leads to the child.
package retro
