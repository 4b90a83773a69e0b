package match

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/record"
)

// game is a record of game id between players "a" and "b" (A Sente in the
// even games) from start with the given moves and result.
func game(id int, start string, moves string, r record.Result) *record.Game {
	sente, gote := "a", "b"
	if id%2 == 1 {
		sente, gote = gote, sente
	}
	return &record.Game{ID: id, Start: start, Moves: strings.Fields(moves), Result: r, Termination: record.Checkmate,
		Plies: len(strings.Fields(moves)), Players: record.Players{Sente: record.Player{Name: sente, Kind: "mcts"}, Gote: record.Player{Name: gote, Kind: "mcts"}}}
}

// TestStandingsPairsOutOfOrder counts a paired match whose games end out of
// order: a pair counts once both its games have ended, with A's points from
// both (hand-counted below).
func TestStandingsPairsOutOfOrder(t *testing.T) {
	s := NewStandings(true)
	// Pair 0: A (Sente in game 0) wins game 0, loses game 1 as Gote: 1 point.
	// Pair 1: A draws game 2, wins game 3 as Gote: 1.5 points.
	// Pair 2: only game 5 has ended (A lost as Gote).
	for _, g := range []*record.Game{game(3, "s1", "x y", record.Gote), game(0, "s0", "p q", record.Sente),
		game(5, "s2", "m", record.Sente), game(2, "s1", "x z", record.Draw), game(1, "s0", "p r", record.Sente)} {
		if err := s.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if s.Pairs != [5]int{0, 0, 1, 1, 0} || s.Games != (sprt.Trinomial{Losses: 2, Draws: 1, Wins: 2}) || s.Distinct() != 5 || s.Plies != 9 {
		t.Errorf("standings %+v", s)
	}
	if e := s.Estimate(); e.Games != 4 || e.Score != 2.5/4 {
		t.Errorf("estimate from the complete pairs: %+v", e)
	}
	if s.A != "a" || s.B != "b" {
		t.Errorf("players %q, %q", s.A, s.B)
	}
}

// TestStandingsReplays recounts a planted file in which a deterministic
// match's openings ran out: pairs 2 and 3 replay pairs 0 and 1 move for move
// (same start, players and moves), and game 9 replays game 1 while its
// partner, game 8, is new. By hand: the distinct pairs are 0, 1 and 4 with A's
// points 2, 0 and 1 (game 8 a loss for A, game 9 a win, as game 1), so the
// pentanomial is [1,0,1,0,1]; the distinct games are 0, 1, 2, 3 and 8: two
// wins and three losses.
func TestStandingsReplays(t *testing.T) {
	base := []*record.Game{
		game(0, "o1", "a1 b1", record.Sente), // A wins as Sente
		game(1, "o1", "a2 b2", record.Gote),  // A wins as Gote
		game(2, "o2", "c1", record.Gote),     // A loses as Sente
		game(3, "o2", "c2", record.Sente),    // A loses as Gote
	}
	var games []*record.Game
	games = append(games, base...)
	for _, g := range base { // the same four games again as games 4 to 7
		c := *g
		c.ID += 4
		games = append(games, &c)
	}
	games = append(games, game(8, "o1", "d1 d2 d3", record.Gote))
	g9 := *base[1]
	g9.ID = 9
	games = append(games, &g9)
	s := NewStandings(true)
	for _, g := range games {
		if err := s.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if s.Pairs != [5]int{1, 0, 1, 0, 1} {
		t.Errorf("pentanomial %v, want [1 0 1 0 1]", s.Pairs)
	}
	if s.Counted != 10 || s.Distinct() != 5 || s.ReplayedGames != 5 || s.ReplayedPairs != 2 {
		t.Errorf("counted %d, distinct %d, replayed games %d, pairs %d; want 10, 5, 5, 2", s.Counted, s.Distinct(), s.ReplayedGames, s.ReplayedPairs)
	}
	if s.Games != (sprt.Trinomial{Wins: 2, Losses: 3}) {
		t.Errorf("W-D-L of the distinct games %+v, want 2-0-3", s.Games)
	}
	rep := s.Report()
	if rep.Games != 10 || rep.Distinct != 5 || rep.Pairs != 3 || rep.ReplayedPairs != 2 {
		t.Errorf("report %+v", rep)
	}
}

// TestStandingsReplayInAnyOrder: a pair that replays an earlier pair is a
// replay whichever of its games ends first, and a game that repeats another's
// start and moves with the players' colours reversed is not a replay, since
// the players decide the moves (the package doc).
func TestStandingsReplayInAnyOrder(t *testing.T) {
	g0, g1 := game(0, "o", "p q", record.Sente), game(1, "o", "p r", record.Draw)
	g2, g3 := *g0, *g1
	g2.ID, g3.ID = 2, 3
	s := NewStandings(true)
	for _, g := range []*record.Game{g0, g1, &g3, &g2} {
		if err := s.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if s.ReplayedPairs != 1 || s.ReplayedGames != 2 || s.Pairs != (sprt.Pentanomial{0, 0, 0, 1, 0}) {
		t.Errorf("pairs %v, %d replayed; %d games replayed; want the one pair 1½-½ and its replay, both games replayed",
			s.Pairs, s.ReplayedPairs, s.ReplayedGames)
	}
	// The same start and moves, once with a as Sente, once with b.
	s = NewStandings(true)
	for _, g := range []*record.Game{game(0, "o", "m", record.Sente), game(1, "o", "m", record.Sente)} {
		if err := s.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	if s.Distinct() != 2 || s.ReplayedGames != 0 || s.Games != (sprt.Trinomial{Wins: 1, Losses: 1}) {
		t.Errorf("%d distinct games, %d replayed, %+v; want a's win and a's loss, no replay", s.Distinct(), s.ReplayedGames, s.Games)
	}
}

// TestStandingsRejects names what is wrong with records that are not one
// match: other players, or a game counted twice.
func TestStandingsRejects(t *testing.T) {
	for _, c := range []struct {
		name  string
		games []*record.Game
		want  string
	}{
		{"other players", func() []*record.Game {
			g := game(2, "o", "m", record.Draw)
			g.Players.Gote.Name = "c"
			return []*record.Game{game(0, "o", "m", record.Draw), g}
		}(), `game 2: A is "a" and B "c"`},
		{"a game twice", []*record.Game{game(4, "o", "m", record.Draw), game(4, "o", "m", record.Draw)}, "game 4 is in the records twice"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewStandings(true)
			var err error
			for _, g := range c.games {
				if err = s.Add(g); err != nil {
					break
				}
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestStandingsTestInPairOrder: the sequential test sees the distinct pairs
// in the order of their numbers, so the games' arrival order does not change
// the verdict or the pairs it took, and a replayed pair is not evidence. The
// match is 40 pairs of which A wins two in three 2-0 and draws the third 1-1
// (Sente wins both games); any arrival order must reach the verdict of the
// games in order, after the same number of pairs.
func TestStandingsTestInPairOrder(t *testing.T) {
	test := sprt.Test{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05, Model: sprt.Logistic}
	var games []*record.Game
	for id := range 80 {
		r := record.Sente
		if id%2 == 1 && (id/2)%3 != 0 {
			r = record.Gote
		}
		games = append(games, game(id, "o"+strconv.Itoa(id/2), "m", r))
	}
	verdictAfter := func(order []*record.Game) (sprt.Verdict, int) {
		s := NewStandings(true)
		s.SetTest(test)
		for _, g := range order {
			if err := s.Add(g); err != nil {
				t.Fatal(err)
			}
		}
		s.Finish()
		rep := s.Report()
		return *s.Verdict(), rep.SPRT.Pairs
	}
	want, wantPairs := verdictAfter(games)
	if want.State != sprt.H1 || wantPairs >= 40 {
		t.Fatalf("in order: %+v after %d pairs; want H1 before the 40th pair", want, wantPairs)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 5 {
		shuffled := append([]*record.Game(nil), games...)
		rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		if got, pairs := verdictAfter(shuffled); got != want || pairs != wantPairs {
			t.Errorf("order %d: %+v after %d pairs, want %+v after %d", i, got, pairs, want, wantPairs)
		}
	}
	// The same 40 pairs with every pair played twice (a replay after each):
	// the test sees each once and decides at the same pair.
	var doubled []*record.Game
	for k := range 40 {
		for _, g := range games[2*k : 2*k+2] {
			c := *g
			c.ID = 4*k + g.ID%2
			r := *g
			r.ID = 4*k + 2 + g.ID%2
			doubled = append(doubled, &c, &r)
		}
	}
	s := NewStandings(true)
	s.SetTest(test)
	for _, g := range doubled {
		if err := s.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	s.Finish()
	if v := s.Verdict(); *v != want || s.Report().SPRT.Pairs != wantPairs || s.ReplayedPairs == 0 {
		t.Errorf("with replays: %+v after %d pairs (%d replayed), want %+v after %d", v, s.Report().SPRT.Pairs, s.ReplayedPairs, want, wantPairs)
	}
}

// TestReportJSONNulls: a match A won every game has an infinite Elo and an
// undefined normalized Elo, which JSON cannot hold: they are null.
func TestReportJSONNulls(t *testing.T) {
	s := NewStandings(true)
	s.Add(game(0, "o", "m", record.Sente))
	s.Add(game(1, "o", "n", record.Gote))
	b, err := json.Marshal(s.Report())
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	est := back["estimate"].(map[string]any)
	if est["elo"] != nil || est["nelo"] != nil || est["score"] != 1.0 {
		t.Errorf("estimate %v: want elo and nelo null, score 1", est)
	}
}

// TestStandingsColours counts a paired match from the records alone: A is the
// first record's Sente player and plays Gote in every odd game, so a record of
// an odd game with A as Sente has the players the other way round.
func TestStandingsColours(t *testing.T) {
	played := func(id int, sente, gote string, r record.Result) *record.Game {
		return &record.Game{ID: id, Start: "o" + strconv.Itoa(id/2), Moves: []string{"m" + strconv.Itoa(id)}, Result: r,
			Termination: record.Checkmate, Plies: 1, Players: record.Players{Sente: record.Player{Name: sente}, Gote: record.Player{Name: gote}}}
	}
	s := NewStandings(true)
	// Pair 0: x (A) wins game 0 as Sente and game 1 as Gote; pair 1: x draws both.
	for _, g := range []*record.Game{played(0, "x", "y", record.Sente), played(1, "y", "x", record.Gote),
		played(2, "x", "y", record.Draw), played(3, "y", "x", record.Draw)} {
		if err := s.Add(g); err != nil {
			t.Fatalf("game %d: %v", g.ID, err)
		}
	}
	if s.A != "x" || s.B != "y" || s.Pairs != (sprt.Pentanomial{0, 0, 1, 0, 1}) || s.Games != (sprt.Trinomial{Wins: 2, Draws: 2}) {
		t.Fatalf("A %q, B %q, pairs %v, games %+v; want x, y, one pair won twice and one drawn twice", s.A, s.B, s.Pairs, s.Games)
	}
	// In game 5 A plays Gote, so a record with x as Sente has the players the other way.
	err := s.Add(played(5, "x", "y", record.Sente))
	if want := `match: game 5: A is "y" and B "x"; the first game had "x" and "y"`; err == nil || err.Error() != want {
		t.Errorf("game 5 with the colours swapped: %v; want %q", err, want)
	}
}

// TestStandingsEstimateFromPairs: a paired match is estimated from its pairs,
// the independent samples, not from its games as if each were one: the two
// games of a pair share an opening, so their results are correlated. Both
// cases have as many wins as losses; the figures are worked by hand from
// Estimate's definitions (a pair's per-game score, the spread of the pairs
// divided by n, a 95% interval of ±1.959964 standard errors, Wilson's interval
// when nothing varies).
func TestStandingsEstimateFromPairs(t *testing.T) {
	// pair plays pair k: A's results as Sente (game 2k) and as Gote (game 2k+1).
	pair := func(k int, asSente, asGote record.Result) []*record.Game {
		return []*record.Game{game(2*k, "o"+strconv.Itoa(k), "m", asSente), game(2*k+1, "o"+strconv.Itoa(k), "n", asGote)}
	}
	for _, c := range []struct {
		name     string
		pairs    func(k int) []*record.Game
		stdDev   float64 // a game's, σ_pair/√2
		low      float64
		high     float64
		unvaried bool
	}{
		// Sente wins every game: each pair is 1-1, a score of 1/2 that does not
		// vary (as independent games, 8 wins and 8 losses would vary by 1/2 a
		// game). Nothing varies, so the interval is Wilson's for 1/2 in 16 games:
		// 1/2 ± z·√(1/64 + z²/1024) / (1 + z²/16) = [0.2800, 0.7200].
		{"every pair split by the colours", func(k int) []*record.Game { return pair(k, record.Sente, record.Sente) },
			0, 0.279996, 0.720004, true},
		// A wins four pairs 2-0 and loses four 0-2: pair scores 1 and 0, a
		// variance of 1/4 a pair, σ per game √(2·1/4) = 0.7071 and a standard error
		// √(1/4/8) = 0.1768: [0.1535, 0.8465] (as 16 independent games: σ 1/2,
		// [0.2550, 0.7450]).
		{"pairs won or lost whole", func(k int) []*record.Game {
			if k%2 == 0 {
				return pair(k, record.Sente, record.Gote)
			}
			return pair(k, record.Gote, record.Sente)
		}, math.Sqrt2 / 2, 0.153524, 0.846476, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewStandings(true)
			for k := range 8 {
				for _, g := range c.pairs(k) {
					if err := s.Add(g); err != nil {
						t.Fatal(err)
					}
				}
			}
			e := s.Estimate()
			if e.Games != 16 || e.Score != 0.5 || math.Abs(e.StdDev-c.stdDev) > 1e-9 ||
				math.Abs(e.ScoreLow-c.low) > 1e-6 || math.Abs(e.ScoreHigh-c.high) > 1e-6 || math.IsNaN(e.NElo) != c.unvaried {
				t.Errorf("estimate %+v; want 16 games, score 1/2, σ %.4f a game, interval [%.4f, %.4f]", e, c.stdDev, c.low, c.high)
			}
		})
	}
}
