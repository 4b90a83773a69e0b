package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/shogilab/shogilab/datasets/evaluation"
	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/outcome"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// PlayerConfig configures a Player: the search constants (threads, node pool, PUCT, noise,
// temperature, seed) and the evaluator's weights and mate search.
type PlayerConfig struct {
	Search mcts.Config
	Eval   eval.Config
	// RootMate, if above 0, runs a df-pn tsume search of at most this many plies from the
	// root before the tree search, within a tenth of the think, and plays a mate it finds
	// (rootmate.go).
	RootMate int
	// Resign says when the player resigns: ResignProven (the zero value) or ResignNever.
	Resign Resign
	// MateHistory says how the leaf mate search knows the positions of the game, whose
	// lines it distrusts: MateHistoryExact (the zero value) or MateHistoryFilter.
	MateHistory MateHistory
}

// MateHistory is how the leaf mate search tells whether a position occurred earlier in the
// game (engine.Game.MaybeSeen; docs/tactics.md, "The evaluation cache and the exact
// repetition check").
type MateHistory uint8

const (
	// MateHistoryExact asks the history's filter and checks a full bucket against the
	// history: the default.
	MateHistoryExact MateHistory = iota
	// MateHistoryFilter trusts the filter alone, which also answers "may have occurred" for
	// positions that share a bucket with one that did: the engine before the exact check,
	// kept so that the records it made can be played again.
	MateHistoryFilter
)

var mateHistoryNames = [...]string{MateHistoryExact: "exact", MateHistoryFilter: "filter"}

func (h MateHistory) String() string { return nameOf(mateHistoryNames[:], h, "MateHistory") }

// ParseMateHistory reads exact or filter.
func ParseMateHistory(s string) (MateHistory, error) {
	return parseName[MateHistory](mateHistoryNames[:], s, "mate history")
}

// Resign is when a player resigns. A game's length depends on it: with ResignProven a
// self-play game ends when its loser's search proves every move lost, which depends on
// the mate search (MateDepth, MateNodes) and the budget; with ResignNever it is played to
// the end the rules define (mate, repetition, the play limit).
type Resign uint8

const (
	ResignProven Resign = iota // when every move is proven lost: the default
	ResignNever                // never: a lost game is played out, the longest resistance first
)

var resignNames = [...]string{ResignProven: "proven", ResignNever: "never"}

func (r Resign) String() string { return nameOf(resignNames[:], r, "Resign") }

// ParseResign reads proven or never.
func ParseResign(s string) (Resign, error) { return parseName[Resign](resignNames[:], s, "resign") }

// nameOf is the name of an enumerated setting's value v, or TYPE(v) for one out of range.
func nameOf[T ~uint8](names []string, v T, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// parseName reads one of names as an enumerated setting's value; what names the setting
// in the error, which lists the names.
func parseName[T ~uint8](names []string, s, what string) (T, error) {
	for i, name := range names {
		if s == name {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("%s %q is not %s", what, s, strings.Join(names, " or "))
}

// DefaultPlayerConfig returns the defaults of mcts.DefaultConfig and eval.DefaultConfig,
// with a node pool of 1<<20 nodes (32 MiB) and the built-in network as the evaluation
// (BuiltinNet; eval.DefaultConfig alone is the hand-set evaluation).
func DefaultPlayerConfig() PlayerConfig {
	s := mcts.DefaultConfig()
	s.MaxNodes = 1 << 20
	// Implicit minimax backups at 0.3 beat the mean alone by +84 Elo [+53, +116] with the
	// built-in network (SPRT at 1,000 playouts, docs/tactics.md).
	s.MinimaxWeight = 0.3
	e := eval.DefaultConfig()
	e.Net = BuiltinNet()
	// The built-in network's priors at softmax temperature 1.3 beat them at 1 by SPRT at
	// 100 ms a move (docs/tactics.md, "Settings at 100 ms").
	e.PolicyTemperature = 1.3
	// RootMate stays off: at 15 it won 31 of 1,000 distinct pairs and lost none at 1,000
	// playouts (docs/tactics.md#rerun), but at 100 ms a move it gained nothing measurable
	// (docs/tactics.md, the root mate search).
	return PlayerConfig{Search: s, Eval: e}
}

// BuiltinNet is the shipped evaluation network (package datasets/evaluation), decoded once
// and shared: a Net is only read by the evaluators, each with its own accumulator. It beat
// the hand-set evaluation by about +200 Elo at equal playouts and at equal time
// (datasets/README.md, "The evaluation network").
var BuiltinNet = sync.OnceValue(func() *nnue.Net {
	net, err := nnue.Decode(evaluation.Builtin)
	if err != nil { // the embedded bytes are fixed at build time; a test decodes them
		panic(fmt.Sprintf("engine: the built-in network %s: %v", evaluation.BuiltinName, err))
	}
	return net
})

// Validate reports the first invalid field.
func (c PlayerConfig) Validate() error {
	if err := c.Search.Validate(); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	if err := c.Eval.Validate(); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	if c.RootMate < 0 || c.RootMate > MaxTsumePlies {
		return fmt.Errorf("engine: RootMate is %d, want 0 (off) to %d", c.RootMate, MaxTsumePlies)
	}
	if int(c.Resign) >= len(resignNames) {
		return fmt.Errorf("engine: Resign is %d, want ResignProven or ResignNever", c.Resign)
	}
	return nil
}

// Player is the engine without USI: it thinks about a game and returns a decision with
// the search's statistics. It keeps its search tree between calls, so that consecutive
// positions of one game reuse it. Not safe for concurrent use (one Think at a time), but
// Stop may be called from any goroutine.
type Player struct {
	cfg      PlayerConfig
	searcher *mcts.Searcher
	// tsume holds the root mate search's tables, one for each attacker, made at their full
	// size with the player (when RootMate is on) and emptied by NewGame, so that no think
	// spends its clock allocating or rehashing one; kept for a game: an engine that moves for
	// both sides (a GUI's analysis, a game against itself) keeps both instead of starting one
	// at every move.
	tsume [2]*tsumeSearch
}

// NewPlayer allocates the node pool (Search.MaxNodes × mcts.NodeBytes bytes) and returns
// a player, or an error if cfg is invalid.
func NewPlayer(cfg PlayerConfig) (*Player, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ecfg := cfg.Eval
	s, err := mcts.NewSearcher(cfg.Search, func() mcts.Evaluator { return eval.New(ecfg) })
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	p := &Player{cfg: cfg, searcher: s}
	if cfg.RootMate > 0 {
		for side := range p.tsume {
			p.tsume[side] = newTsumeSearch(minishogi.Color(side))
		}
	}
	return p, nil
}

// Config returns the player's configuration.
func (p *Player) Config() PlayerConfig { return p.cfg }

// NewGame drops the search tree and restarts every random choice from seed, so that a
// game played from here depends only on seed and the moves (with one search goroutine and
// playout budgets): it plays exactly as a new Player with Search.Seed = seed would. The node
// pool is kept, so a new game allocates nothing.
func (p *Player) NewGame(seed uint64) {
	p.cfg.Search.Seed = seed
	p.searcher.Reseed(seed)
	for _, ms := range p.tsume {
		if ms != nil {
			ms.Clear()
		}
	}
}

// Stop ends a running Think early; it returns its decision as usual.
func (p *Player) Stop() { p.searcher.Stop() }

// Score is a search result as USI reports it: a proven mate in plies (positive when the
// side to move mates, negative when it is mated) or else centipawns.
type Score struct {
	Mate int // plies to the end of a proven game, signed; 0 when not proven (see Proven)
	CP   int
	// Proven tells a mate (Mate != 0) or a proven draw apart from an estimate.
	Proven bool
}

// String returns "cp N" or "mate N", the words of a USI info line after "score".
func (s Score) String() string {
	return strings.TrimPrefix(s.info(usi.SearchInfo{}).Format(), "info score ")
}

// info returns in with the score s: a mate when proven, centipawns otherwise.
func (s Score) info(in usi.SearchInfo) usi.SearchInfo {
	if s.Proven && s.Mate != 0 {
		in.Kind, in.Mate = usi.ScoreMate, s.Mate
	} else {
		in.Kind, in.CP = usi.ScoreCP, s.CP
	}
	return in
}

// MoveStat is one root move after a search.
type MoveStat struct {
	Move   minishogi.Move
	Visits uint32
	Q      float32    // mean value for the side to move after playing Move
	Prior  float32    // the prior the search used, root noise included
	Proof  mcts.Proof // the proven result of playing Move, for the side to move
}

// Decision is what Think decided, with the statistics a record keeps.
type Decision struct {
	Move minishogi.Move // the move to play; when Resign, the longest resistance
	// Resign is true when every move is proven lost and the player resigns then
	// (PlayerConfig.Resign is ResignProven). Think never claims a win: a proven win is
	// played out.
	Resign     bool
	Value      float32 // the root's value for the side to move, in [-1, 1]
	Score      Score
	RootVisits int64 // the root's visits, including those kept from earlier searches
	Playouts   int64 // playouts of this search
	Collisions int64 // playouts retried because another goroutine was expanding their leaf
	Twins      int64 // playouts that were the twin of another in one descent (mcts.Config.Twins)
	Nodes      int   // tree nodes in use
	Depth      int   // mean playout depth
	SelDepth   int   // deepest playout
	Elapsed    time.Duration
	PV         []minishogi.Move
	Top        []MoveStat // the visited or proven root moves, most visited first
	// Target is the search's policy target (mcts.Result.Target): the moves of positive
	// probability, most probable first.
	Target []MoveProb
	Stop   mcts.StopReason
}

// MoveProb is one move of a policy target with its probability.
type MoveProb struct {
	Move minishogi.Move
	P    float32
}

// Think searches the current position of g within lim and returns the move to play. g is
// not changed. It returns an error if the game is over. lim.Ply is not read: Think takes the
// ply from g (it decides whether the temperature applies).
func (p *Player) Think(ctx context.Context, g *minishogi.Game, lim mcts.Limits) (Decision, error) {
	if lim.Start.IsZero() {
		lim.Start = time.Now()
	}
	if g.Result().Over() {
		return Decision{}, fmt.Errorf("engine: think: the game is over (%s)", g.Result().Termination)
	}
	return p.think(ctx, FromGame(g), lim)
}

func (p *Player) think(ctx context.Context, game *Game, lim mcts.Limits) (Decision, error) {
	game.filterOnly = p.cfg.MateHistory == MateHistoryFilter
	mate, plies, found, err := p.rootMate(game, lim)
	if err != nil {
		return Decision{}, fmt.Errorf("engine: %w", err)
	}
	if found {
		return Decision{Move: mate, Value: 1, Score: Score{Mate: plies, CP: 30000, Proven: true},
			Elapsed: time.Since(lim.Start), PV: []minishogi.Move{mate}, Stop: mcts.StopProven,
			Top: []MoveStat{{Move: mate, Proof: mcts.Proof{Outcome: outcome.Win, Plies: plies}}}}, nil
	}
	mlim := lim
	mlim.Ply = game.Ply()
	res, err := p.searcher.Search(ctx, game, mlim)
	if err == nil && res.Stop == mcts.StopPoolFull && res.Playouts < res.RootVisits/10 {
		// The tree kept from earlier searches filled the pool, leaving this search almost
		// no room: start a fresh tree with what is left of the budget.
		p.searcher.Reset()
		// The time counts from the same start: what the first search spent is gone.
		if mlim.Playouts > 0 {
			mlim.Playouts = max(mlim.Playouts-res.Playouts, 1)
		}
		wasted := res.Playouts
		res, err = p.searcher.Search(ctx, game, mlim)
		res.Playouts += wasted
	}
	if err != nil {
		return Decision{}, fmt.Errorf("engine: %w", err)
	}
	d := Decision{
		Move:       minishogi.Move(res.Best),
		Resign:     res.Proof.Outcome == outcome.Loss && p.cfg.Resign == ResignProven,
		Value:      res.Value,
		Score:      p.score(res.Info),
		RootVisits: res.RootVisits,
		Playouts:   res.Playouts,
		Collisions: res.Collisions,
		Twins:      res.Twins,
		Nodes:      res.Nodes,
		Depth:      res.Depth,
		SelDepth:   res.SelDepth,
		Elapsed:    res.Elapsed,
		Stop:       res.Stop,
	}
	for _, m := range res.PV {
		d.PV = append(d.PV, minishogi.Move(m))
	}
	for _, c := range res.Root {
		if c.Visits > 0 || c.Proof.Outcome != outcome.Unknown {
			d.Top = append(d.Top, MoveStat{minishogi.Move(c.Move), c.Visits, c.Q, c.Prior, c.Proof})
		}
	}
	slices.SortStableFunc(d.Top, func(a, b MoveStat) int { return int(b.Visits) - int(a.Visits) })
	for i, c := range res.Root {
		if p := res.Target[i]; p > 0 {
			d.Target = append(d.Target, MoveProb{minishogi.Move(c.Move), p})
		}
	}
	slices.SortStableFunc(d.Target, func(a, b MoveProb) int { return cmp.Compare(b.P, a.P) })
	if res.RootVisits <= 1 && len(res.Root) > 0 && res.Proof.Outcome == outcome.Unknown {
		// Stopped before any child was visited: the best prior is the best guess.
		best := res.Root[0]
		for _, c := range res.Root[1:] {
			if c.Prior > best.Prior {
				best = c
			}
		}
		d.Move = minishogi.Move(best.Move)
	}
	return d, nil
}

// score turns a search snapshot into a USI score.
func (p *Player) score(in mcts.Info) Score {
	switch in.Proof.Outcome {
	case outcome.Win:
		return Score{Mate: in.Proof.Plies, CP: 30000, Proven: true}
	case outcome.Loss:
		return Score{Mate: -max(in.Proof.Plies, 1), CP: -30000, Proven: true}
	case outcome.Draw:
		return Score{Proven: true}
	}
	return Score{CP: p.cfg.Eval.Weights.Centipawns(in.Value)}
}
