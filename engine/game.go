package engine

import (
	"math"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// seenBuckets is the size of Game's table of position counts by hash bucket. The table only
// filters: a bucket with fewer than four entries rules out a fourth occurrence without
// scanning the history. 1024 buckets keep false alarms rare in games of a few hundred plies.
const seenBuckets = 1024

// Game is a Minishogi game as the search sees it: an mcts.Game over a Position with the
// minishogi.History that the repetition rules (docs/rules.md#repetition) judge, and a
// filter over it that spares the search the scan of the history at almost every node.
// Play and Undo allocate nothing once the history has room (NewGame leaves room for
// historyRoom plies beyond the moves given). Not safe for concurrent use; Clone it.
type Game struct {
	pos     minishogi.Position
	opts    minishogi.GameOptions
	moves   []minishogi.Move
	undos   []minishogi.Undo
	history minishogi.History
	seen    [seenBuckets]uint16 // positions of the history by hash bucket
	// filterOnly makes MaybeSeen answer from the filter alone (MateHistoryFilter).
	filterOnly bool

	legal      minishogi.MoveList // legal moves of pos, valid while legalValid
	legalValid bool

	// Each search goroutine plays on a Clone of its own, and Play writes
	// both ends of the struct. Clones made one after another can sit next
	// to each other in memory; the pad keeps them off each other's cache
	// lines (two lines, as x86 fetches lines in pairs).
	_ [128]byte
}

// historyRoom is how many plies beyond the given moves the history holds without growing.
const historyRoom = 512

// NewGame returns the game from start after moves, which must be legal (they are played
// without checks; use minishogi.Game to validate moves from outside).
func NewGame(start minishogi.Position, moves []minishogi.Move, opts minishogi.GameOptions) *Game {
	n := len(moves) + historyRoom
	g := &Game{
		pos:     start,
		opts:    opts,
		moves:   make([]minishogi.Move, 0, n),
		undos:   make([]minishogi.Undo, 0, n),
		history: minishogi.NewHistory(&start, n),
	}
	g.seen[start.Hash()%seenBuckets]++
	for _, m := range moves {
		g.play(m)
	}
	return g
}

// FromGame returns the search's view of a rules game: the same start, moves and options.
func FromGame(rg *minishogi.Game) *Game {
	return NewGame(rg.Start(), rg.Moves(), rg.Options())
}

// Position returns the current position. The evaluator may make moves on it but must
// take them back.
func (g *Game) Position() *minishogi.Position { return &g.pos }

// MaybeSeen reports whether a position with this hash occurred in the game so far. A mate
// search uses it to distrust lines that could be cut short by a repetition. The filter
// answers most questions; a bucket in use is checked against the history (unless the
// player's MateHistory is MateHistoryFilter), since with some fifty positions in the game's
// 1024 buckets a mate search of a hundred moves would meet a false alarm in about half its
// searches (counted in self-play at 10,000 playouts a move), cutting lines for nothing and
// keeping the evaluation cache from recording that a position has no mate
// (engine/eval/cache.go).
func (g *Game) MaybeSeen(hash uint64) bool {
	if g.seen[hash%seenBuckets] == 0 {
		return false
	}
	if g.filterOnly {
		return true
	}
	for i := g.history.Moves(); i >= 0; i-- {
		if g.history.Hash(i) == hash {
			return true
		}
	}
	return false
}

// PliesLeft returns how many more moves the play limit allows (math.MaxInt without one).
func (g *Game) PliesLeft() int {
	if g.opts.MaxPlies <= 0 {
		return math.MaxInt
	}
	return g.opts.MaxPlies - len(g.moves)
}

// Ply returns the number of moves played since the start.
func (g *Game) Ply() int { return len(g.moves) }

// LegalMoves implements mcts.Game.
func (g *Game) LegalMoves(dst []mcts.Move) []mcts.Move {
	g.generate()
	for _, m := range g.legal.Slice() {
		dst = append(dst, mcts.Move(m))
	}
	return dst
}

func (g *Game) generate() {
	if !g.legalValid {
		g.pos.GenerateLegal(&g.legal)
		g.legalValid = true
	}
}

// Play implements mcts.Game; m must be legal.
func (g *Game) Play(m mcts.Move) { g.play(minishogi.Move(m)) }

func (g *Game) play(m minishogi.Move) {
	g.undos = append(g.undos, g.pos.MakeMove(m))
	g.moves = append(g.moves, m)
	h := g.pos.Hash()
	g.history.Push(h, g.pos.InCheck())
	g.seen[h%seenBuckets]++
	g.legalValid = false
}

// Undo implements mcts.Game.
func (g *Game) Undo() {
	n := len(g.moves)
	if n == 0 {
		panic("engine: Undo with no move played")
	}
	g.seen[g.history.Hash(n)%seenBuckets]--
	g.pos.UnmakeMove(g.moves[n-1], g.undos[n-1])
	g.moves, g.undos = g.moves[:n-1], g.undos[:n-1]
	g.history.Pop()
	g.legalValid = false
}

// Outcome implements mcts.Game with the end-of-game rules of docs/rules.md#end-of-game, in the
// order minishogi.Game applies them: no legal move loses; a fourth occurrence ends the game
// by the perpetual-check or repetition rule, judged by the history; the play limit draws.
func (g *Game) Outcome() (over bool, value float32) {
	g.generate()
	if g.legal.N == 0 {
		return true, -1
	}
	if g.seen[g.pos.Hash()%seenBuckets] >= 4 {
		if first, ok := g.history.FourthOccurrence(); ok {
			return true, g.value(g.history.JudgeRepetition(first, g.opts.Repetition))
		}
	}
	if g.opts.MaxPlies > 0 && len(g.moves) >= g.opts.MaxPlies {
		return true, 0
	}
	return false, 0
}

// value is a result's value for the side to move.
func (g *Game) value(r minishogi.Result) float32 {
	switch {
	case r.Draw:
		return 0
	case r.Winner == g.pos.SideToMove():
		return 1
	}
	return -1
}

// Repeats implements mcts.Repeater: whether the current position occurred before, and if
// so the value for the side to move of the repetition that the players could make of it,
// judged as a fourth occurrence is (docs/rules.md#repetition) with the moves since the last
// occurrence standing for the cycle repeated.
func (g *Game) Repeats() (bool, float32) {
	if g.seen[g.pos.Hash()%seenBuckets] < 2 {
		return false, 0
	}
	last, ok := g.history.PreviousOccurrence()
	if !ok {
		return false, 0
	}
	return true, g.value(g.history.JudgeRepetition(last, g.opts.Repetition))
}

// Hash implements mcts.Game: the position's hash (board, hands, side to move).
func (g *Game) Hash() uint64 { return g.pos.Hash() }

// Clone implements mcts.Game: an independent copy, history included.
func (g *Game) Clone() mcts.Game {
	c := *g
	n := len(g.moves) + historyRoom
	c.moves = append(make([]minishogi.Move, 0, n), g.moves...)
	c.undos = append(make([]minishogi.Undo, 0, n), g.undos...)
	c.history = g.history.Clone(historyRoom)
	return &c
}

// MoveString implements mcts.Game: USI notation.
func (g *Game) MoveString(m mcts.Move) string { return minishogi.Move(m).String() }
