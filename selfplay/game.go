package selfplay

import (
	"context"
	"fmt"
	"time"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// Match is what every game of a run shares: the players, the starts and
// the rules. Game id's seed and start follow from it and the id alone.
type Match struct {
	Sente, Gote PlayerSpec
	Openings    []Opening // game id starts from Openings[id % len(Openings)]
	Rules       minishogi.GameOptions
	Seed        uint64 // the run's base seed (GameSeed)
	Version     string // the toolkit version written in records
	// Engines, if not nil, keeps USI engine processes between games
	// (Run.Execute makes one); nil starts a process per game.
	Engines *EnginePool
}

// Validate checks the parts a run cannot start without.
func (m *Match) Validate() error {
	if len(m.Openings) == 0 {
		return fmt.Errorf("selfplay: no start position")
	}
	if err := m.Sente.Validate(); err != nil {
		return fmt.Errorf("selfplay: sente: %w", err)
	}
	if err := m.Gote.Validate(); err != nil {
		return fmt.Errorf("selfplay: gote: %w", err)
	}
	if m.Version == "" {
		return fmt.Errorf("selfplay: no version for the records")
	}
	return nil
}

// Play plays game id to its end and returns its record. When ctx is
// cancelled the game is abandoned and Play returns ctx's error and no
// record: a run stopped by a signal writes nothing partial.
//
// A player that fails (an engine that cannot start, dies, times out) loses
// the game with termination engine_error; one that answers a move that is
// not legal loses with illegal_move; `resign` is a resignation. These are
// outcomes, recorded like any other, and the run goes on.
func (m *Match) Play(ctx context.Context, id int) (*record.Game, error) {
	seed := GameSeed(m.Seed, id)
	opening := m.Openings[id%len(m.Openings)]
	start, err := minishogi.ParseSFEN(opening.SFEN)
	if err != nil {
		return nil, fmt.Errorf("selfplay: game %d: start %s: %w", id, opening.Name, err)
	}
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
	for c, spec := range []PlayerSpec{m.Sente, m.Gote} {
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

	g := minishogi.NewGame(start, m.Rules)
	var stats []record.MoveStats
	searched := false
	for !g.Result().Over() {
		pos := g.Position()
		mover := pos.SideToMove()
		t0 := time.Now()
		d, err := players[mover].Move(ctx, g)
		ms := float64(time.Since(t0).Microseconds()) / 1000
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			finish(rec, mover.Opponent(), record.EngineError, began)
			rec.Detail = fmt.Sprintf("%s's engine failed: %v", mover, err)
			break
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
		st := record.MoveStats{MS: ms}
		if d.Stats != nil {
			st = *d.Stats
			st.MS = ms
			searched = true
		}
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

// header is the part of game id's record that the match decides before a move is played:
// the same for every run of the match, so a resume compares it with the games kept.
func (m *Match) header(id int) *record.Game {
	opening := m.Openings[id%len(m.Openings)]
	return &record.Game{
		ID: id, Seed: GameSeed(m.Seed, id), Variant: "minishogi",
		Start: opening.SFEN, StartName: opening.Name,
		Moves:   []string{},
		Players: record.Players{Sente: m.Sente.Record(), Gote: m.Gote.Record()},
		Rules:   record.Rules{Repetition: m.Rules.Repetition.String(), MaxPlies: m.Rules.MaxPlies},
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

func finish(rec *record.Game, winner minishogi.Color, how record.Termination, began time.Time) {
	rec.Result = record.Result(winner.String())
	rec.Termination = how
	rec.Seconds = time.Since(began).Seconds()
}
