package selfplay

import (
	"context"
	"fmt"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/mcts"
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

// maxPoolNodes is the largest node pool of an MCTS player (128 MiB). A search
// stops when its pool is full, so it is also the most playouts a move can
// be given: every playout that does not end in a known result expands a node.
const maxPoolNodes = 1 << 22

// poolNodes is the node pool of the spec's MCTS player.
func (s PlayerSpec) poolNodes() int {
	if s.Playouts > 0 && s.MoveTime == 0 {
		return int(min(max(s.Playouts*nodesPerPlayout, 1<<16), maxPoolNodes))
	}
	return engine.DefaultPlayerConfig().Search.MaxNodes
}

// memory is the memory a player of the spec allocates in this process: the
// node pool of an MCTS player (a USI engine's is its own process's).
func (s PlayerSpec) memory() uint64 {
	if s.Kind != record.KindMCTS {
		return 0
	}
	return uint64(s.poolNodes()) * uint64(mcts.NodeBytes)
}

func newMCTSPlayer(s PlayerSpec, seed uint64) (Player, error) {
	cfg := engine.DefaultPlayerConfig()
	cfg.Search.Seed = seed
	cfg.Search.Threads = max(s.Threads, 1)
	cfg.Search.DirichletEpsilon = s.Noise
	cfg.Search.TemperaturePlies = s.TemperaturePlies
	cfg.Search.MaxNodes = s.poolNodes()
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
