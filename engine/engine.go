package engine

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// Engine is the Minishogi engine behind the USI server: it keeps the game (start position
// and moves, so repetitions are seen), its settings (the table of AllSettings), and a
// Player that searches on `go`.
type Engine struct {
	game   *minishogi.Game
	set    Settings
	player *Player // nil until the first search after a setting of the player changed
}

// New returns an engine at the start position with the default settings.
func New() *Engine {
	return &Engine{
		game: minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{}),
		set:  DefaultSettings(),
	}
}

func (e *Engine) Name() string   { return "shogilab" }
func (e *Engine) Author() string { return "the shogilab authors" }

// Options declares the USI options: the table of AllSettings.
func (e *Engine) Options() []usi.Option {
	opts := make([]usi.Option, len(settings))
	for i, s := range settings {
		opts[i] = s.USIOption()
	}
	return opts
}

// SetOption sets a setting of the table (names are matched without regard to case, and
// aliases such as "Hash" for USI_Hash are taken). A change to the player's configuration
// rebuilds the search at the next `go`.
func (e *Engine) SetOption(name, value string) error {
	s, ok := FindSetting(name)
	if !ok {
		return fmt.Errorf("engine: unknown option %q", name)
	}
	set := e.set
	if err := s.Set(&set, value); err != nil {
		return err
	}
	if !reflect.DeepEqual(set.Player, e.set.Player) {
		e.player = nil
	}
	e.set = set
	return nil
}

// Report says, after EvalFile is set, what it loaded (file, family, sizes, generation), for
// the info string the USI server sends (usi.Reporter).
func (e *Engine) Report(option string) string {
	if s, ok := FindSetting(option); ok && s.Name == "EvalFile" {
		return "EvalFile " + e.set.EvalLoaded
	}
	return ""
}

// NewGame drops the search tree and restarts the random choices from the Seed option.
func (e *Engine) NewGame() {
	if e.player != nil {
		e.player.NewGame(e.set.Player.Search.Seed)
	}
}

// SetPosition replaces the game only when the SFEN and every move are valid.
func (e *Engine) SetPosition(sfen string, moves []string) error {
	start := minishogi.StartPosition()
	if sfen != "" {
		var err error
		if start, err = minishogi.ParseSFEN(sfen); err != nil {
			return err
		}
	}
	g := minishogi.NewGame(start, e.set.Rules)
	for i, m := range moves {
		if err := g.PlayUSI(m); err != nil {
			return fmt.Errorf("move %d (%s): %w", i+1, m, err)
		}
	}
	e.game = g
	return nil
}

// Ready builds the player for the current settings if a setting changed since the last
// search: the node pool is allocated on `isready` (usi.Readier) rather than on the clock of
// the next `go`.
func (e *Engine) Ready() error {
	if e.player == nil {
		p, err := NewPlayer(e.set.Player)
		if err != nil {
			return err
		}
		e.player = p
	}
	return nil
}

// Perft prints the divide of the current position, each root move as soon as it is
// counted, until ctx is done.
func (e *Engine) Perft(ctx context.Context, depth int, w io.Writer) error {
	pos := e.game.Position()
	moves := pos.LegalMoves(nil)
	var total uint64
	for i, m := range moves {
		u := pos.MakeMove(m)
		n, err := pos.PerftContext(ctx, depth-1)
		pos.UnmakeMove(m, u)
		if err != nil {
			return fmt.Errorf("engine: perft %d stopped after %d of %d moves: %w", depth, i, len(moves), err)
		}
		fmt.Fprintf(w, "%s: %d\n", m, n)
		total += n
	}
	_, err := fmt.Fprintf(w, "\nNodes searched: %d\n", total)
	return err
}

// Display draws the board as Sente sees it, with hands, side to move and SFEN.
func (e *Engine) Display() string {
	pos := e.game.Position()
	var b strings.Builder
	b.WriteString("   5  4  3  2  1\n +---------------+\n")
	for r := 0; r < 5; r++ {
		b.WriteString(" |")
		for f := 5; f >= 1; f-- {
			pc := pos.PieceAt(minishogi.NewSquare(f, r))
			fmt.Fprintf(&b, "%3s", pc)
		}
		fmt.Fprintf(&b, "| %c\n", 'a'+r)
	}
	b.WriteString(" +---------------+\n")
	for _, c := range []minishogi.Color{minishogi.Sente, minishogi.Gote} {
		fmt.Fprintf(&b, "%s hand:", c)
		empty := true
		for _, pt := range minishogi.HandTypes {
			if n := pos.Hand(c, pt); n > 0 {
				fmt.Fprintf(&b, " %s%d", pt, n)
				empty = false
			}
		}
		if empty {
			b.WriteString(" -")
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Side to move: %s\nSfen: %s\nKey: %016X\nCheckers:", pos.SideToMove(), pos.SFEN(), pos.Hash())
	for c := pos.Checkers(); c != 0; c &= c - 1 {
		fmt.Fprintf(&b, " %s", c.First())
	}
	if r := e.game.Result(); r.Over() {
		fmt.Fprintf(&b, "\nResult: %s (%s)", r, r.Termination)
	}
	return b.String()
}

// Go searches the current position within the limits (see TimeBudget), sending an info
// line (depth, seldepth, nodes as playouts, nps, time, hashfull, score, pv) every half second
// and at the end, and returns the best move, or "resign" when every
// move is proven lost (unless Resign is never) or the game is already over. With
// USI_Ponder it also names the expected reply, the second move of the principal variation.
func (e *Engine) Go(ctx context.Context, limits usi.GoParams, info func(usi.SearchInfo)) (usi.BestMove, error) {
	if r := e.game.Result(); r.Over() {
		info(gameOver(r))
		if limits.Infinite {
			<-ctx.Done()
		}
		return usi.BestMove{Move: "resign"}, nil
	}
	if err := e.Ready(); err != nil {
		return usi.BestMove{}, err
	}
	if limits.Depth > 0 {
		info(usi.SearchInfo{String: "go depth is not supported by a tree search; ignored"})
	}
	pos := e.game.Position()
	lim := TimeBudget(limits, pos.SideToMove(), e.set.MoveOverhead, e.set.ManageTime)
	// hashfull is the node pool's use, the earlier trees that tree reuse leaves in place
	// included: it rises to half the pool before a move compacts it (mcts, Searcher.Nodes).
	fill := float64(e.set.Player.Search.MaxNodes)
	lim.InfoInterval = 500 * time.Millisecond
	lim.OnInfo = func(in mcts.Info) {
		line := usi.SearchInfo{
			Has:   usi.InfoDepth | usi.InfoSelDepth | usi.InfoNodes | usi.InfoNPS | usi.InfoTime | usi.InfoHashFull,
			Depth: in.Depth, SelDepth: in.SelDepth, Nodes: in.Playouts, NPS: int64(in.PlayoutsPerSecond()),
			Time: in.Elapsed, HashFull: int(1000 * float64(in.Nodes) / fill),
		}
		for _, m := range in.PV {
			line.PV = append(line.PV, minishogi.Move(m).String())
		}
		info(e.player.score(in).info(line))
	}
	d, err := e.player.Think(ctx, e.game, lim)
	if err != nil {
		return usi.BestMove{}, err
	}
	if limits.Infinite {
		// USI: after `go infinite` the bestmove waits for `stop`, even when the search
		// ended by itself (a proven root or a full pool).
		<-ctx.Done()
	}
	if d.Resign {
		return usi.BestMove{Move: "resign"}, nil
	}
	best := usi.BestMove{Move: d.Move.String()}
	if e.set.Ponder && len(d.PV) >= 2 && d.PV[0] == d.Move {
		best.Ponder = d.PV[1].String()
	}
	return best, nil
}

// TimeBudget turns the limits of a USI `go` into search limits for the side to move: nodes
// as playouts; movetime less the margin; with clocks, a twentieth of the remaining time plus
// the increment and the byoyomi, less the margin, and never more than the time left before
// byoyomi runs out. With manage (the ManageTime setting) that time is what a clocked search
// aims at, and the time manager (mcts.Limits.MaxTime) may stop it early or run on to three
// times as long, but never past a fifth of the remaining time plus increment and byoyomi.
// Without any limit (`go infinite`, or a bare `go`) the search runs until `stop`. A timed
// search gets at least a millisecond. The time counts from p.Start, when the `go` arrived.
func TimeBudget(p usi.GoParams, stm minishogi.Color, margin time.Duration, manage bool) mcts.Limits {
	lim := mcts.Limits{Playouts: p.Nodes, Start: p.Start}
	if p.Infinite {
		return lim
	}
	remaining, inc := p.BTime, p.BInc
	if stm == minishogi.Gote {
		remaining, inc = p.WTime, p.WInc
	}
	switch {
	case p.MoveTime > 0:
		lim.Time = p.MoveTime - margin
	case remaining > 0 || inc > 0 || p.Byoyomi > 0:
		lim.Time = min(remaining/20+inc+p.Byoyomi, remaining+p.Byoyomi) - margin
		if manage {
			lim.MaxTime = min(3*(lim.Time+margin), remaining/5+inc+p.Byoyomi, remaining+p.Byoyomi) - margin
		}
	default:
		return lim
	}
	lim.Time = max(lim.Time, time.Millisecond)
	if lim.MaxTime <= lim.Time {
		lim.MaxTime = 0
	}
	return lim
}

// gameOver is the info string of a search asked for after the game's end.
func gameOver(r minishogi.Result) usi.SearchInfo {
	return usi.SearchInfo{String: fmt.Sprintf("the game is over (%s)", r.Termination)}
}
