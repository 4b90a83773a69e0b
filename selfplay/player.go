package selfplay

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// Player chooses the moves of one side in one game. A Player is made for a
// game by PlayerSpec.New and closed when the game ends; it is used by one
// goroutine.
type Player interface {
	// Move chooses a move for the side to move in g, which is not over,
	// within lim: the player's budget for this move as USI's `go` states it
	// (movetime, nodes, depth, or the clocks the match keeps). An error
	// means the player could not answer (its engine died, timed out or
	// answered nonsense); the game then ends as engine_error, unless ctx was
	// cancelled, in which case the game is abandoned.
	Move(ctx context.Context, g *minishogi.Game, lim usi.GoParams) (Decision, error)
	// Close releases the player's resources (an engine process), or hands
	// them back to the EnginePool for the next game.
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

// Option is one setting of a player: for the toolkit's engine a setting of
// its table (engine.AllSettings, by its USI name), for a USI engine a
// `setoption name Name value Value`.
type Option struct{ Name, Value string }

// Limits is a player's thinking budget as USI's `go` knows it: per move
// (MoveTime, Nodes, Depth) or a clock (Time, Inc, Byoyomi) that the match
// keeps and sends with every `go`. For the toolkit's engine a node is a
// playout.
type Limits struct {
	MoveTime time.Duration
	Nodes    int64
	Depth    int
	Time     time.Duration // the clock's main time
	Inc      time.Duration // added to the clock after every move (Fischer)
	Byoyomi  time.Duration // time per move once the main time is spent
}

// Clock reports whether the limits put the player on a clock.
func (l Limits) Clock() bool { return l.Time > 0 || l.Inc > 0 || l.Byoyomi > 0 }

func (l Limits) zero() bool { return l == Limits{} }

// PlayerSpec is the configuration of one player: what plays, with which
// settings and budget. ParsePlayerSpec reads it from a command line; New
// makes a Player for one game.
type PlayerSpec struct {
	Kind   string // record.KindRandom, record.KindMCTS or record.KindUSI
	Name   string // the name in records; defaults from the kind
	Limits Limits
	// Options are the player's settings, in the order given, a later one
	// replacing an earlier one of the same name: for KindMCTS the settings
	// of the engine's table by their canonical names, for KindUSI what is
	// sent to the engine with setoption.
	Options []Option
	Argv    []string   // KindUSI: the engine's command
	Cap     PlayoutCap // KindMCTS: playout cap randomization (spec keys cap-fast, cap-prob)
}

// limitKeys are the spec keys of Limits; "playouts" is the toolkit's
// engine's word for nodes.
var limitKeys = []string{"movetime", "nodes", "playouts", "depth", "time", "inc", "byoyomi"}

// ParsePlayerSpec reads a player specification (SpecHelp describes it):
//
//	random
//	mcts[:KEY=VALUE,...]         the toolkit's engine ("shogilab" is another name for it)
//	usi:COMMAND[,KEY=VALUE,...]  an external USI engine; COMMAND is split at spaces
//
// KEY is a limit (movetime, nodes, depth, time, inc, byoyomi; playouts is
// nodes for mcts), name, or a setting: for mcts a setting of the engine's
// table by its USI name, written bare or as option.NAME, its case ignored;
// for usi option.NAME, sent with setoption. Durations take Go's units
// (movetime=100ms, time=1m) or plain milliseconds (movetime=100).
//
// defaults supplies what a spec leaves out (a run's flags): its Limits when
// the spec states none, and for mcts its Options, which the spec's override.
func ParsePlayerSpec(text string, defaults PlayerSpec) (PlayerSpec, error) {
	kind, args, _ := strings.Cut(text, ":")
	if kind == "shogilab" {
		kind = record.KindMCTS
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("selfplay: player %q: %s", text, fmt.Sprintf(format, a...))
	}
	s := PlayerSpec{Kind: kind}
	var fields []string
	if args != "" {
		fields = strings.Split(args, ",")
	}
	switch kind {
	case record.KindRandom:
	case record.KindMCTS:
		s.Options = slices.Clone(defaults.Options)
	case record.KindUSI:
		if len(fields) == 0 || strings.Contains(fields[0], "=") || strings.TrimSpace(fields[0]) == "" {
			return PlayerSpec{}, bad("usi needs the engine's command first, as usi:/usr/games/fairy-stockfish")
		}
		s.Argv = strings.Fields(fields[0])
		fields = fields[1:]
	default:
		return PlayerSpec{}, bad("kind %q is not random, mcts or usi", kind)
	}
	limited, capped := false, false
	for _, f := range fields {
		key, value, ok := strings.Cut(f, "=")
		if !ok {
			return PlayerSpec{}, bad("%q is not key=value", f)
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		lower := strings.ToLower(key)
		switch {
		case lower == "name":
			s.Name = value
		case slices.Contains(limitKeys, lower):
			if kind == record.KindRandom {
				return PlayerSpec{}, bad("random takes no limit (%s)", key)
			}
			if err := s.Limits.set(kind, lower, value); err != nil {
				return PlayerSpec{}, bad("%v", err)
			}
			limited = true
		case kind == record.KindMCTS && slices.Contains(capKeys, lower):
			if err := s.Cap.set(lower, value); err != nil {
				return PlayerSpec{}, bad("%v", err)
			}
			capped = true
		case kind == record.KindMCTS:
			name := key
			if len(lower) > len("option.") && strings.HasPrefix(lower, "option.") {
				name = key[len("option."):]
			}
			set, ok := engine.FindSetting(name)
			switch {
			case !ok:
				return PlayerSpec{}, bad("unknown key %q for mcts (want a limit, name, or a setting: %s)", key, settingNames())
			case set.PerGame:
				return PlayerSpec{}, bad("%s is set by the match for every game, not by a player", set.Name)
			}
			st := engine.DefaultSettings()
			if err := set.Set(&st, value); err != nil {
				return PlayerSpec{}, bad("%v", err)
			}
			s.setOption(set.Name, value)
		case kind == record.KindUSI && len(lower) > len("option.") && strings.HasPrefix(lower, "option."):
			s.Options = append(s.Options, Option{key[len("option."):], value})
		default:
			return PlayerSpec{}, bad("unknown key %q for %s", key, kind)
		}
	}
	if !limited && kind != record.KindRandom {
		s.Limits = defaults.Limits
		if !capped && kind == record.KindMCTS {
			s.Cap = defaults.Cap // the cap goes with the budget it divides
		}
	}
	if err := s.Validate(); err != nil {
		return PlayerSpec{}, bad("%v", err)
	}
	return s, nil
}

// setOption sets an option, replacing an earlier one of the same name.
func (s *PlayerSpec) setOption(name, value string) {
	for i, o := range s.Options {
		if o.Name == name {
			s.Options[i].Value = value
			return
		}
	}
	s.Options = append(s.Options, Option{name, value})
}

// SetOption sets a setting of an mcts spec (or a defaults spec for one),
// replacing an earlier value: name is a setting of the engine's table. It
// is how a command's flags (--threads, --noise) become defaults.
func (s *PlayerSpec) SetOption(name, value string) error {
	set, ok := engine.FindSetting(name)
	if !ok {
		return fmt.Errorf("selfplay: no engine setting %q", name)
	}
	st := engine.DefaultSettings()
	if err := set.Set(&st, value); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	s.setOption(set.Name, value)
	return nil
}

func settingNames() string {
	var names []string
	for _, s := range engine.AllSettings() {
		if !s.PerGame {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

// set parses one limit key (lower case) for a player of kind.
func (l *Limits) set(kind, key, value string) error {
	var err error
	switch key {
	case "movetime":
		l.MoveTime, err = parseMillis(value)
	case "time":
		l.Time, err = parseMillis(value)
	case "inc":
		l.Inc, err = parseMillis(value)
	case "byoyomi":
		l.Byoyomi, err = parseMillis(value)
	case "nodes", "playouts":
		if key == "playouts" && kind != record.KindMCTS {
			return fmt.Errorf("playouts is for mcts; a USI engine counts nodes")
		}
		l.Nodes, err = strconv.ParseInt(value, 10, 64)
	case "depth":
		if kind != record.KindUSI {
			return fmt.Errorf("depth is for USI engines; a tree search has no depth limit")
		}
		l.Depth, err = strconv.Atoi(value)
	}
	if err != nil {
		return fmt.Errorf("%s=%q is not a valid value", key, value)
	}
	return nil
}

// Validate checks the spec's values.
func (s PlayerSpec) Validate() error {
	l := s.Limits
	switch {
	case l.MoveTime < 0 || l.Nodes < 0 || l.Depth < 0 || l.Time < 0 || l.Inc < 0 || l.Byoyomi < 0:
		return errors.New("a limit is negative")
	case l.MoveTime > 0 && l.Clock():
		return errors.New("movetime and a clock (time, inc, byoyomi) exclude each other")
	case s.Kind == record.KindUSI && len(s.Argv) == 0:
		return errors.New("usi needs a command")
	case s.Kind == record.KindUSI && l.zero():
		return errors.New("usi needs a limit: movetime, nodes, depth or a clock")
	case s.Kind == record.KindMCTS && l.Nodes == 0 && l.MoveTime == 0 && !l.Clock():
		return errors.New("mcts needs playouts, movetime or a clock")
	case s.Kind != record.KindMCTS && s.Cap != PlayoutCap{}:
		return errors.New("a playout cap is for mcts")
	case s.Kind == record.KindMCTS:
		if err := s.Cap.validate(l); err != nil {
			return err
		}
		st, err := s.settings()
		if err != nil {
			return err
		}
		// A search stops when its node pool is full, and nearly every playout takes
		// a node: a budget beyond the pool cannot be spent (a typo, such as
		// playouts=99999999999).
		if pool := int64(st.Player.Search.MaxNodes); l.Nodes > pool {
			return fmt.Errorf("playouts %d is more than a move's search can hold: it stops when its pool of %d nodes (%d MiB) is full, and nearly every playout takes a node; give at most %d, or a larger USI_Hash",
				l.Nodes, pool, pool*int64(mcts.NodeBytes)>>20, pool)
		}
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
		if i := strings.LastIndexByte(strings.TrimRight(base, "/"), '/'); i >= 0 {
			base = strings.TrimRight(base[i+1:], "/")
		}
		if base != "" {
			return base
		}
	}
	return s.Kind
}

// Record describes the player for a game record: the settings that shape
// its play, so that a dataset says what produced it. An mcts player's
// config has its budget (playouts, movetime_ms, time_ms, inc_ms,
// byoyomi_ms), the settings of recordedAlways, and every other setting that
// is not at its default, under the setting's snake-case key
// (engine.Setting.Key).
func (s PlayerSpec) Record() record.Player {
	cfg := map[string]any{}
	put := func(key string, v any, set bool) {
		if set {
			cfg[key] = v
		}
	}
	l := s.Limits
	ms := func(key string, d time.Duration) { put(key, d.Milliseconds(), d > 0) }
	switch s.Kind {
	case record.KindMCTS:
		put("playouts", l.Nodes, l.Nodes > 0)
		put("cap_fast", s.Cap.Fast, s.Cap.On())
		put("cap_prob", s.Cap.Prob, s.Cap.On())
		ms("movetime_ms", l.MoveTime)
		for _, name := range recordedAlways {
			set, _ := engine.FindSetting(name)
			put(set.Key(), set.Value(set.Default), true)
		}
		for _, o := range s.Options {
			set, _ := engine.FindSetting(o.Name)
			put(set.Key(), set.Value(o.Value), !set.IsDefault(o.Value) || slices.Contains(recordedAlways, set.Name))
		}
	case record.KindUSI:
		put("argv", s.Argv, true)
		ms("movetime_ms", l.MoveTime)
		put("nodes", l.Nodes, l.Nodes > 0)
		put("depth", l.Depth, l.Depth > 0)
		if len(s.Options) > 0 {
			opts := map[string]any{}
			for _, o := range s.Options {
				opts[o.Name] = o.Value
			}
			cfg["options"] = opts
		}
	}
	ms("time_ms", l.Time)
	ms("inc_ms", l.Inc)
	ms("byoyomi_ms", l.Byoyomi)
	if len(cfg) == 0 {
		cfg = nil
	}
	return record.Player{Name: s.DisplayName(), Kind: s.Kind, Config: cfg}
}

// SettingColumns are the typed columns of the engine's settings in a games
// table (table.Create): one per setting a player spec may set, in the
// table's order, named by its config key (engine.Setting.Key), of its type
// (a choice is text, as a record's config keeps it).
func SettingColumns() []table.SettingColumn {
	var cols []table.SettingColumn
	for _, s := range engine.AllSettings() {
		if s.PerGame {
			continue
		}
		kind := table.SettingText
		switch s.Kind {
		case engine.Int:
			kind = table.SettingInt
		case engine.Float:
			kind = table.SettingFloat
		case engine.Check:
			kind = table.SettingBool
		}
		cols = append(cols, table.SettingColumn{Key: s.Key(), Kind: kind})
	}
	return cols
}

// recordedAlways are the settings a record's config names even at their
// defaults: Threads, since with more than one a game is not a function of its
// seed, and Resign, since it decides what a game's length counts
// (datasets/README.md, "Player").
var recordedAlways = []string{"Threads", "Resign"}

// settings are the engine settings of an mcts spec. Without USI_Hash the
// node pool is sized from the playouts (engine.PlayoutNodes) when the
// budget is playouts alone, and is the engine's default otherwise.
func (s PlayerSpec) settings() (engine.Settings, error) {
	st := engine.DefaultSettings()
	hash := false
	for _, o := range s.Options {
		set, ok := engine.FindSetting(o.Name)
		if !ok {
			return st, fmt.Errorf("no engine setting %q", o.Name)
		}
		if err := set.Set(&st, o.Value); err != nil {
			return st, err
		}
		hash = hash || set.Name == "USI_Hash"
	}
	if l := s.Limits; !hash && l.Nodes > 0 && l.MoveTime == 0 && !l.Clock() {
		st.Player.Search.MaxNodes = engine.PlayoutNodes(l.Nodes)
	}
	return st, nil
}

// New makes a player for one game. seed drives its random choices (see
// SideSeed). ctx bounds an engine process's life. The toolkit engine's
// player, whose node pool is worth keeping, is taken from engines when it
// holds an idle one (engines may be nil) and Close hands it back; a USI
// engine gets a fresh process for every game (see usiPlayer).
func (s PlayerSpec) New(ctx context.Context, seed uint64, engines *EnginePool) (Player, error) {
	switch s.Kind {
	case record.KindRandom:
		return NewRandomPlayer(seed), nil
	case record.KindUSI:
		return newUSIPlayer(ctx, s)
	case record.KindMCTS:
		return newMCTSPlayer(s, seed, engines)
	}
	panic(fmt.Sprintf("selfplay: unknown player kind %q", s.Kind))
}

// SpecHelp describes the player specs for a command's help, with the
// engine's settings from its table.
func SpecHelp() string {
	var b strings.Builder
	b.WriteString(`A player is one of
  random                          uniformly random legal moves
  mcts[:KEY=VALUE,...]            the toolkit's engine (also called shogilab)
  usi:COMMAND[,KEY=VALUE,...]     an external USI engine; COMMAND is split at spaces
KEY is a limit, name=NAME (the name in records), or a setting:
  limits   movetime=D, nodes=N (playouts=N for mcts), depth=N (usi), or a clock:
           time=D (main time), inc=D (added per move), byoyomi=D; D is 100ms, 2s,
           or plain milliseconds. A player without a limit takes the command's.
  cap      mcts with playouts: cap-fast=n, cap-prob=p, KataGo's playout cap: a move
           is a full search (the playouts, a policy target) with probability p,
           else a fast one of n playouts without root noise, not a target.
  usi      option.NAME=VALUE is sent with setoption (UCI_Variant is set by itself)
  mcts     a setting of the engine by its USI name, its case ignored (option.NAME too):
`)
	for _, set := range engine.AllSettings() {
		if set.PerGame {
			continue
		}
		fmt.Fprintf(&b, "           %-16s %s; default %s\n", set.Name, set.Range(), set.Default)
	}
	return b.String()
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

func (p *randomPlayer) Move(_ context.Context, g *minishogi.Game, _ usi.GoParams) (Decision, error) {
	pos := g.Position()
	p.moves = pos.LegalMoves(p.moves[:0])
	if len(p.moves) == 0 {
		panic("selfplay: Move called in a finished game")
	}
	return Decision{Move: p.moves[p.rng.IntN(len(p.moves))].String()}, nil
}

func (p *randomPlayer) Close() error { return nil }
