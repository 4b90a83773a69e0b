package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// TopMoves is how many root moves, most visited first, a record keeps per
// move of the MCTS player: enough for a policy target that holds nearly all
// the visits at self-play budgets, while a record stays a few kilobytes per
// game (every visited move would triple it).
const TopMoves = 8

// mctsPlayer is the toolkit's engine (package engine) without USI. Its
// engine.Player, whose node pool is allocated once, goes back to the
// EnginePool after a game and is reseeded for the next (engine.Player.NewGame
// makes it play exactly as a new one would).
type mctsPlayer struct {
	p      *engine.Player
	margin time.Duration // MoveOverhead: held back from a clock
	manage bool          // ManageTime: the time manager on a clock
	pool   *EnginePool
	key    string
	cap    PlayoutCap
	capRNG *rand.Rand // the cap's draws, from the player's seed (capStream)
	capSrc *rand.PCG
	// policy says whether the records keep the search's policy target: with a Gumbel
	// root, forced playouts or a playout cap, whose targets are not Top's visits.
	policy bool
	// searchPolicy: the settings give the search a policy target of its own (a Gumbel
	// root or forced playouts), whatever the playout cap.
	searchPolicy bool
}

// memory is the memory a player of the spec allocates in this process: the
// node pool of an MCTS player (a USI engine's is its own process's).
func (s PlayerSpec) memory() uint64 {
	if s.Kind != record.KindMCTS {
		return 0
	}
	st, err := s.settings()
	if err != nil {
		return 0
	}
	return uint64(st.Player.Search.MaxNodes) * uint64(mcts.NodeBytes)
}

func newMCTSPlayer(s PlayerSpec, seed uint64, pool *EnginePool) (Player, error) {
	// The pool's key is the spec's settings as written, not the settings they load to:
	// those hold the loaded evaluator, a pointer, so that no two games' keys were equal
	// with an EvalFile and every game made two new players and kept them idle (a loop's
	// self-play grew by some 8 MB a game: 8.7 GB of live heap after 1,000 games), loading
	// the file again each time.
	key := s.engineKey()
	if pool != nil {
		if p, ok := pool.get(key).(*mctsPlayer); ok {
			p.p.NewGame(seed)
			p.capSrc.Seed(seed, capStream)
			p.setCap(s.Cap)
			return p, nil
		}
	}
	st, err := s.settings()
	if err != nil {
		return nil, fmt.Errorf("selfplay: mcts player: %w", err)
	}
	search := st.Player.Search
	searchPolicy := search.GumbelMoves > 0 || search.ForcedPlayouts > 0
	st.Player.Search.Seed = seed
	p, err := engine.NewPlayer(st.Player)
	if err != nil {
		return nil, fmt.Errorf("selfplay: mcts player: %w", err)
	}
	src := rand.NewPCG(seed, capStream)
	mp := &mctsPlayer{p: p, margin: st.MoveOverhead, manage: st.ManageTime, pool: pool, key: key,
		capRNG: rand.New(src), capSrc: src, searchPolicy: searchPolicy}
	mp.setCap(s.Cap)
	return mp, nil
}

// setCap gives the player a game's playout cap, and with it whether its records keep the
// search's policy target: the search's own (searchPolicy), or the cap's full searches.
func (p *mctsPlayer) setCap(c PlayoutCap) { p.cap, p.policy = c, p.searchPolicy || c.On() }

// engineKey says which idle engines a player of the spec can take over: those made from
// the same settings (in the order given) and the same limits, which size the node pool.
// The playout cap is the wrapper's and is set again on each game.
func (s PlayerSpec) engineKey() string {
	return fmt.Sprintf("mcts %q %+v", s.Options, s.Limits)
}

// limits turns the `go` of a move into search limits. A movetime is used
// whole: MoveOverhead is the allowance for talking USI, which an engine in
// the same process does not, and for a clock, which the match keeps
// strictly (engine.TimeBudget holds it back there).
func (m *mctsPlayer) limits(lim usi.GoParams, stm minishogi.Color) mcts.Limits {
	if lim.MoveTime > 0 {
		return mcts.Limits{Time: lim.MoveTime, Playouts: lim.Nodes, Start: lim.Start}
	}
	return engine.TimeBudget(lim, stm, m.margin, m.manage)
}

func (m *mctsPlayer) Move(ctx context.Context, g *minishogi.Game, lim usi.GoParams) (Decision, error) {
	pos := g.Position()
	elim := m.limits(lim, pos.SideToMove())
	full := !m.cap.On() || m.capRNG.Float64() < m.cap.Prob
	if !full {
		elim.Playouts, elim.NoNoise = m.cap.Fast, true
	}
	d, err := m.p.Think(ctx, g, elim)
	if err != nil {
		return Decision{}, err
	}
	st := &record.MoveStats{Visits: d.RootVisits, Value: float64(d.Value), Fast: !full}
	if full && m.policy {
		st.Policy = recordPolicy(d.Target)
	}
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

// Close hands the engine back to the pool, if there is one.
func (m *mctsPlayer) Close() error {
	if m.pool != nil {
		m.pool.put(m.key, m)
	}
	return nil
}

func (m *mctsPlayer) quit() error { return nil }
