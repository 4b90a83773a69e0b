package minishogi

import (
	"errors"
	"fmt"
)

// RepetitionRule decides a repetition (sennichite) that is not a perpetual check.
type RepetitionRule uint8

const (
	// FirstMoverLoses: the player who made the first move of the game loses (seed 001;
	// Sente in an even game, Gote in a handicap game). The default.
	FirstMoverLoses RepetitionRule = iota
	// GoteWins: Gote wins (UEC Cup, pychess).
	GoteWins
	// RepetitionDraws: the game is drawn (standard shogi).
	RepetitionDraws
)

var repetitionNames = [...]string{"first-mover-loses", "gote-wins", "draw"}

func (r RepetitionRule) String() string { return repetitionNames[r] }

// ParseRepetitionRule reads "first-mover-loses", "gote-wins" or "draw".
func ParseRepetitionRule(s string) (RepetitionRule, error) {
	for i, n := range repetitionNames {
		if s == n {
			return RepetitionRule(i), nil
		}
	}
	return 0, fmt.Errorf("minishogi: unknown repetition rule %q (want first-mover-loses, gote-wins or draw)", s)
}

// Termination says why a game ended.
type Termination uint8

const (
	NotOver Termination = iota
	Checkmate
	Stalemate // no legal move while not in check: a loss, as in shogi
	Repetition
	PerpetualCheck
	MaxPlies
	Resignation
)

var terminationNames = [...]string{"", "checkmate", "stalemate", "repetition", "perpetual_check", "max_plies", "resignation"}

func (t Termination) String() string { return terminationNames[t] }

// Result is the state of a game: over or not, and if over, the winner (or a draw) and why.
type Result struct {
	Termination Termination
	Draw        bool
	Winner      Color // meaningful when the game is over and not drawn
}

// Over reports whether the game has ended.
func (r Result) Over() bool { return r.Termination != NotOver }

// String returns "sente", "gote", "draw", or "" while the game goes on (the record format's words).
func (r Result) String() string {
	switch {
	case !r.Over():
		return ""
	case r.Draw:
		return "draw"
	}
	return r.Winner.String()
}

// GameOptions are the rule options of docs/rules.md#end-of-game that a game can switch.
type GameOptions struct {
	Repetition RepetitionRule
	MaxPlies   int // 0: no limit; reaching it is a draw
}

// Game is a game in progress: a start position, the moves played, and the result, with the
// repetition, perpetual-check and play-limit rules applied after every move.
type Game struct {
	opts    GameOptions
	start   Position
	pos     Position
	moves   []Move
	undos   []Undo
	history History
	result  Result
}

// NewGame starts a game from start.
func NewGame(start Position, opts GameOptions) *Game {
	g := &Game{opts: opts, start: start, pos: start, history: NewHistory(&start, 0)}
	g.result = g.judge()
	return g
}

// Position returns a copy of the current position.
func (g *Game) Position() Position { return g.pos }

// Start returns the start position.
func (g *Game) Start() Position { return g.start }

// Moves returns the moves played so far; the slice must not be modified.
func (g *Game) Moves() []Move { return g.moves }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return len(g.moves) }

// Options returns the game's rule options.
func (g *Game) Options() GameOptions { return g.opts }

// Result returns the current result; Result().Over() is false while the game goes on.
func (g *Game) Result() Result { return g.result }

// ErrGameOver is returned by Play after the game has ended.
var ErrGameOver = errors.New("minishogi: the game is over")

// Play plays m after checking that it is legal.
func (g *Game) Play(m Move) error {
	if g.result.Over() {
		return ErrGameOver
	}
	var ml MoveList
	g.pos.GenerateLegal(&ml)
	for _, l := range ml.Slice() {
		if l == m {
			g.play(m)
			return nil
		}
	}
	_, err := g.pos.ParseMove(m.String())
	return err
}

// PlayUSI plays a move given in USI notation.
func (g *Game) PlayUSI(s string) error {
	if g.result.Over() {
		return ErrGameOver
	}
	m, err := g.pos.ParseMove(s)
	if err != nil {
		return err
	}
	g.play(m)
	return nil
}

func (g *Game) play(m Move) {
	g.undos = append(g.undos, g.pos.MakeMove(m))
	g.moves = append(g.moves, m)
	g.history.Push(g.pos.Hash(), g.pos.InCheck())
	g.result = g.judge()
}

// Undo takes back the last move (and any result it caused).
func (g *Game) Undo() {
	n := len(g.moves)
	if n == 0 {
		return
	}
	g.pos.UnmakeMove(g.moves[n-1], g.undos[n-1])
	g.moves, g.undos = g.moves[:n-1], g.undos[:n-1]
	g.history.Pop()
	g.result = g.judge()
}

// Resign ends the game with c resigning.
func (g *Game) Resign(c Color) {
	if !g.result.Over() {
		g.result = Result{Termination: Resignation, Winner: c.Opponent()}
	}
}

// judge applies the end-of-game rules of docs/rules.md#end-of-game to the current position.
func (g *Game) judge() Result {
	stm := g.pos.SideToMove()
	var ml MoveList
	g.pos.GenerateLegal(&ml)
	if ml.N == 0 {
		if g.pos.InCheck() {
			return Result{Termination: Checkmate, Winner: stm.Opponent()}
		}
		return Result{Termination: Stalemate, Winner: stm.Opponent()}
	}
	if first, ok := g.history.FourthOccurrence(); ok {
		return g.history.JudgeRepetition(first, g.opts.Repetition)
	}
	if g.opts.MaxPlies > 0 && len(g.moves) >= g.opts.MaxPlies {
		return Result{Termination: MaxPlies, Draw: true}
	}
	return Result{}
}
