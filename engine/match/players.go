package match

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// Engine is the shogilab engine in-process, thinking for a fixed time or playout budget.
type Engine struct {
	name   string
	player *engine.Player
	limits engine.Limits
}

// NewEngine returns our engine with cfg, thinking within lim on every move.
func NewEngine(name string, cfg engine.PlayerConfig, lim engine.Limits) (*Engine, error) {
	p, err := engine.NewPlayer(cfg)
	if err != nil {
		return nil, err
	}
	return &Engine{name: name, player: p, limits: lim}, nil
}

func (e *Engine) Name() string { return e.name }
func (e *Engine) Close() error { return nil }

// NewGame drops the tree and reseeds the search.
func (e *Engine) NewGame(_ context.Context, seed uint64) error { return e.player.NewGame(seed) }

// Move thinks and returns the move, or "resign" when every move is proven lost.
func (e *Engine) Move(ctx context.Context, g *minishogi.Game) (string, error) {
	d, err := e.player.Think(ctx, g, e.limits)
	if err != nil {
		return "", err
	}
	if d.Resign {
		return "resign", nil
	}
	return d.Move.String(), nil
}

// External is a USI engine run as a child process.
type External struct {
	name   string
	client *usi.Client
	params usi.GoParams
}

// NewExternal starts argv, shakes hands, selects Minishogi where the engine has a
// UCI_Variant option (Fairy-Stockfish does), sets options, and waits until it is ready.
func NewExternal(ctx context.Context, argv []string, options map[string]string, params usi.GoParams) (*External, error) {
	c, err := usi.Start(ctx, argv)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*External, error) {
		c.Close()
		return nil, err
	}
	info, err := c.Handshake(ctx)
	if err != nil {
		return fail(err)
	}
	if _, ok := info.Option("UCI_Variant"); ok {
		if err := c.SetOption("UCI_Variant", "minishogi"); err != nil {
			return fail(err)
		}
	}
	for k, v := range options {
		if err := c.SetOption(k, v); err != nil {
			return fail(err)
		}
	}
	if err := c.IsReady(ctx); err != nil {
		return fail(err)
	}
	name := info.Name
	if name == "" {
		name = c.Name()
	}
	return &External{name: name, client: c, params: params}, nil
}

func (x *External) Name() string { return x.name }
func (x *External) Close() error { return x.client.Close() }

// NewGame sends usinewgame. External engines take no seed.
func (x *External) NewGame(ctx context.Context, _ uint64) error {
	if err := x.client.NewGame(); err != nil {
		return err
	}
	return x.client.IsReady(ctx)
}

// Move sends the game as a start SFEN and moves, and waits for bestmove.
func (x *External) Move(ctx context.Context, g *minishogi.Game) (string, error) {
	start := g.Start()
	moves := make([]string, len(g.Moves()))
	for i, m := range g.Moves() {
		moves[i] = m.String()
	}
	if err := x.client.Position(start.SFEN(), moves); err != nil {
		return "", err
	}
	bm, err := x.client.Go(ctx, x.params)
	if err != nil {
		return "", err
	}
	return bm.Move, nil
}

// Defaults are the per-move limits a spec does not override.
type Defaults struct {
	MoveTime time.Duration // think time per move (0: use Playouts)
	Playouts int64         // playouts per move for our engine, nodes for external engines
	Threads  int           // search goroutines of our engine (0: 1)
}

// ParsePlayer builds a player from a spec:
//
//	random
//	shogilab[:key=value,...]   keys: playouts, movetime (e.g. 100ms), threads, hash (MB),
//	                           cpuct, fpu, twins (auto, on, off), matedepth, name
//	usi:PATH[,key=value,...]   keys: movetime, nodes, name, and option.NAME=VALUE for the engine
//
// Limits not in the spec come from d.
func ParsePlayer(ctx context.Context, spec string, d Defaults) (Player, error) {
	kind, rest, _ := strings.Cut(spec, ":")
	bad := func(format string, args ...any) error {
		return fmt.Errorf("match: player %q: %s", spec, fmt.Sprintf(format, args...))
	}
	switch kind {
	case "random":
		if rest != "" {
			return nil, bad("random takes no settings")
		}
		return NewRandom(), nil
	case "shogilab":
		cfg := engine.DefaultPlayerConfig()
		cfg.Search.Threads = max(d.Threads, 1)
		lim := engine.Limits{Time: d.MoveTime, Playouts: d.Playouts}
		if lim.Time > 0 {
			lim.Playouts = 0
		}
		name := "shogilab"
		for _, kv := range splitSettings(rest) {
			k, v, _ := strings.Cut(kv, "=")
			var err error
			switch k {
			case "playouts":
				lim.Playouts, err = strconv.ParseInt(v, 10, 64)
				lim.Time = 0
			case "movetime":
				lim.Time, err = time.ParseDuration(v)
				lim.Playouts = 0
			case "threads":
				cfg.Search.Threads, err = strconv.Atoi(v)
			case "hash":
				var mb int
				if mb, err = strconv.Atoi(v); err == nil && (mb < 1 || mb > engine.MaxHashMB) {
					err = fmt.Errorf("%d MB is not from 1 to %d", mb, engine.MaxHashMB)
				} else if err == nil {
					err = engine.CheckHash(mb)
				}
				cfg.Search.MaxNodes = engine.HashNodes(mb)
			case "cpuct":
				cfg.Search.CPuct, err = parseFloat32(v)
			case "fpu":
				cfg.Search.FPUReduction, err = parseFloat32(v)
			case "twins":
				cfg.Search.Twins, err = mcts.ParseTwins(v)
			case "matedepth":
				cfg.Eval.MateDepth, err = strconv.Atoi(v)
			case "name":
				name = v
			default:
				return nil, bad("unknown setting %q", k)
			}
			if err != nil {
				return nil, bad("%s: %v", k, err)
			}
		}
		if lim.Time <= 0 && lim.Playouts <= 0 {
			return nil, bad("needs a movetime or playouts per move")
		}
		p, err := NewEngine(name, cfg, lim)
		if err != nil {
			return nil, bad("%v", err)
		}
		return p, nil
	case "usi":
		parts := splitSettings(rest)
		if len(parts) == 0 || parts[0] == "" {
			return nil, bad("usi needs the engine's path")
		}
		argv := []string{parts[0]}
		params := usi.GoParams{MoveTime: d.MoveTime}
		if params.MoveTime == 0 {
			params.Nodes = d.Playouts
		}
		options := map[string]string{}
		var name string
		for _, kv := range parts[1:] {
			k, v, _ := strings.Cut(kv, "=")
			var err error
			switch {
			case k == "movetime":
				params.MoveTime, err = time.ParseDuration(v)
				params.Nodes = 0
			case k == "nodes":
				params.Nodes, err = strconv.ParseInt(v, 10, 64)
				params.MoveTime = 0
			case k == "name":
				name = v
			case strings.HasPrefix(k, "option."):
				options[strings.TrimPrefix(k, "option.")] = v
			default:
				return nil, bad("unknown setting %q", k)
			}
			if err != nil {
				return nil, bad("%s: %v", k, err)
			}
		}
		if params.MoveTime <= 0 && params.Nodes <= 0 {
			return nil, bad("needs a movetime or nodes per move")
		}
		x, err := NewExternal(ctx, argv, options, params)
		if err != nil {
			return nil, bad("%v", err)
		}
		if name != "" {
			x.name = name
		}
		return x, nil
	}
	return nil, bad("unknown kind %q (want random, shogilab or usi)", kind)
}

// splitSettings splits "a,b=c,d" at commas (for a usi spec the first item is the path).
func splitSettings(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, part := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(part))
	}
	return out
}

func parseFloat32(s string) (float32, error) {
	x, err := strconv.ParseFloat(s, 32)
	return float32(x), err
}
