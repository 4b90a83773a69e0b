package selfplay

import (
	"context"
	"fmt"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// TopMoves is how many root moves, most visited first, a record keeps per
// move of the MCTS player: enough for a policy target that holds nearly all
// the visits at self-play budgets, while a record stays a few kilobytes per
// game (every visited move would triple it).
const TopMoves = 8

// mctsPlayer is the toolkit's engine (package engine) without USI.
type mctsPlayer struct {
	p      *engine.Player
	limits engine.Limits
}

// nodesPerPlayout sizes the node pool: an expansion takes one node per
// legal move, and Minishogi positions have some tens of moves (more with
// pieces in hand), so 128 nodes a playout leaves room for the tree the
// engine keeps from one move to the next.
const nodesPerPlayout = 128

func newMCTSPlayer(s PlayerSpec, seed uint64) (Player, error) {
	cfg := engine.DefaultPlayerConfig()
	cfg.Search.Seed = seed
	cfg.Search.Threads = max(s.Threads, 1)
	cfg.Search.DirichletEpsilon = s.Noise
	cfg.Search.TemperaturePlies = s.TemperaturePlies
	if s.Playouts > 0 && s.MoveTime == 0 {
		cfg.Search.MaxNodes = int(min(max(s.Playouts*nodesPerPlayout, 1<<16), 1<<22))
	}
	p, err := engine.NewPlayer(cfg)
	if err != nil {
		return nil, fmt.Errorf("selfplay: mcts player: %w", err)
	}
	return &mctsPlayer{p: p, limits: engine.Limits{Playouts: s.Playouts, Time: s.MoveTime}}, nil
}

func (m *mctsPlayer) Move(ctx context.Context, g *minishogi.Game) (Decision, error) {
	d, err := m.p.Think(ctx, g, m.limits)
	if err != nil {
		return Decision{}, err
	}
	st := &record.MoveStats{Visits: d.RootVisits, Value: float64(d.Value)}
	for _, t := range d.Top {
		if len(st.Top) == TopMoves || t.Visits == 0 {
			break
		}
		st.Top = append(st.Top, record.TopMove{Move: t.Move.String(), Visits: int64(t.Visits)})
	}
	if d.Score.Proven && d.Score.Mate != 0 {
		mate := d.Score.Mate
		st.Mate = &mate
	}
	if d.Resign {
		return Decision{Move: Resign, Stats: st}, nil
	}
	return Decision{Move: d.Move.String(), Stats: st}, nil
}

func (m *mctsPlayer) Close() error { return nil }
