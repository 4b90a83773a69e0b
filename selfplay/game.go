package selfplay

import (
	"context"
	"fmt"
	"time"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// Match is what every game of a run shares: the players, the starts and
// the rules. Game id's seed, start and colours follow from it and the id
// alone.
type Match struct {
	// A and B are the two players. Without Pairs, A plays Sente in every
	// game and game id starts from Openings[id mod len(Openings)]. With
	// Pairs, games 2k and 2k+1 are a pair: both start from Openings[k mod
	// len(Openings)], A playing Sente in game 2k and Gote in game 2k+1, so
	// that neither player gets the better side of an opening more often
	// (as cutechess-cli's -repeat and Fishtest play openings).
	A, B     PlayerSpec
	Pairs    bool
	Openings []Opening
	Rules    minishogi.GameOptions
	Seed     uint64 // the run's base seed (GameSeed)
	Version  string // the toolkit version written in records
	// TimeMargin is how far a player on a clock may overstep it before it
	// loses on time (cutechess-cli's timemargin); 0 forgives nothing.
	TimeMargin time.Duration
	// Engines, if not nil, keeps engines between games (Run.Execute makes
	// one); nil starts a new engine for every game.
	Engines *EnginePool
}

// Validate checks the parts a run cannot start without.
func (m *Match) Validate() error {
	if len(m.Openings) == 0 {
		return fmt.Errorf("selfplay: no start position")
	}
	if err := m.A.Validate(); err != nil {
		return fmt.Errorf("selfplay: player A: %w", err)
	}
	if err := m.B.Validate(); err != nil {
		return fmt.Errorf("selfplay: player B: %w", err)
	}
	if m.Version == "" {
		return fmt.Errorf("selfplay: no version for the records")
	}
	if m.TimeMargin < 0 {
		return fmt.Errorf("selfplay: negative time margin %v", m.TimeMargin)
	}
	return nil
}

// AIsSente reports whether player A plays Sente in game id.
func (m *Match) AIsSente(id int) bool { return !m.Pairs || id%2 == 0 }

// Opening is the start of game id.
func (m *Match) Opening(id int) Opening {
	k := id
	if m.Pairs {
		k = id / 2
	}
	return m.Openings[k%len(m.Openings)]
}

// Play plays game id to its end and returns its record. When ctx is
// cancelled the game is abandoned and Play returns ctx's error and no
// record: a run stopped by a signal writes nothing partial.
//
// The game ends by the rules alone (docs/rules.md), or off the board: a
// player that fails (an engine that cannot start, dies, times out) loses
// with termination engine_error; one that answers a move that is not legal
// loses with illegal_move; one on a clock that oversteps it by more than
// TimeMargin loses with time_forfeit; `resign` is a resignation. These are
// outcomes, recorded like any other, and the run goes on.
func (m *Match) Play(ctx context.Context, id int) (*record.Game, error) {
	seed := GameSeed(m.Seed, id)
	opening := m.Opening(id)
	start, err := minishogi.ParseSFEN(opening.SFEN)
	if err != nil {
		return nil, fmt.Errorf("selfplay: game %d: start %s: %w", id, opening.Name, err)
	}
	specs := m.sides(id)
	rec := m.header(id)
	began := time.Now()
	rec.StartedAt = began.UTC().Truncate(time.Millisecond)
	var players [2]Player
	defer func() {
		for _, p := range players {
			if p != nil {
				p.Close()
			}
		}
	}()
	for c, spec := range specs {
		p, err := spec.New(ctx, SideSeed(seed, minishogi.Color(c)), m.Engines)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// The side whose engine could not start loses.
			finish(rec, minishogi.Color(c).Opponent(), record.EngineError, began)
			rec.Detail = fmt.Sprintf("%s's engine did not start: %v", minishogi.Color(c), err)
			return rec, nil
		}
		players[c] = p
	}
	clocks := [2]time.Duration{specs[0].Limits.Time, specs[1].Limits.Time}
	g := minishogi.NewGame(start, m.Rules)
	var stats []record.MoveStats
	searched := false
	for !g.Result().Over() {
		pos := g.Position()
		mover := pos.SideToMove()
		lim := goParams(specs, clocks, mover)
		t0 := time.Now()
		lim.Start = t0 // the player's clock is this game's: an engine in process charges its own delays to it
		d, err := players[mover].Move(ctx, g, lim)
		took := time.Since(t0)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			finish(rec, mover.Opponent(), record.EngineError, began)
			rec.Detail = fmt.Sprintf("%s's engine failed: %v", mover, err)
			break
		}
		if l := specs[mover].Limits; l.Clock() {
			if allowed := clocks[mover] + l.Byoyomi + m.TimeMargin; took > allowed {
				finish(rec, mover.Opponent(), record.TimeForfeit, began)
				rec.Detail = fmt.Sprintf("%s took %v for move %d, %v more than its %v (clock %v, byoyomi %v, margin %v)",
					mover, took.Round(time.Millisecond/10), len(rec.Moves)+1, (took - allowed).Round(time.Millisecond/10), allowed, clocks[mover], l.Byoyomi, m.TimeMargin)
				break
			}
			clocks[mover] = max(clocks[mover]-took, 0) + l.Inc
		}
		if d.Move == Resign {
			finish(rec, mover.Opponent(), record.Resignation, began)
			break
		}
		if !record.IsUSIMove(d.Move) {
			// Not a move at all: the engine answered nonsense (datasets/README.md).
			finish(rec, mover.Opponent(), record.EngineError, began)
			rec.Detail = fmt.Sprintf("%s answered bestmove %q, not a USI move", mover, truncate(d.Move))
			break
		}
		if err := g.PlayUSI(d.Move); err != nil {
			finish(rec, mover.Opponent(), record.IllegalMove, began)
			rec.Detail = fmt.Sprintf("%s played %s: %v", mover, d.Move, err)
			break
		}
		rec.Moves = append(rec.Moves, d.Move)
		st := record.MoveStats{}
		if d.Stats != nil {
			st = *d.Stats
			searched = true
		}
		st.MS = float64(took.Microseconds()) / 1000
		stats = append(stats, st)
	}
	rec.Plies = len(rec.Moves)
	if searched {
		// One entry per move, so stats[i] belongs to moves[i]; a move of a
		// player that does not search has visits 0.
		rec.Stats = stats
	}
	if res := g.Result(); res.Over() {
		rec.Result = record.Result(res.String())
		rec.Termination = record.Termination(res.Termination.String())
		rec.Seconds = time.Since(began).Seconds()
	}
	return rec, nil
}

// sides are game id's players by colour, Sente first.
func (m *Match) sides(id int) [2]PlayerSpec {
	if m.AIsSente(id) {
		return [2]PlayerSpec{m.A, m.B}
	}
	return [2]PlayerSpec{m.B, m.A}
}

// header is the part of game id's record that the match decides before a move is played:
// the same for every run of the match, so a resume compares it with the games kept.
func (m *Match) header(id int) *record.Game {
	opening := m.Opening(id)
	specs := m.sides(id)
	return &record.Game{
		ID: id, Seed: GameSeed(m.Seed, id), Variant: "minishogi",
		Start: opening.SFEN, StartName: opening.Name,
		Moves:   []string{},
		Players: record.Players{Sente: specs[0].Record(), Gote: specs[1].Record()},
		Rules:   m.recordRules(),
		Version: m.Version,
	}
}

// truncate shortens an engine's answer for a record.
func truncate(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func (m *Match) recordRules() record.Rules {
	return record.Rules{Repetition: m.Rules.Repetition.String(), MaxPlies: m.Rules.MaxPlies}
}

// goParams is the `go` of the side to move: its own per-move limits, and
// the clocks of both sides as they stand (USI sends both).
func goParams(specs [2]PlayerSpec, clocks [2]time.Duration, mover minishogi.Color) usi.GoParams {
	l := specs[mover].Limits
	p := usi.GoParams{MoveTime: l.MoveTime, Nodes: l.Nodes, Depth: l.Depth}
	if l.Clock() {
		p.BTime, p.WTime = clocks[minishogi.Sente], clocks[minishogi.Gote]
		p.BInc, p.WInc = specs[minishogi.Sente].Limits.Inc, specs[minishogi.Gote].Limits.Inc
		p.Byoyomi = l.Byoyomi
	}
	return p
}

func finish(rec *record.Game, winner minishogi.Color, how record.Termination, began time.Time) {
	rec.Result = record.Result(winner.String())
	rec.Termination = how
	rec.Seconds = time.Since(began).Seconds()
}
