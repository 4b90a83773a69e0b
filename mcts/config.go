package mcts

import (
	"fmt"
	"math"
)

// MaxThreads bounds Config.Threads: 256, the hardware threads of one socket of the largest
// servers (128 cores with two-way SMT). One tree shared by more goroutines than the machine
// has hardware threads searches no faster, and with more than GOMAXPROCS the workers yield
// between playouts (worker.search) so that the rest of the process, such as a USI engine's
// command loop answering isready, waits some playouts rather than some 10 ms time slices
// per worker (issue 33: Threads 1024 made isready take 1.4 s during a search).
const MaxThreads = 256

// Config holds the search constants. DefaultConfig gives the values for
// match play; self-play turns on DirichletEpsilon and TemperaturePlies.
type Config struct {
	// Threads is the number of goroutines searching the one tree. Default 1.
	Threads int
	// MaxNodes is the capacity of the node pool, allocated once by
	// NewSearcher (MaxNodes × NodeBytes bytes). An expansion takes one node
	// per legal move. When the pool is full the search stops as if its
	// budget were spent and reports StopPoolFull, as Lc0 does on its
	// RAM limit. Default 1<<22 (128 MiB at 32 bytes a node).
	MaxNodes int
	// CPuct weighs the prior against the mean value in PUCT selection,
	// Q + CPuct·P·√N_parent/(1+N_child) (Silver et al. 2017, AlphaGo Zero;
	// AlphaZero's c_init is 1.25). Default 1.8, tuned by SPRT for the self-taught network
	// (docs/tactics.md, "The search's settings for the self-taught network").
	CPuct float32
	// FPUReduction sets the value assumed for a child not yet visited
	// ("first play urgency"): the parent's value minus
	// FPUReduction·√(prior mass of the visited children), as in Lc0 and
	// KataGo (whose fpuReductionMax is 0.2). Default 0.4, tuned by SPRT for the
	// learned priors (docs/tactics.md, "The search's settings for the self-taught network").
	FPUReduction float32
	// VirtualLoss is how many lost visits a playout in flight counts for in
	// its nodes, so that goroutines sharing a tree spread out (Chaslot,
	// Winands and van den Herik 2008, "Parallel Monte-Carlo Tree Search").
	// Default 1.
	VirtualLoss float32
	// DirichletAlpha and DirichletEpsilon mix Dirichlet(α) noise into the
	// root priors: P' = (1-ε)·P + ε·η. AlphaZero used α = 0.15 for shogi and
	// ε = 0.25 in self-play. ε = 0 (the default) turns noise off.
	DirichletAlpha   float64
	DirichletEpsilon float64
	// Temperature and TemperaturePlies: while the root's ply
	// (Limits.Ply) is below TemperaturePlies, the move is drawn with
	// probability ∝ visits^(1/Temperature); afterwards, and always when
	// TemperaturePlies is 0 (the default), the most visited move is played.
	// Default Temperature 1.
	Temperature      float64
	TemperaturePlies int
	// Seed drives every random choice: noise, temperature and each
	// goroutine's generator passed to the Evaluator.
	Seed uint64
	// Twins says whether a descent that expands a leaf also expands the
	// best unexpanded sibling of that leaf, chosen by PUCT with the first
	// leaf counted as a playout in flight. Both leaves are evaluated and
	// backed up together, so the walk from the root, where the goroutines
	// of a parallel search contend for the same nodes, is shared by two
	// playouts. TwinsAuto, the zero value and default, turns twins on when
	// Threads > 1, leaving a one-goroutine search exactly as it was.
	Twins Twins
	// RepetitionLeaves makes a position below the root that occurred before in the game
	// (see Repeater; games that do not implement it are unaffected) a leaf valued as the
	// repetition rule would end the game: whoever the repeated cycle suits can repeat it
	// until the rule applies, so the position is worth what the rule says, not what an
	// evaluation of it says (chess engines score a repetition in the tree as a draw for
	// the same reason). The leaf is not proven, so that no proof rests on it and a
	// search may still find that the players did better earlier. Default false.
	RepetitionLeaves bool
	// MinimaxWeight mixes implicit minimax backups into selection (Lanctot, Winands,
	// Pepels and Sturtevant 2014, "Monte Carlo Tree Search with Heuristic Evaluations
	// using Implicit Minimax Backups"): every node keeps, beside its mean, the negamax of
	// the evaluator's values over the part of the tree below it, and a child is scored by
	// (1-w)·mean + w·minimax. The mean is slow to notice a refutation that a few leaves
	// deep in the tree have found; the minimax value sees it at once. 0, the default,
	// turns it off (and keeps no minimax values); at most 1.
	MinimaxWeight float32
	// GumbelMoves, if above 0, makes the root a Gumbel root (gumbel.go; Danihelka et al.
	// 2022, "Policy improvement by planning with Gumbel"): a search with a playout budget
	// samples GumbelMoves moves without replacement by Gumbel-top-k on the priors, spends
	// the budget on them by sequential halving and plays the best survivor by g + logit +
	// σ(q̂). The Gumbels take the place of Dirichlet noise and of the temperature, which
	// such a search ignores, and Result.Target is the improved policy of the completed
	// Q-values. Each search starts a fresh tree, since the halving counts the visits of
	// this search alone. A search without a playout budget (a time limit) has no schedule
	// to halve by and searches the root by PUCT. 0, the default, is PUCT; the paper used
	// 16 moves in Go and chess.
	GumbelMoves int
	// GumbelScale is c_scale of a Gumbel root's σ(q̂) = (50 + max N)·c_scale·q̂ (gumbel.go),
	// q̂ the completed Q-values rescaled to [0, 1]: how far the searched values outweigh
	// the priors' logits, in the root's choices and in its policy target. Default 1: DeepMind's
	// mctx uses 0.1 (value_scale of qtransform_completed_by_mix_value), whose policy target
	// is softer (at 1 it is about one-hot on the move of best value, gumbel_test.go), but
	// 0.1 played worse in self-play's search at 32 and 64 playouts (-83 and -118 Elo,
	// SPRTs accepting H0; +48 at 16 playouts, where each of 16 moves gets one visit):
	// docs/policy.md.
	GumbelScale float32
	// ForcedPlayouts is KataGo's k (Wu 2019, "Accelerating Self-Play Learning in Go"):
	// while the root has Dirichlet noise, a root child with fewer than √(k·P·ΣN) visits is
	// visited next, and Result.Target prunes those visits again (target.go). KataGo uses
	// 2; 0, the default, turns forced playouts off.
	ForcedPlayouts float32
	// DeepenVisits is how many visits a node below the root has when the search asks an
	// evaluator that is a Deepener for its second look at the position; 0 never asks.
	// Default 4: with the rest of the engine's mate search left to such nodes a playout
	// costs 1.3 times less CPU than with all of it at every expansion, and the engine gained
	// +68 Elo at 100 ms a move (docs/tactics.md, "The mate search where the search returns").
	DeepenVisits int
}

// Twins is the setting of Config.Twins.
type Twins uint8

const (
	TwinsAuto Twins = iota // on with several threads
	TwinsOn
	TwinsOff
)

var twinsNames = [...]string{TwinsAuto: "auto", TwinsOn: "on", TwinsOff: "off"}

func (t Twins) String() string {
	if int(t) < len(twinsNames) {
		return twinsNames[t]
	}
	return fmt.Sprintf("Twins(%d)", uint8(t))
}

// ParseTwins reads "auto", "on" or "off".
func ParseTwins(s string) (Twins, error) {
	for t, name := range twinsNames {
		if s == name {
			return Twins(t), nil
		}
	}
	return 0, fmt.Errorf("mcts: twins %q: want auto, on or off", s)
}

// DefaultConfig returns the defaults documented on Config's fields.
func DefaultConfig() Config {
	return Config{
		Threads:        1,
		MaxNodes:       1 << 22,
		CPuct:          1.8,
		FPUReduction:   0.4,
		VirtualLoss:    1,
		DirichletAlpha: 0.15,
		Temperature:    1,
		GumbelScale:    1,
		DeepenVisits:   4,
	}
}

// Validate reports the first field of c that is out of range.
func (c Config) Validate() error {
	bad := func(field string, value any, want string) error {
		return fmt.Errorf("mcts: config: %s is %v; %s", field, value, want)
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case c.Threads < 1 || c.Threads > MaxThreads:
		return bad("Threads", c.Threads, fmt.Sprintf("need 1 to %d", MaxThreads))
	case c.MaxNodes < 2 || c.MaxNodes > math.MaxUint32:
		return bad("MaxNodes", c.MaxNodes, "need 2 to 2^32-1")
	case !(c.CPuct > 0) || !finite(float64(c.CPuct)):
		return bad("CPuct", c.CPuct, "need a positive number")
	case !(c.FPUReduction >= 0) || !finite(float64(c.FPUReduction)):
		return bad("FPUReduction", c.FPUReduction, "need 0 or more")
	case !(c.VirtualLoss >= 0) || !finite(float64(c.VirtualLoss)):
		return bad("VirtualLoss", c.VirtualLoss, "need 0 or more")
	case !(c.DirichletEpsilon >= 0 && c.DirichletEpsilon <= 1):
		return bad("DirichletEpsilon", c.DirichletEpsilon, "need 0 to 1")
	case c.DirichletEpsilon > 0 && (!(c.DirichletAlpha > 0) || !finite(c.DirichletAlpha)):
		return bad("DirichletAlpha", c.DirichletAlpha, "need a positive number when DirichletEpsilon is set")
	case c.TemperaturePlies < 0:
		return bad("TemperaturePlies", c.TemperaturePlies, "need 0 or more")
	case c.TemperaturePlies > 0 && (!(c.Temperature > 0) || !finite(c.Temperature)):
		return bad("Temperature", c.Temperature, "need a positive number when TemperaturePlies is set")
	case !(c.MinimaxWeight >= 0 && c.MinimaxWeight <= 1):
		return bad("MinimaxWeight", c.MinimaxWeight, "need 0 to 1")
	case c.GumbelMoves < 0 || c.GumbelMoves > MaxChildren:
		return bad("GumbelMoves", c.GumbelMoves, fmt.Sprintf("need 0 (off) to %d", MaxChildren))
	case c.GumbelMoves > 0 && (!(c.GumbelScale > 0) || !finite(float64(c.GumbelScale))):
		return bad("GumbelScale", c.GumbelScale, "need a positive number when GumbelMoves is set")
	case !(c.ForcedPlayouts >= 0) || !finite(float64(c.ForcedPlayouts)):
		return bad("ForcedPlayouts", c.ForcedPlayouts, "need 0 or more")
	case c.DeepenVisits < 0 || c.DeepenVisits > math.MaxUint32:
		return bad("DeepenVisits", c.DeepenVisits, "need 0 (never) to 2^32-1")
	case c.Twins > TwinsOff:
		return bad("Twins", c.Twins, "need TwinsAuto, TwinsOn or TwinsOff")
	}
	return nil
}
