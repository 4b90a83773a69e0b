package loop

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
	"github.com/shogilab/shogilab/train/netfit"
)

// Config is a loop's configuration. The fields with json tags are its identity: a
// resume must give the same (Generations excepted, and WindowPositions may grow:
// Provenance.Windows).
type Config struct {
	Dir         string `json:"-"` // the run directory
	Generations int    `json:"-"` // generations the run holds when Run returns
	// Initial is the first best network: engine.BuiltinEval, an evaluation file, or
	// engine.HandSetEval, the hand-set evaluation and priors ("from zero": the first fit
	// starts from random weights of the sizes in Net).
	Initial string `json:"initial"`
	// Net is the sizes of a network fitted from random weights (Initial handset); a fit
	// from a network keeps that network's sizes.
	Net NetSizes `json:"net"`
	// Openings are the start positions of every match, used in turn; OpeningsName says
	// where they came from (for provenance).
	Openings     []selfplay.Opening `json:"-"`
	OpeningsName string             `json:"openings"`

	SelfPlay SelfPlay `json:"selfplay"`
	MaxPlies int      `json:"max_plies"` // a game reaching it is a draw (0: none)

	// WindowPositions is the replay window: a fit sees the latest generations' games,
	// newest first, until they hold this many positions (the oldest generation it
	// reaches whole), as KataGo's window is measured in samples.
	WindowPositions int `json:"window_positions"`
	// Fit is the fit's hyperparameters; its seed is drawn from Seed.
	Fit netfit.Hyper `json:"fit"`

	// Rate places each generation's network on a fixed rating ladder.
	Rate Rating `json:"rate"`

	// A gate, when GateGames > 0: an SPRT match of the candidate against the best, which
	// promotes the candidate only when the test accepts H1. Without one every candidate
	// becomes the best, as in AlphaZero.
	GatePlayouts int       `json:"gate_playouts,omitempty"`
	GateGames    int       `json:"gate_games,omitempty"`
	SPRT         sprt.Test `json:"sprt"`

	Seed    uint64 `json:"seed"`
	Version string `json:"version"` // of the toolkit, written in records

	// Anchor and AnchorPlayouts are the fixed opponent of the runs before the ladder
	// (datasets/loop/run1), read from their provenance for their curve; a run no longer
	// plays them.
	Anchor         string `json:"anchor,omitempty"`
	AnchorPlayouts int    `json:"anchor_playouts,omitempty"`

	// Parallel is the games played at once on this machine; Slurm, if set, plays the
	// self-play as a job array instead.
	Parallel int    `json:"-"`
	Slurm    *Slurm `json:"-"`
	// Command is the command line, for provenance and the networks' headers.
	Command string `json:"-"`

	// Hook, if set, is called after each step of a generation (Steps) has finished and
	// its result is on disk; an error stops Run with it (a test's way to kill a run
	// between steps).
	Hook func(gen int, step string) error `json:"-"`
	// Progress, if set, is told how far the running step is.
	Progress func(step string, done, total int) `json:"-"`
	// OnGeneration, if set, sees each generation's line as it is logged.
	OnGeneration func(Generation) `json:"-"`
}

// NetSizes are a network's layer sizes (netfit.Options' Hidden1, Hidden2 and Policy).
type NetSizes struct {
	Hidden1 int `json:"hidden1"`
	Hidden2 int `json:"hidden2"`
	Policy  int `json:"policy"`
}

// SelfPlay is how the best network plays itself.
type SelfPlay struct {
	Games    int `json:"games"`    // per generation
	Playouts int `json:"playouts"` // per move of a full search
	// GumbelMoves > 0 gives the root Gumbel's sampled moves and sequential halving
	// (mcts.Config.GumbelMoves; its improved policy is the target) in place of Dirichlet
	// noise and the temperature.
	GumbelMoves int `json:"gumbel_moves,omitempty"`
	// Noise and TemperaturePlies are the PUCT root's variety (without a Gumbel root);
	// ForcedPlayouts is KataGo's k, its pruned visits the target.
	Noise            float64 `json:"noise,omitempty"`
	TemperaturePlies int     `json:"temperature_plies,omitempty"`
	ForcedPlayouts   float64 `json:"forced_playouts,omitempty"`
	// CapFast and CapProb are KataGo's playout cap randomization: a move is a full search
	// (a policy target) with probability CapProb, else a fast one of CapFast playouts.
	// CapFast 0 turns it off.
	CapFast int     `json:"cap_fast,omitempty"`
	CapProb float64 `json:"cap_prob,omitempty"`
}

// Rating is how each generation's network is placed on the ladder: a gauntlet of Games
// games against each of Anchors (names of the ladder's anchors) at Playouts.
type Rating struct {
	Ladder   string   `json:"ladder"` // the ladder file (datasets/ladder/ladder.json)
	Anchors  []string `json:"anchors"`
	Games    int      `json:"games"` // against each anchor
	Playouts int      `json:"playouts"`
}

// DefaultConfig is a loop from the built-in network: 200 games a generation at 200
// playouts with a Gumbel root of 16 moves and the playout cap (a quarter of the moves
// full searches, the rest 32 playouts), a replay window of 100,000 positions, each
// network rated by 50 games against four Fairy-Stockfish anchors of the ladder at 1,000
// playouts, no gate.
func DefaultConfig() Config {
	return Config{
		Initial: engine.BuiltinEval, Net: NetSizes{Hidden1: 64, Hidden2: 16, Policy: 8},
		SelfPlay: SelfPlay{Games: 200, Playouts: 200, GumbelMoves: 16, CapFast: 32, CapProb: 0.25},
		MaxPlies: 256, WindowPositions: 100_000,
		Fit: netfit.Hyper{Epochs: 10, Patience: 2, Batch: 256, LearningRate: 3e-4, Threads: 1, Decay: 100, PolicyWeight: 0.1, Lambda: 0.5, HeldOut: 0.1},
		Rate: Rating{Ladder: filepath.Join("datasets", "ladder", "ladder.json"),
			Anchors: []string{"fsf-1k", "fsf-2k", "fsf-4k", "fsf-8k"}, Games: 50, Playouts: 1000},
		SPRT: sprt.Test{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05, Model: sprt.Normalized},
		Seed: 1, Version: selfplay.Version(), Parallel: 1,
	}
}

// validate checks a configuration before a run.
func (c *Config) validate() error {
	sp := c.SelfPlay
	switch {
	case c.Dir == "":
		return errors.New("loop: no run directory")
	case c.Generations < 0:
		return fmt.Errorf("loop: %d generations", c.Generations)
	case len(c.Openings) == 0:
		return errors.New("loop: no openings")
	case sp.Games < 1 || sp.Playouts < 1:
		return fmt.Errorf("loop: self-play games %d, playouts %d: need 1 or more", sp.Games, sp.Playouts)
	case sp.CapFast < 0 || sp.CapFast >= sp.Playouts || (sp.CapFast > 0 && !(sp.CapProb > 0 && sp.CapProb <= 1)):
		return fmt.Errorf("loop: playout cap of %d fast playouts with probability %v: need 0 (off), or fewer than the playouts with a probability above 0, at most 1", sp.CapFast, sp.CapProb)
	case c.WindowPositions < 1:
		return fmt.Errorf("loop: window of %d positions: need 1 or more", c.WindowPositions)
	case c.Rate.Ladder == "" || len(c.Rate.Anchors) == 0 || c.Rate.Games < 2 || c.Rate.Games%2 != 0 || c.Rate.Playouts < 1:
		return fmt.Errorf("loop: rating on ladder %q against %d anchors, %d games each at %d playouts: need a ladder, an anchor, game pairs and playouts", c.Rate.Ladder, len(c.Rate.Anchors), c.Rate.Games, c.Rate.Playouts)
	case c.GateGames < 0 || c.GateGames == 1 || (c.GateGames > 0 && c.GatePlayouts < 1):
		return fmt.Errorf("loop: gate of %d games at %d playouts: need 0 (none) or a pair or more at 1 playout or more", c.GateGames, c.GatePlayouts)
	case c.Parallel < 0:
		return fmt.Errorf("loop: parallel %d", c.Parallel)
	case c.Version == "":
		return errors.New("loop: no version")
	}
	if err := c.Fit.Validate(); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	if c.GateGames > 0 {
		if err := c.SPRT.Validate(); err != nil {
			return fmt.Errorf("loop: %w", err)
		}
	}
	return nil
}

// path is a path in the run directory.
func (c *Config) path(parts ...string) string {
	return filepath.Join(append([]string{c.Dir}, parts...)...)
}

func genDir(g int) string { return fmt.Sprintf("gen-%03d", g) }

// network is where generation g's candidate is, or the initial network for "initial".
func (c *Config) network(name string) string {
	if name == "initial" {
		return c.Initial
	}
	return c.path(name, "candidate.nnue")
}

// seed is the seed of a step of generation g.
func (c *Config) seed(g int, step uint64) uint64 {
	return selfplay.GameSeed(selfplay.GameSeed(c.Seed, g), int(step))
}

// Seeds' steps (the numbers of the older loop's, kept so that its seeds stay).
const (
	seedSelfplay = 1
	seedFit      = 2
	seedGate     = 3
	seedRate     = 5
)

func (c *Config) rules() minishogi.GameOptions { return minishogi.GameOptions{MaxPlies: c.MaxPlies} }
