package mawari

import "math/rand/v2"

// seedStream is the PCG stream every game draws from; a game's seed alone chooses its
// sequence of throws, so any game can be replayed from its seed.
const seedStream = 0x6d6177617269 // "mawari" in ASCII

// NewRand returns the random source used for seed.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seedStream)) }

// Game is a game in progress. Players throw in seat order, seat 0 first.
type Game struct {
	rules   Rules
	thrower *Thrower
	pieces  []Piece
	turns   int
	winner  int
}

// NewGame starts a game under r with landing probabilities p, its throws drawn from seed.
func NewGame(r Rules, p Probabilities, seed uint64) (*Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Game{
		rules:   r,
		thrower: NewThrower(p, r.Spoil, NewRand(seed)),
		pieces:  make([]Piece, r.Players),
		winner:  -1,
	}, nil
}

// Turn is one player's throw and its effect.
type Turn struct {
	Seat  int
	Throw Throw
	Move  Move
	Piece Piece // after the move
	Won   bool
}

// Next plays the next player's turn. It panics if the game is over.
func (g *Game) Next() Turn {
	if g.winner >= 0 {
		panic("mawari: Next called after the game was won")
	}
	seat := g.turns % len(g.pieces)
	t := g.thrower.Throw()
	m := g.rules.MoveOf(t)
	pc, won := g.rules.Advance(g.pieces[seat], m)
	g.pieces[seat] = pc
	g.turns++
	if won {
		g.winner = seat
	}
	return Turn{Seat: seat, Throw: t, Move: m, Piece: pc, Won: won}
}

// Winner is the winning seat, or -1 while the game goes on.
func (g *Game) Winner() int { return g.winner }

// Turns is the number of throws made so far.
func (g *Game) Turns() int { return g.turns }

// Piece is the piece of the player in seat.
func (g *Game) Piece(seat int) Piece { return g.pieces[seat] }

// Result is how a finished game went.
type Result struct {
	Winner int // seat, 0 moved first
	Turns  int // throws by all players, the winner's last throw included
}

// Rounds is the number of the round in which the game was won (the winner's own number of
// turns).
func (res Result) Rounds(players int) int { return (res.Turns + players - 1) / players }

// Play plays a whole game from seed. A game ends with probability one, since a positive
// move is always possible and every corner stop is reachable from every square.
func Play(r Rules, p Probabilities, seed uint64) (Result, error) {
	g, err := NewGame(r, p, seed)
	if err != nil {
		return Result{}, err
	}
	for g.Winner() < 0 {
		g.Next()
	}
	return Result{Winner: g.Winner(), Turns: g.Turns()}, nil
}

// TurnsToWin plays one piece alone until it wins and returns how many throws that took:
// the quantity whose distribution the game length and the seats' chances derive from.
func TurnsToWin(r Rules, th *Thrower) int {
	var pc Piece
	for turns := 1; ; turns++ {
		var won bool
		pc, won = r.Advance(pc, r.MoveOf(th.Throw()))
		if won {
			return turns
		}
	}
}
