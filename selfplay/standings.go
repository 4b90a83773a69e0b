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
