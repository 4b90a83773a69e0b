package match

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/record"
)

// Fields are the record fields Standings read.
const Fields = record.FieldID | record.FieldStart | record.FieldMoves | record.FieldResult |
	record.FieldTermination | record.FieldPlies | record.FieldPlayers

// Standings count a match from player A's side as its games end, in any
// order. A is the Sente player of the even games (of every game without
// pairs). Only distinct games and pairs count (see the package doc).
type Standings struct {
	pairs bool
	// A and B are the players' names, from the first game counted.
	A, B string
	// Games counts the distinct games by A's result.
	Games sprt.Trinomial
	// Pairs counts the distinct complete pairs by A's points.
	Pairs sprt.Pentanomial
	// Terminations and Plies are of the distinct games.
	Terminations map[record.Termination]int
	Plies        int
	// Counted is every game added; ReplayedGames and ReplayedPairs the games
	// and pairs left out as replays of earlier ones.
	Counted       int
	ReplayedGames int
	ReplayedPairs int

	seenGames map[digest]bool
	seenPairs map[digest]bool
	waiting   map[int]half // the ended game of a pair whose partner has not ended, by pair

	test    *sprt.Sequence
	verdict *sprt.Verdict
	ready   map[int]pairResult // complete pairs the test has not seen, by pair number
	next    int                // the pair the test sees next
	tested  sprt.Pentanomial   // what the test has seen
	steps   []sprt.Verdict     // the verdict after each pair the test saw
}

type digest [sha256.Size]byte

type half struct {
	id     int
	points float64
	sig    digest
}

type pairResult struct {
	points   float64
	replayed bool
}

// NewStandings returns empty standings of a match played in pairs (pairs
// true) or of single games.
func NewStandings(pairs bool) *Standings {
	return &Standings{pairs: pairs, Terminations: map[record.Termination]int{},
		seenGames: map[digest]bool{}, seenPairs: map[digest]bool{}, waiting: map[int]half{}, ready: map[int]pairResult{}}
}

// SetTest runs a sequential test on the distinct pairs (see Verdict); t must
// be valid, and the standings must count pairs and be empty.
func (s *Standings) SetTest(t sprt.Test) {
	if !s.pairs || s.Counted > 0 {
		panic("match: SetTest on standings without pairs or after a game")
	}
	s.test = sprt.NewSequence(t)
}

// AIsSente reports whether player A is Sente in game id.
func (s *Standings) AIsSente(id int) bool { return !s.pairs || id%2 == 0 }

// ScoreA is A's points in a finished game: 1, 1/2 or 0.
func (s *Standings) ScoreA(g *record.Game) float64 {
	switch {
	case g.Result == record.Draw:
		return 0.5
	case (g.Result == record.Sente) == s.AIsSente(g.ID):
		return 1
	}
	return 0
}

// Add counts a finished game. A game whose players are not the first game's
// A and B, in the colours its id gives them, is an error naming the game;
// so is a game whose id was counted and whose pair is waiting for its partner.
func (s *Standings) Add(g *record.Game) error {
	a, b := g.Players.Sente.Name, g.Players.Gote.Name
	if !s.AIsSente(g.ID) {
		a, b = b, a
	}
	if s.Counted == 0 {
		s.A, s.B = a, b
	} else if a != s.A || b != s.B {
		return fmt.Errorf("match: game %d: A is %q and B %q; the first game had %q and %q", g.ID, a, b, s.A, s.B)
	}
	points := s.ScoreA(g)
	sig := signature(g)
	s.Counted++
	if s.seenGames[sig] {
		s.ReplayedGames++
	} else {
		s.seenGames[sig] = true
		switch points {
		case 1:
			s.Games.Wins++
		case 0:
			s.Games.Losses++
		default:
			s.Games.Draws++
		}
		s.Terminations[g.Termination]++
		s.Plies += g.Plies
	}
	if !s.pairs {
		return nil
	}
	pair := g.ID / 2
	first, ok := s.waiting[pair]
	if !ok {
		s.waiting[pair] = half{g.ID, points, sig}
		return nil
	}
	if first.id == g.ID {
		return fmt.Errorf("match: game %d is in the records twice", g.ID)
	}
	delete(s.waiting, pair)
	// A pair is the same as another when its two games are, in the order of
	// their ids (A Sente first).
	lo, hi := first.sig, sig
	if g.ID%2 == 0 {
		lo, hi = hi, lo
	}
	psig := sha256.Sum256(append(lo[:], hi[:]...))
	r := pairResult{points: first.points + points}
	if s.seenPairs[psig] {
		s.ReplayedPairs++
		r.replayed = true
	} else {
		s.seenPairs[psig] = true
		s.Pairs.Add(r.points)
	}
	if s.test != nil {
		s.ready[pair] = r
		s.feed(false)
	}
	return nil
}

// feed gives the test the complete pairs in pair order, from the next one
// on; with skipGaps, past pairs that never completed too (the end of the
// records).
func (s *Standings) feed(skipGaps bool) {
	for s.verdict == nil || s.verdict.State == sprt.Continue {
		r, ok := s.ready[s.next]
		if !ok {
			if !skipGaps || len(s.ready) == 0 {
				return
			}
			s.next++
			continue
		}
		delete(s.ready, s.next)
		s.next++
		if r.replayed {
			continue
		}
		s.tested.Add(r.points)
		v := s.test.Update(s.tested)
		s.verdict = &v
		s.steps = append(s.steps, v)
	}
}

// Finish tells the standings that no more games come: the test sees the
// complete pairs it has not seen, past any pair that never completed.
func (s *Standings) Finish() {
	if s.test != nil {
		s.feed(true)
	}
}

// Verdict is the test's state: nil before its first pair or without a test.
// Once it accepts a hypothesis it stays, whatever pairs come after.
func (s *Standings) Verdict() *sprt.Verdict { return s.verdict }

// Steps are the test's verdicts after each pair it saw, in order: the walk of its LLR
// towards a bound, as a chart draws it.
func (s *Standings) Steps() []sprt.Verdict { return s.steps }

// Decided reports whether the test accepted H0 or H1.
func (s *Standings) Decided() bool { return s.verdict != nil && s.verdict.State != sprt.Continue }

// Test is the sequential test, or nil.
func (s *Standings) Test() *sprt.Test {
	if s.test == nil {
		return nil
	}
	t := s.test.Test
	return &t
}

// Unpaired is the number of games whose partner has not been counted.
func (s *Standings) Unpaired() int { return len(s.waiting) }

// Distinct is the number of distinct games counted.
func (s *Standings) Distinct() int { return s.Games.Wins + s.Games.Draws + s.Games.Losses }

// Estimate is A's score and Elo: from the distinct complete pairs when the
// match is played in pairs, from the distinct games otherwise.
func (s *Standings) Estimate() sprt.Strength {
	if s.pairs {
		return sprt.Estimate(s.Pairs.Units())
	}
	return sprt.Estimate(s.Games.Units())
}

// String is a one-line summary: A's wins, draws and losses in distinct games.
func (s *Standings) String() string {
	return fmt.Sprintf("+%d =%d -%d", s.Games.Wins, s.Games.Draws, s.Games.Losses)
}

// signature identifies a game by what decides its moves and the moves: the
// start, both players as the record describes them, and the moves. Two games
// with one signature are one game played twice.
func signature(g *record.Game) digest {
	players, err := json.Marshal(g.Players) // map keys sorted: the same players give the same bytes
	if err != nil {
		panic(fmt.Sprintf("match: players of game %d: %v", g.ID, err))
	}
	var b strings.Builder
	b.WriteString(g.Start)
	b.WriteByte(0)
	b.Write(players)
	b.WriteByte(0)
	b.WriteString(strings.Join(g.Moves, " "))
	return sha256.Sum256([]byte(b.String()))
}
