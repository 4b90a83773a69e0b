package bushiplay

import (
	"context"
	"fmt"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/bushi"
)

// RepetitionLimit is the number of times a position may occur in a game played through
// Game: when it occurs for the RepetitionLimit-th time the game is drawn. The rules define no
// draw (docs/rules.md#bushi-draws); three is chess's and Go engines' usual
// choice. It does not change any value the solver finds: a side that can force mate can do so
// without repeating a position, and a side that cannot is held to a draw either way.
const RepetitionLimit = 3

// Game is Bushi shogi as an mcts.Game: a position with its history, drawn at the
// RepetitionLimit-th occurrence of a position.
type Game struct {
	rules   *bushi.Rules
	pos     bushi.Position
	history []bushi.Position
	seen    [bushi.NumPositions]uint8 // occurrences so far of each position, the current one included
}

// NewGame returns the game of r from the empty board.
func NewGame(r *bushi.Rules) *Game {
	g := &Game{rules: r, pos: bushi.Start()}
	g.seen[g.pos.Code()] = 1
	return g
}

// Position returns the current position.
func (g *Game) Position() bushi.Position { return g.pos }

// LegalMoves implements mcts.Game.
func (g *Game) LegalMoves(dst []mcts.Move) []mcts.Move {
	var buf [bushi.NumOrientations]bushi.Move
	for _, m := range g.rules.LegalMoves(g.pos, buf[:0]) {
		dst = append(dst, mcts.Move(m))
	}
	return dst
}

// Play implements mcts.Game.
func (g *Game) Play(m mcts.Move) {
	g.history = append(g.history, g.pos)
	g.pos = g.rules.Play(g.pos, bushi.Move(m))
	g.seen[g.pos.Code()]++
}

// Undo implements mcts.Game.
func (g *Game) Undo() {
	g.seen[g.pos.Code()]--
	g.pos = g.history[len(g.history)-1]
	g.history = g.history[:len(g.history)-1]
}

// Outcome implements mcts.Game: a mate is lost for the side to move; a position met for the
// RepetitionLimit-th time is a draw.
func (g *Game) Outcome() (over bool, value float32) {
	if _, mated := g.rules.Winner(g.pos); mated {
		return true, -1
	}
	if g.seen[g.pos.Code()] >= RepetitionLimit {
		return true, 0
	}
	return false, 0
}

// Hash implements mcts.Game: the position's code and how often it has occurred, mixed by
// SplitMix64's finaliser (Steele, Lea and Flood 2014) so that hashes spread over 64 bits.
func (g *Game) Hash() uint64 {
	x := uint64(g.pos.Code()) | uint64(g.seen[g.pos.Code()])<<16
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Clone implements mcts.Game.
func (g *Game) Clone() mcts.Game {
	c := *g
	c.history = append([]bushi.Position(nil), g.history...)
	return &c
}

// MoveString implements mcts.Game.
func (g *Game) MoveString(m mcts.Move) string { return bushi.Move(m).String() }

// Searcher chooses moves with MCTS (random playouts, one goroutine, a fixed playout budget),
// reproducibly from its seed.
type Searcher struct {
	rules    *bushi.Rules
	playouts int
	search   *mcts.Searcher
}

// rolloutPlies cuts a random playout off as a draw; random play mates long before.
const rolloutPlies = 200

// NewSearcher returns a searcher for r's game that spends playouts playouts a move.
func NewSearcher(r *bushi.Rules, playouts int, seed uint64) (*Searcher, error) {
	if playouts < 1 {
		return nil, fmt.Errorf("bushiplay: %d playouts a move, want at least 1", playouts)
	}
	cfg := mcts.DefaultConfig()
	cfg.Seed = seed
	// An expansion takes one node per legal move, at most 16 in Bushi.
	cfg.MaxNodes = max(1<<12, 17*playouts)
	s, err := mcts.NewSearcher(cfg, func() mcts.Evaluator { return mcts.NewRolloutEvaluator(rolloutPlies) })
	if err != nil {
		return nil, fmt.Errorf("bushiplay: %w", err)
	}
	return &Searcher{rules: r, playouts: playouts, search: s}, nil
}

// BestMove searches the position reached from the empty board by history and returns the
// move MCTS chooses. The tree is rebuilt for each move, so each choice depends only on the
// history and the seed.
func (s *Searcher) BestMove(history []bushi.Move) (bushi.Move, error) {
	g := NewGame(s.rules)
	for _, m := range history {
		g.Play(mcts.Move(m))
	}
	if over, _ := g.Outcome(); over {
		return 0, fmt.Errorf("bushiplay: the game is over after %v", history)
	}
	s.search.Reset()
	res, err := s.search.Search(context.Background(), g, mcts.Limits{Playouts: int64(s.playouts), Ply: len(history)})
	if err != nil {
		return 0, fmt.Errorf("bushiplay: %w", err)
	}
	return bushi.Move(res.Best), nil
}
