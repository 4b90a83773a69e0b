package selfplay

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// Player chooses the moves of one side in one game. A Player is made for a
// game by PlayerSpec.New and closed when the game ends; it is used by one
// goroutine.
type Player interface {
	// Move chooses a move for the side to move in g, which is not over.
	// An error means the player could not answer (its engine died, timed
	// out or answered nonsense); the game then ends as engine_error, unless
	// ctx was cancelled, in which case the game is abandoned.
	Move(ctx context.Context, g *minishogi.Game) (Decision, error)
	// Close releases the player's resources (an engine process).
	Close() error
}

// Decision is a player's answer.
type Decision struct {
	// Move is the move in USI notation, or Resign. A string that is not a
	// legal move ends the game as illegal_move.
	Move string
	// Stats is what the player's search saw, or nil for a player that does
	// not search.
	Stats *record.MoveStats
}

// Resign is the Decision.Move of a player that resigns (USI `bestmove resign`).
const Resign = "resign"

// Option is one USI engine option: setoption name Name value Value.
type Option struct{ Name, Value string }

// PlayerSpec is the configuration of one side: what plays and with which
// budget. ParsePlayerSpec reads it from a command line; New makes a Player
// for one game.
type PlayerSpec struct {
	Kind string // record.KindRandom, record.KindMCTS or record.KindUSI
	Name string // the name in records; defaults from the kind

	// Search budget per move. MCTS uses Playouts (or MoveTime when set);
	// a USI engine gets `go movetime`, `go nodes` or `go depth`.
	Playouts int64
	MoveTime time.Duration
	Nodes    int64
	Depth    int

	// MCTS self-play settings.
	Threads          int     // search threads per game
	Noise            float64 // Dirichlet noise weight at the root (0: none)
	TemperaturePlies int     // plies during which moves are drawn ∝ visits

	// USI engines.
	Argv    []string
	Options []Option
}

// ParsePlayerSpec reads a player specification:
//
//	random
//	mcts[:key=value,...]   keys: playouts, movetime, threads, noise, temperature-plies, name
//	usi:COMMAND[,key=value,...]
//	                       COMMAND is split at spaces into argv; keys: movetime,
//	                       nodes, depth, name, and option.NAME=VALUE for setoption
//
// Durations take Go's units (movetime=100ms) or plain milliseconds
// (movetime=100). defaults supplies what a spec leaves out (the run's
// --playouts, --movetime, --threads, --noise, --temperature-plies).
func ParsePlayerSpec(text string, defaults PlayerSpec) (PlayerSpec, error) {
	kind, args, _ := strings.Cut(text, ":")
	s := defaults
	s.Kind, s.Name, s.Argv, s.Options = kind, "", nil, nil
	var fields []string
	if args != "" {
		fields = strings.Split(args, ",")
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("selfplay: player %q: %s", text, fmt.Sprintf(format, a...))
	}
	switch kind {
	case record.KindRandom:
	case record.KindMCTS:
	case record.KindUSI:
		if len(fields) == 0 || strings.Contains(fields[0], "=") || strings.TrimSpace(fields[0]) == "" {
			return PlayerSpec{}, bad("usi needs the engine's command first, as usi:/usr/games/fairy-stockfish")
		}
		s.Argv = strings.Fields(fields[0])
		fields = fields[1:]
		s.MoveTime, s.Nodes, s.Depth = 0, 0, 0
	default:
		return PlayerSpec{}, bad("kind %q is not random, mcts or usi", kind)
	}
	for _, f := range fields {
		key, value, ok := strings.Cut(f, "=")
		if !ok {
			return PlayerSpec{}, bad("%q is not key=value", f)
		}
		var err error
		switch {
		case key == "name":
			s.Name = value
		case key == "movetime" && kind != record.KindRandom:
			s.MoveTime, err = parseMillis(value)
		case key == "playouts" && kind == record.KindMCTS:
			s.Playouts, err = strconv.ParseInt(value, 10, 64)
		case key == "threads" && kind == record.KindMCTS:
			s.Threads, err = strconv.Atoi(value)
		case key == "noise" && kind == record.KindMCTS:
			s.Noise, err = strconv.ParseFloat(value, 64)
		case key == "temperature-plies" && kind == record.KindMCTS:
			s.TemperaturePlies, err = strconv.Atoi(value)
		case key == "nodes" && kind == record.KindUSI:
			s.Nodes, err = strconv.ParseInt(value, 10, 64)
		case key == "depth" && kind == record.KindUSI:
			s.Depth, err = strconv.Atoi(value)
		case strings.HasPrefix(key, "option.") && kind == record.KindUSI && len(key) > len("option."):
			s.Options = append(s.Options, Option{strings.TrimPrefix(key, "option."), value})
		default:
			return PlayerSpec{}, bad("unknown key %q for %s", key, kind)
		}
		if err != nil {
			return PlayerSpec{}, bad("%s=%q is not a valid value", key, value)
		}
	}
	if kind == record.KindUSI && s.MoveTime == 0 && s.Nodes == 0 && s.Depth == 0 {
		// No limit of its own: the run's --movetime, else --playouts as nodes.
		s.MoveTime = defaults.MoveTime
		if s.MoveTime == 0 {
			s.Nodes = defaults.Playouts
		}
	}
	if err := s.Validate(); err != nil {
		return PlayerSpec{}, bad("%v", err)
	}
	return s, nil
}

// Validate checks the spec's values.
func (s PlayerSpec) Validate() error {
	switch {
	case s.Playouts < 0 || s.MoveTime < 0 || s.Nodes < 0 || s.Depth < 0:
		return errors.New("a budget is negative")
	case s.Threads < 0:
		return errors.New("threads is negative")
	case s.Noise < 0 || s.Noise > 1:
		return errors.New("noise is not within [0, 1]")
	case s.TemperaturePlies < 0:
		return errors.New("temperature-plies is negative")
	case s.Kind == record.KindUSI && len(s.Argv) == 0:
		return errors.New("usi needs a command")
	case s.Kind == record.KindUSI && s.MoveTime == 0 && s.Nodes == 0 && s.Depth == 0:
		return errors.New("usi needs movetime, nodes or depth")
	case s.Kind == record.KindMCTS && s.Playouts == 0 && s.MoveTime == 0:
		return errors.New("mcts needs playouts or movetime")
	case s.Kind == record.KindMCTS && s.Playouts > maxPoolNodes:
		return fmt.Errorf("playouts %d is more than a move's search can hold: it stops when its pool of %d nodes (%d MiB) is full, and nearly every playout takes a node; at most %d", s.Playouts, maxPoolNodes, maxPoolNodes*mcts.NodeBytes>>20, maxPoolNodes)
	}
	return nil
}

func parseMillis(v string) (time.Duration, error) {
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		return time.Duration(ms) * time.Millisecond, nil
	}
	return time.ParseDuration(v)
}

// DisplayName is the player's name in records: Name, or one made from the
// kind and the engine's command.
func (s PlayerSpec) DisplayName() string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Kind == record.KindUSI && len(s.Argv) > 0:
		base := s.Argv[0]
		if i := strings.LastIndexByte(base, '/'); i >= 0 {
			base = base[i+1:]
		}
		return base
	}
	return s.Kind
}

// Record describes the player for a game record: the settings that shape
// its play, so that a dataset says what produced it.
func (s PlayerSpec) Record() record.Player {
	cfg := map[string]any{}
	put := func(key string, v any, set bool) {
		if set {
			cfg[key] = v
		}
	}
	switch s.Kind {
	case record.KindMCTS:
		put("playouts", s.Playouts, s.Playouts > 0)
		put("movetime_ms", s.MoveTime.Milliseconds(), s.MoveTime > 0)
		put("threads", max(s.Threads, 1), true)
		put("noise", s.Noise, s.Noise > 0)
		put("temperature_plies", s.TemperaturePlies, s.TemperaturePlies > 0)
	case record.KindUSI:
		put("argv", s.Argv, true)
		lim := s.usiLimits()
		put("movetime_ms", lim.MoveTime.Milliseconds(), lim.MoveTime > 0)
		put("nodes", lim.Nodes, lim.Nodes > 0)
		put("depth", lim.Depth, lim.Depth > 0)
		if len(s.Options) > 0 {
			opts := map[string]any{}
			for _, o := range s.Options {
				opts[o.Name] = o.Value
			}
			cfg["options"] = opts
		}
	}
	if len(cfg) == 0 {
		cfg = nil
	}
	return record.Player{Name: s.DisplayName(), Kind: s.Kind, Config: cfg}
}

// New makes a player for one game. seed drives its random choices (see
// SideSeed). ctx bounds an engine process's life; a USI engine is taken
// from engines when it holds an idle one (engines may be nil).
func (s PlayerSpec) New(ctx context.Context, seed uint64, engines *EnginePool) (Player, error) {
	switch s.Kind {
	case record.KindRandom:
		return NewRandomPlayer(seed), nil
	case record.KindUSI:
		return newUSIPlayer(ctx, s, engines)
	case record.KindMCTS:
		return newMCTSPlayer(s, seed)
	}
	panic(fmt.Sprintf("selfplay: unknown player kind %q", s.Kind))
}

// randomPlayer plays a uniformly random legal move: the weakest baseline,
// and a fast player for tests of the runner.
type randomPlayer struct {
	rng   *rand.Rand
	moves []minishogi.Move
}

// NewRandomPlayer returns a player that plays uniformly random legal moves,
// drawn from a PCG generator seeded with seed.
func NewRandomPlayer(seed uint64) Player {
	return &randomPlayer{rng: rand.New(rand.NewPCG(seed, 0x5e1f9a7))}
}

func (p *randomPlayer) Move(_ context.Context, g *minishogi.Game) (Decision, error) {
	pos := g.Position()
	p.moves = pos.LegalMoves(p.moves[:0])
	if len(p.moves) == 0 {
		panic("selfplay: Move called in a finished game")
	}
	return Decision{Move: p.moves[p.rng.IntN(len(p.moves))].String()}, nil
}

func (p *randomPlayer) Close() error { return nil }
