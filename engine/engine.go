package engine

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/shogilab/shogilab/internal/sysmem"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// Engine is the Minishogi engine behind the USI server: it keeps the game (start position
// and moves, so repetitions are seen), its options, and a Player that searches on `go`.
type Engine struct {
	game   *minishogi.Game
	cfg    PlayerConfig
	rules  minishogi.GameOptions
	margin time.Duration // MoveOverhead: time kept back from every timed search
	ponder bool          // USI_Ponder: bestmove names the expected reply
	player *Player       // nil until the first search after an option changed
}

// New returns an engine at the start position with the default options.
func New() *Engine {
	cfg := DefaultPlayerConfig()
	cfg.Search.MaxNodes = HashNodes(defaultHashMB)
	return &Engine{
		game:   minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{}),
		cfg:    cfg,
		margin: defaultOverheadMS * time.Millisecond,
	}
}

const (
	defaultHashMB     = 256 // 8M nodes: about 500k playouts from the opening, some seconds of search
	defaultOverheadMS = 30
)

// MaxHashMB is the largest hash size the engine takes, in MiB (USI_Hash's maximum).
const MaxHashMB = 65536

// HashNodes is the node pool (mcts.Config.MaxNodes) that a hash of mb MiB holds, mb from
// 1 to MaxHashMB.
func HashNodes(mb int) int { return mb << 20 / mcts.NodeBytes }

// CheckHash checks a hash of mb MiB against the memory this machine has available before it
// is allocated (Go cannot recover from a failed allocation): see sysmem.Check. The error
// names the largest hash that fits. Where the available memory is unknown (not Linux)
// every size passes.
func CheckHash(mb int) error {
	if err := sysmem.Check(uint64(mb) << 20); err != nil {
		return fmt.Errorf("engine: a hash of %d MiB: %w", mb, err)
	}
	return nil
}

func (e *Engine) Name() string   { return "shogilab" }
func (e *Engine) Author() string { return "the shogilab authors" }

// Options declares the USI options. Real-valued search constants are strings holding a
// decimal number, since USI spins are integers.
func (e *Engine) Options() []usi.Option {
	d := DefaultPlayerConfig()
	return []usi.Option{
		{Name: "Threads", Type: "spin", Default: "1", Min: 1, Max: 64},
		{Name: "USI_Hash", Type: "spin", Default: strconv.Itoa(defaultHashMB), Min: 1, Max: MaxHashMB},
		{Name: "Seed", Type: "spin", Default: "0", Min: 0, Max: math.MaxInt64},
		{Name: "CPuct", Type: "string", Default: fmtFloat(d.Search.CPuct)},
		{Name: "FPUReduction", Type: "string", Default: fmtFloat(d.Search.FPUReduction)},
		{Name: "VirtualLoss", Type: "string", Default: fmtFloat(d.Search.VirtualLoss)},
		{Name: "Twins", Type: "combo", Default: d.Search.Twins.String(),
			Vars: []string{mcts.TwinsAuto.String(), mcts.TwinsOn.String(), mcts.TwinsOff.String()}},
		{Name: "MateDepth", Type: "combo", Default: strconv.Itoa(d.Eval.MateDepth), Vars: []string{"0", "1", "3"}},
		{Name: "MoveOverhead", Type: "spin", Default: strconv.Itoa(defaultOverheadMS), Min: 0, Max: 10000},
		{Name: "Repetition", Type: "combo", Default: minishogi.FirstMoverLoses.String(),
			Vars: []string{minishogi.FirstMoverLoses.String(), minishogi.GoteWins.String(), minishogi.RepetitionDraws.String()}},
		{Name: "MaxPlies", Type: "spin", Default: "0", Min: 0, Max: 100000},
		{Name: "USI_Ponder", Type: "check", Default: "false"},
	}
}

func fmtFloat(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }

// SetOption sets a declared option (USI names are case-insensitive; "Hash" is taken for
// USI_Hash). The search is rebuilt with the new settings at the next `go`.
func (e *Engine) SetOption(name, value string) error {
	integer := func(lo, hi int64) (int64, error) {
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("engine: option %s: %q is not an integer from %d to %d", name, value, lo, hi)
		}
		return n, nil
	}
	positive := func(zeroOK bool) (float32, error) {
		x, err := strconv.ParseFloat(value, 32)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || (x == 0 && !zeroOK) {
			return 0, fmt.Errorf("engine: option %s: %q is not a positive number", name, value)
		}
		return float32(x), nil
	}
	cfg := e.cfg
	var err error
	switch strings.ToLower(name) {
	case "threads":
		var n int64
		n, err = integer(1, 64)
		cfg.Search.Threads = int(n)
	case "usi_hash", "hash":
		var n int64
		if n, err = integer(1, MaxHashMB); err == nil {
			if err = CheckHash(int(n)); err != nil {
				err = fmt.Errorf("%w (option %s)", err, name)
			}
		}
		cfg.Search.MaxNodes = HashNodes(int(n))
	case "seed":
		var n int64
		n, err = integer(0, math.MaxInt64)
		cfg.Search.Seed = uint64(n)
	case "cpuct":
		cfg.Search.CPuct, err = positive(false)
	case "fpureduction":
		cfg.Search.FPUReduction, err = positive(true)
	case "virtualloss":
		cfg.Search.VirtualLoss, err = positive(true)
	case "twins":
		cfg.Search.Twins, err = mcts.ParseTwins(value)
	case "matedepth":
		var n int64
		if n, err = integer(0, 3); err == nil && n == 2 {
			err = fmt.Errorf("engine: option MateDepth: 2 is not one of 0, 1, 3")
		}
		cfg.Eval.MateDepth = int(n)
	case "moveoverhead":
		var n int64
		if n, err = integer(0, 10000); err == nil {
			e.margin = time.Duration(n) * time.Millisecond
		}
		return err
	case "repetition":
		var r minishogi.RepetitionRule
		if r, err = minishogi.ParseRepetitionRule(value); err == nil {
			e.rules.Repetition = r
		}
		return err
	case "maxplies":
		var n int64
		if n, err = integer(0, 100000); err == nil {
			e.rules.MaxPlies = int(n)
		}
		return err
	case "usi_ponder":
		// The time management does not change when the GUI may ponder; the option makes
		// bestmove name the reply to ponder on.
		switch strings.ToLower(value) {
		case "true", "false":
			e.ponder = strings.ToLower(value) == "true"
			return nil
		}
		return fmt.Errorf("engine: option USI_Ponder: %q is not true or false", value)
	default:
		return fmt.Errorf("engine: unknown option %q", name)
	}
	if err != nil {
		return err
	}
	e.cfg, e.player = cfg, nil
	return nil
}

// NewGame drops the search tree and restarts the random choices from the Seed option.
func (e *Engine) NewGame() {
	if e.player != nil {
		e.player.NewGame(e.cfg.Search.Seed) // the config was valid when the player was made
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
	g := minishogi.NewGame(start, e.rules)
	for i, m := range moves {
		if err := g.PlayUSI(m); err != nil {
			return fmt.Errorf("move %d (%s): %w", i+1, m, err)
		}
	}
	e.game = g
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
// line every half second and at the end, and returns the best move, or "resign" when every
// move is proven lost or the game is already over. With USI_Ponder it also names the
// expected reply, the second move of the principal variation.
func (e *Engine) Go(ctx context.Context, limits usi.GoParams, info func(string)) (usi.BestMove, error) {
	if r := e.game.Result(); r.Over() {
		info(fmt.Sprintf("string the game is over (%s)", r.Termination))
		if limits.Infinite {
			<-ctx.Done()
		}
		return usi.BestMove{Move: "resign"}, nil
	}
	if e.player == nil {
		p, err := NewPlayer(e.cfg)
		if err != nil {
			return usi.BestMove{}, err
		}
		e.player = p
	}
	if limits.Depth > 0 {
		info("string go depth is not supported by a tree search; ignored")
	}
	pos := e.game.Position()
	lim := TimeBudget(limits, pos.SideToMove(), e.margin)
	fill := float64(e.cfg.Search.MaxNodes)
	lim.InfoInterval = 500 * time.Millisecond
	lim.OnInfo = func(in mcts.Info) {
		var b strings.Builder
		nps := int64(in.PlayoutsPerSecond())
		fmt.Fprintf(&b, "depth %d seldepth %d nodes %d nps %d time %d hashfull %d score %s",
			in.Depth, in.SelDepth, in.Playouts, nps, in.Elapsed.Milliseconds(),
			int(1000*float64(in.Nodes)/fill), e.player.score(in))
		if len(in.PV) > 0 {
			b.WriteString(" pv")
			for _, m := range in.PV {
				b.WriteString(" " + minishogi.Move(m).String())
			}
		}
		info(b.String())
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
	if e.ponder && len(d.PV) >= 2 && d.PV[0] == d.Move {
		best.Ponder = d.PV[1].String()
	}
	return best, nil
}

// TimeBudget turns the limits of a USI `go` into search limits for the side to move: nodes
// as playouts; movetime less the margin; with clocks, a twentieth of the remaining time plus
// the increment and the byoyomi, less the margin, and never more than the time left before
// byoyomi runs out. Without any limit (`go infinite`, or a bare `go`) the search runs until
// `stop`. A timed search gets at least a millisecond.
func TimeBudget(p usi.GoParams, stm minishogi.Color, margin time.Duration) Limits {
	lim := Limits{Playouts: p.Nodes}
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
	default:
		return lim
	}
	lim.Time = max(lim.Time, time.Millisecond)
	return lim
}
