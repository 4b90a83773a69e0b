package selfplay

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/record"
)

// PlayoutCap is KataGo's playout cap randomization for an mcts player (Wu 2019,
// "Accelerating Self-Play Learning in Go", section 3.1): each move is, with probability
// Prob, a full search of the spec's playouts whose statistics are a policy target, and
// otherwise a fast search of Fast playouts without root noise, played but not a target
// (its record entry says "fast": true). Many cheap moves make the games, and so the
// value targets, while the policy learns from the full searches alone. The draw of each
// move flows from the player's seed. The zero value is off: every move a full search.
type PlayoutCap struct {
	Fast int64   // playouts of a fast search; 0: no playout cap
	Prob float64 // probability of a full search; KataGo used 0.25
}

// On reports whether the cap is on.
func (c PlayoutCap) On() bool { return c.Fast > 0 }

// capKeys are the spec keys of PlayoutCap.
var capKeys = []string{"cap-fast", "cap-prob"}

func (c *PlayoutCap) set(key, value string) error {
	var err error
	switch key {
	case "cap-fast":
		c.Fast, err = strconv.ParseInt(value, 10, 64)
	case "cap-prob":
		c.Prob, err = strconv.ParseFloat(value, 64)
	}
	if err != nil {
		return fmt.Errorf("%s=%q is not a valid value", key, value)
	}
	return nil
}

// validate checks the cap against the player's limits.
func (c PlayoutCap) validate(l Limits) error {
	switch {
	case c == PlayoutCap{}:
		return nil
	case c.Fast <= 0:
		return errors.New("cap-prob without cap-fast: give the fast searches' playouts")
	case !(c.Prob >= 0 && c.Prob <= 1):
		return fmt.Errorf("cap-prob %v: want a probability from 0 to 1", c.Prob)
	case l.Nodes == 0 || l.MoveTime > 0 || l.Clock():
		return errors.New("a playout cap needs a budget of playouts alone: the full searches' playouts")
	case c.Fast > l.Nodes:
		return fmt.Errorf("cap-fast %d is more than the full searches' %d playouts", c.Fast, l.Nodes)
	}
	return nil
}

// capStream is the PCG stream of a player's playout cap draws: the searcher uses streams
// 0 (its root) and 1 to mcts.MaxThreads (its goroutines) of the same seed.
const capStream = 1 << 32

// PolicyDigits are the decimals a record keeps of a policy target's probabilities, and
// PolicyMin the least probability it keeps (datasets/README.md, MoveStats).
const (
	PolicyDigits = 4
	PolicyMin    = 0.001
)

// recordPolicy is a Decision's policy target as a record keeps it: the moves of
// probability PolicyMin or more, most probable first, rounded to PolicyDigits decimals.
func recordPolicy(target []engine.MoveProb) []record.PolicyMove {
	var out []record.PolicyMove
	scale := math.Pow(10, PolicyDigits)
	for _, m := range target { // most probable first already
		if m.P < PolicyMin {
			break
		}
		out = append(out, record.PolicyMove{Move: m.Move.String(), P: math.Round(float64(m.P)*scale) / scale})
	}
	return out
}
