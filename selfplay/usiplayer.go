package selfplay

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"time"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// usiPlayer is an external USI engine playing one game, in a process of its
// own that ends with the game. A process is never reused: `usinewgame` does
// not promise a clean state, and Fairy-Stockfish 11.1 keeps some after it
// (TestUSIEngineFreshEachGame: at a node limit it answered 1 of 20 openings
// differently after other searches than as a new process). Only a fresh
// process makes a game's moves depend on nothing but the game, so that
// shards, resumes and parallel runs give the same games (with one engine
// thread, at a node or depth limit). A crash costs only its own game.
type usiPlayer struct {
	client *usi.Client
	failed bool
}

// untimedMoveLimit is the longest a USI engine may think on a node or
// depth limit before it counts as hung (engine_error): far beyond any
// self-play budget, short enough that a hung engine does not stall a run.
const untimedMoveLimit = 5 * time.Minute

// CheckEngine starts the spec's USI engine once and shakes hands, so that a
// command that does not exist or is not a USI engine is one error before
// the run rather than a lost game per game. Other kinds need no check.
func (s PlayerSpec) CheckEngine(ctx context.Context) error {
	if s.Kind != record.KindUSI {
		return nil
	}
	if _, err := exec.LookPath(s.Argv[0]); err != nil {
		return fmt.Errorf("selfplay: engine %q: %w", s.Argv[0], err)
	}
	p, err := newUSIPlayer(ctx, s)
	if err != nil {
		return err
	}
	return p.Close()
}

// newUSIPlayer starts the spec's engine and readies it for a new game.
func newUSIPlayer(ctx context.Context, s PlayerSpec) (*usiPlayer, error) {
	c, _, err := s.StartUSI(ctx)
	if err != nil {
		return nil, err
	}
	return &usiPlayer{client: c}, nil
}

// StartUSI starts the engine of a usi spec and readies it for a new game of
// Minishogi, as every player and judge of this package does: the variant set
// when the engine plays several (Fairy-Stockfish), the spec's options checked
// against the engine's own declaration and set, `usinewgame` sent and
// answered by `readyok`. It returns the engine's id and options from the
// handshake; the caller closes the client.
func (s PlayerSpec) StartUSI(ctx context.Context) (*usi.Client, usi.EngineInfo, error) {
	c, err := usi.Start(ctx, s.Argv)
	if err != nil {
		return nil, usi.EngineInfo{}, err
	}
	info, err := setUp(ctx, c, s)
	if err != nil {
		c.Close()
		return nil, usi.EngineInfo{}, err
	}
	return c, info, nil
}

func setUp(ctx context.Context, c *usi.Client, s PlayerSpec) (usi.EngineInfo, error) {
	info, err := c.Handshake(ctx)
	if err != nil {
		return info, err
	}
	// Fairy-Stockfish plays many variants and must be told which one.
	if opt, ok := info.Option("UCI_Variant"); ok {
		if err := c.SetOption(opt.Name, "minishogi"); err != nil {
			return info, err
		}
	}
	for _, o := range s.Options {
		// A USI engine does not acknowledge setoption: check the option against the
		// engine's own declaration, so that a record never lists a setting the engine
		// ignored.
		opt, ok := info.Option(o.Name)
		if !ok {
			return info, fmt.Errorf("selfplay: engine %s has no option %q", c.Name(), o.Name)
		}
		if err := opt.Check(o.Value); err != nil {
			return info, fmt.Errorf("selfplay: engine %s: %w", c.Name(), err)
		}
		if err := c.SetOption(o.Name, o.Value); err != nil {
			return info, err
		}
	}
	if err := c.NewGame(); err != nil {
		return info, err
	}
	return info, c.SetUpReady(ctx)
}

func (p *usiPlayer) Move(ctx context.Context, g *minishogi.Game, lim usi.GoParams) (Decision, error) {
	start := g.Start()
	moves := g.Moves()
	usiMoves := make([]string, len(moves))
	for i, m := range moves {
		usiMoves[i] = m.String()
	}
	// Always the SFEN, never `startpos`: an engine playing several
	// variants may not take startpos to mean Minishogi's.
	if err := p.client.Position(start.SFEN(), usiMoves); err != nil {
		p.failed = true
		return Decision{}, err
	}
	if lim.MoveTime == 0 && lim.Byoyomi == 0 && lim.BTime == 0 && lim.WTime == 0 && lim.BInc == 0 && lim.WInc == 0 {
		// The client bounds a timed search itself; a node or depth search
		// of an engine that hangs needs a deadline, or the run would hang.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, untimedMoveLimit)
		defer cancel()
	}
	// The statistics come from the last info line that carried a score or a pv: an
	// `info string` is not a search line.
	var last usi.SearchInfo
	bm, err := p.client.Go(ctx, lim, func(in usi.SearchInfo) {
		if in.HasScore() || len(in.PV) > 0 {
			last = in
		}
	})
	if err != nil {
		p.failed = true
		return Decision{}, err
	}
	return Decision{Move: bm.Move, Stats: USIStats(last)}, nil
}

// Close ends the engine's process.
func (p *usiPlayer) Close() error { return p.client.Close() }

// USIStats converts an engine's last info line, the one way an external
// engine's score becomes a record's statistics (and a label's value,
// package train/label). Visits are its nodes. The
// value maps centipawns to an expected outcome with the logistic curve of
// the Elo model at 400 centipawns per factor of ten in odds,
// 2/(1+10^(-cp/400)) - 1, a common convention (Stockfish's own win-rate
// model is fitted per version; this is only a scale for datasets). A mate
// score is ±1 (a "mate 0" or negative mate: the side to move is mated).
func USIStats(in usi.SearchInfo) *record.MoveStats {
	st := &record.MoveStats{Visits: max(in.Nodes, 0)}
	switch in.Kind {
	case usi.ScoreCP:
		cp := in.CP
		st.ScoreCP = &cp
		st.Value = 2/(1+math.Pow(10, -float64(cp)/400)) - 1
	case usi.ScoreMate:
		mate := in.Mate
		st.Mate = &mate
		st.Value = -1
		if mate > 0 {
			st.Value = 1
		}
	}
	// No top moves: an alpha-beta engine has no visit counts per move.
	return st
}
