package bushiplay

import (
	"github.com/shogilab/shogilab/outcome"
	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/bushi"
)

// Result is the outcome of a position under perfect play.
type Result uint8

// The results. Draw means neither side can force a mate.
const (
	Draw Result = iota
	BlackWins
	WhiteWins
)

// String returns "draw", "black" or "white", the words of the solve command's JSON.
func (r Result) String() string {
	return [...]string{"draw", "black", "white"}[r]
}

// resultOf turns a value for the side to move into who wins.
func resultOf(v outcome.Value, toMove bushi.Color) Result {
	switch v {
	case outcome.Win:
		return BlackWins + Result(toMove)
	case outcome.Loss:
		return WhiteWins - Result(toMove)
	}
	return Draw
}

// game is Bushi shogi for one layout, seen by the retrograde solver. Not safe for concurrent
// use (it keeps a move buffer).
type game struct {
	rules *bushi.Rules
	moves []bushi.Move
}

func (g *game) Code(p bushi.Position) uint16   { return uint16(p.Code()) }
func (g *game) CodeSpace() int                 { return bushi.NumPositions }
func (g *game) DenseCode(p bushi.Position) int { return p.Code() }

// Children follows LegalMoves' order, so a child's slot is the index of its move.
func (g *game) Children(p bushi.Position, dst []bushi.Position) []bushi.Position {
	g.moves = g.rules.LegalMoves(p, g.moves[:0])
	for _, m := range g.moves {
		dst = append(dst, g.rules.Play(p, m))
	}
	return dst
}

// Terminal: a mated position is lost for the side to move, who did not make the mating move.
func (g *game) Terminal(p bushi.Position) (outcome.Value, bool) {
	if _, over := g.rules.Winner(p); over {
		return outcome.Loss, true
	}
	return outcome.Unknown, false
}

// Solution is Bushi shogi solved for one layout: the value of every one of the
// bushi.NumPositions positions.
type Solution struct {
	game  game
	graph retro.Graph[bushi.Position, uint16]
	sol   *retro.Solution
}

// Solve solves the game of r from every position: the empty board, each half-finished setup
// and all 24·24·2 positions of play, whether or not the empty board reaches them.
func Solve(r *bushi.Rules) *Solution {
	roots := make([]bushi.Position, bushi.NumPositions)
	for c := range roots {
		roots[c] = bushi.PositionFromCode(c)
	}
	s := &Solution{game: game{rules: r}}
	s.graph.Build(&s.game, roots, retro.Options{})
	s.sol = s.graph.Solve(nil)
	return s
}

// Rules returns the rules solved.
func (s *Solution) Rules() *bushi.Rules { return s.game.rules }

func (s *Solution) node(p bushi.Position) int {
	i, ok := s.graph.Find(p)
	if !ok {
		panic("bushiplay: position missing from a complete solution: " + p.String())
	}
	return i
}

// Value returns p's value for the side to move and its distance in plies (−1 for a draw).
func (s *Solution) Value(p bushi.Position) (outcome.Value, int) {
	i := s.node(p)
	return s.sol.Value[i], int(s.sol.Dist[i])
}

// Result returns who wins p under perfect play.
func (s *Solution) Result(p bushi.Position) Result {
	return resultOf(s.sol.Value[s.node(p)], p.ToMove)
}

// BestMove returns an optimal move in p (the fastest win, the longest resistance, or a move
// that keeps the draw); false if the game is over in p.
func (s *Solution) BestMove(p bushi.Position) (bushi.Move, bool) {
	slot, ok := s.graph.Best(s.sol, s.node(p))
	if !ok {
		return 0, false
	}
	return s.game.rules.LegalMoves(p, nil)[slot], true
}

// Rating returns the value, for the mover, of playing m in p: the negation of the value of
// the position it leads to, with that position's distance plus one.
func (s *Solution) Rating(p bushi.Position, m bushi.Move) (outcome.Value, int) {
	v, d := s.Value(s.game.rules.Play(p, m))
	if d >= 0 {
		d++
	}
	return v.Negate(), d
}

// Line returns an optimal line from p: up to maxPlies moves, stopping at mate.
func (s *Solution) Line(p bushi.Position, maxPlies int) []bushi.Move {
	var line []bushi.Move
	for range maxPlies {
		m, ok := s.BestMove(p)
		if !ok {
			break
		}
		line = append(line, m)
		p = s.game.rules.Play(p, m)
	}
	return line
}

// Counts tallies positions by result.
type Counts struct {
	BlackWins int `json:"black_wins"`
	WhiteWins int `json:"white_wins"`
	Draws     int `json:"draws"`
}

func (c *Counts) add(r Result) {
	switch r {
	case BlackWins:
		c.BlackWins++
	case WhiteWins:
		c.WhiteWins++
	default:
		c.Draws++
	}
}

// PlayCounts tallies the 24·24·2 positions of play by result, and separately the positions a
// legal setup can produce (both cubes placed without check, Black to move).
func (s *Solution) PlayCounts() (all, afterSetup Counts) {
	r := s.game.rules
	for b := range bushi.Orientation(bushi.NumOrientations) {
		for w := range bushi.Orientation(bushi.NumOrientations) {
			for _, side := range []bushi.Color{bushi.Black, bushi.White} {
				p := bushi.Position{Phase: bushi.Playing, Cube: [2]bushi.Orientation{b, w}, ToMove: side}
				res := s.Result(p)
				all.add(res)
				if side == bushi.Black && !r.Checks(b) && !r.Checks(w) {
					afterSetup.add(res)
				}
			}
		}
	}
	return all, afterSetup
}

// Layers returns the number of positions first reached after each ply from the empty board,
// and the total reachable.
func Layers(r *bushi.Rules) (perPly []int, reachable int) {
	g := game{rules: r}
	gr := retro.Enumerate[bushi.Position, uint16](&g, []bushi.Position{bushi.Start()}, retro.Options{})
	return gr.Layers(), gr.Len()
}

// rootSolver solves only the empty board's value, reusing its memory between layouts; the
// study of every layout runs one per worker.
type rootSolver struct {
	game  game
	graph retro.Graph[bushi.Position, uint16]
	sol   retro.Solution
	roots [1]bushi.Position
}

// solve returns who wins layout r's game from the empty board, and in how many plies.
func (rs *rootSolver) solve(r *bushi.Rules) (Result, int) {
	rs.game.rules = r
	rs.roots[0] = bushi.Start()
	rs.graph.Build(&rs.game, rs.roots[:], retro.Options{})
	rs.graph.Solve(&rs.sol)
	return resultOf(rs.sol.Value[0], bushi.Black), int(rs.sol.Dist[0])
}
