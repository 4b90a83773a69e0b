package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/record"
)

// Deterministic reports whether the player's moves are a function of the
// game alone: the toolkit's engine with one thread, a playout limit, no time
// limit, no root noise and no temperature; a USI engine with a node or depth
// limit, no time limit and no Threads option above 1 (each game gets a new
// process of it, see usiPlayer). A random mover is seeded per game, so its
// games differ.
func (s PlayerSpec) Deterministic() bool {
	l := s.Limits
	if l.MoveTime > 0 || l.Clock() {
		return false
	}
	switch s.Kind {
	case record.KindMCTS:
		st, err := s.settings()
		if err != nil {
			return false
		}
		c := st.Player.Search
		return l.Nodes > 0 && c.Threads <= 1 && c.DirichletEpsilon == 0 && c.TemperaturePlies == 0
	case record.KindUSI:
		for _, o := range s.Options {
			if strings.EqualFold(o.Name, "Threads") && o.Value != "1" {
				return false
			}
		}
		return l.Nodes > 0 || l.Depth > 0
	}
	return false
}

// DistinctGames is how many different games the match's openings give when
// both players are deterministic: two a pair's opening (one with each
// colour), one an opening without pairs.
func (m *Match) DistinctGames() int {
	if m.Pairs {
		return 2 * len(m.Openings)
	}
	return len(m.Openings)
}

// OpeningUses is how many times the most used opening starts a game pair (a
// game without pairs) in a match of games games.
func (m *Match) OpeningUses(games int) int {
	per := 1
	if m.Pairs {
		per = 2
	}
	units := (games + per - 1) / per
	return (units + len(m.Openings) - 1) / len(m.Openings)
}

// CheckReplays refuses a match of games games whose players are both
// deterministic and whose openings run out: every game past DistinctGames
// would replay an earlier one, which adds nothing but false confidence.
func (m *Match) CheckReplays(games int) error {
	if games <= m.DistinctGames() || !m.A.Deterministic() || !m.B.Deterministic() {
		return nil
	}
	return fmt.Errorf("selfplay: both players are deterministic (one thread, a node limit, no noise), so a game from an opening used before replays an earlier game: %d openings allow %d distinct games, not %d; give a larger book (datasets/openings/book.sfen.gz) or fewer games",
		len(m.Openings), m.DistinctGames(), games)
}

// ShuffleOpenings puts openings in an order drawn from seed (cutechess-cli's
// order=random), the same order for the same seed, so that a resumed match
// keeps its games' starts.
func ShuffleOpenings(openings []Opening, seed uint64) []Opening {
	out := append([]Opening(nil), openings...)
	rng := rand.New(rand.NewPCG(splitMix64(seed), 0x626f6f6b)) // "book"
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// PlayMatch plays the match of run r (played in pairs) until r.Games games
// are written or the sequential test of st, if it has one, decides; st
// counts every game of the match, those a resume keeps included. update,
// if not nil, is called after each game counted. A match of deterministic
// players with more games than its openings allow is refused before any game
// (CheckReplays). This is how cmd/match and the training loop play matches.
func PlayMatch(ctx context.Context, r *Run, st *match.Standings, update func()) (Summary, error) {
	if !r.Pairs {
		return Summary{}, fmt.Errorf("selfplay: a match is played in pairs")
	}
	if err := r.CheckReplays(r.Games); err != nil {
		return Summary{}, err
	}
	var countErr error
	r.OnGame = func(g *record.Game) bool {
		if err := st.Add(g); err != nil {
			countErr = err
			return true
		}
		if update != nil {
			update()
		}
		return st.Decided()
	}
	sum, err := r.Execute(ctx)
	st.Finish()
	if err == nil {
		err = countErr
	}
	return sum, err
}
