package selfplay

import (
	"fmt"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/record"
)

// Standings count a match from player A's side as its games end, in any
// order: every game by result, and with Match.Pairs the complete pairs by
// the points A took from them (the pentanomial that Elo intervals and the
// SPRT are computed on). A game whose partner has not ended waits.
type Standings struct {
	match        *Match
	Games        sprt.Trinomial
	Pairs        sprt.Pentanomial
	Terminations map[record.Termination]int
	Plies        int
	waiting      map[int]float64 // A's points in the ended game of an unfinished pair, by pair
}

// NewStandings returns empty standings of m's games.
func NewStandings(m *Match) *Standings {
	return &Standings{match: m, Terminations: map[record.Termination]int{}, waiting: map[int]float64{}}
}

// Add counts a finished game of the match and reports whether it completed
// a pair.
func (s *Standings) Add(g *record.Game) (pairDone bool) {
	a := s.match.ScoreA(g)
	switch a {
	case 1:
		s.Games.Wins++
	case 0:
		s.Games.Losses++
	default:
		s.Games.Draws++
	}
	s.Terminations[g.Termination]++
	s.Plies += g.Plies
	if !s.match.Pairs {
		return false
	}
	pair := g.ID / 2
	first, ok := s.waiting[pair]
	if !ok {
		s.waiting[pair] = a
		return false
	}
	delete(s.waiting, pair)
	s.Pairs.Add(first + a)
	return true
}

// Played is the number of games counted.
func (s *Standings) Played() int { return s.Games.Wins + s.Games.Draws + s.Games.Losses }

// Estimate is A's score and Elo: from the complete pairs with Match.Pairs,
// from the games otherwise.
func (s *Standings) Estimate() sprt.Result {
	if s.match.Pairs {
		return sprt.Estimate(s.Pairs.Units())
	}
	return sprt.Estimate(s.Games.Units())
}

// String is a one-line summary: A's wins, draws and losses.
func (s *Standings) String() string {
	return fmt.Sprintf("+%d =%d -%d", s.Games.Wins, s.Games.Draws, s.Games.Losses)
}

// Recount counts the records of a match played in pairs (cmd/match, Match.Pairs) again,
// as the match counted them: games 2k and 2k+1 are a pair, player A is Sente in the even
// game and Gote in the odd one. It needs only the records, so that a shipped match can be
// re-estimated without its players.
type Recount struct {
	*Standings
	A, B string // the players' names, from the first record
}

// NewRecount returns an empty recount.
func NewRecount() *Recount {
	return &Recount{Standings: NewStandings(&Match{Pairs: true})}
}

// Add counts one record. A record whose players are not the first record's A and B, in
// the colours its id gives them, is an error naming the game.
func (r *Recount) Add(g *record.Game) error {
	a, b := g.Players.Sente.Name, g.Players.Gote.Name
	if !r.match.AIsSente(g.ID) {
		a, b = b, a
	}
	if r.Played() == 0 {
		r.A, r.B = a, b
	} else if a != r.A || b != r.B {
		return fmt.Errorf("selfplay: game %d: A is %q and B %q; the first game had %q and %q", g.ID, a, b, r.A, r.B)
	}
	r.Standings.Add(g)
	return nil
}
