package data

import (
	"fmt"
	"strings"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// MoveProb is one move of a policy target and its probability.
type MoveProb struct {
	Move ms.Move
	P    float32
}

// PolicyTarget is a small sparse distribution over the legal moves of one position: the
// moves named, each with its probability, summing to 1; a legal move not named has
// probability 0. Any source of move labels can feed it: a recorded search's visit shares
// (VisitTarget), the move an external engine played (PlayedTarget), or a table of best
// moves.
type PolicyTarget []MoveProb

// VisitTarget is the share of the recorded visits of each of the most visited moves
// (record.MoveStats.Top), for a position searched by an MCTS mover. It is nil when no
// visits were recorded.
func VisitTarget(pos *ms.Position, top []record.TopMove) (PolicyTarget, error) {
	return shares(pos, top, "top move", func(t record.TopMove) (string, float64) { return t.Move, float64(t.Visits) })
}

// PlayedTarget is the move played as the whole target: what an external engine's move
// teaches, fairy-stockfish's best move at its node limit (deterministic with one thread).
func PlayedTarget(pos *ms.Position, move string) (PolicyTarget, error) {
	m, err := pos.ParseMove(move)
	if err != nil {
		return nil, fmt.Errorf("move: %w", err)
	}
	return PolicyTarget{{Move: m, P: 1}}, nil
}

// recordTarget is the policy target of a recorded position: the search's own target where
// the record keeps one (record.MoveStats.Policy: a Gumbel root's improved policy, or visits
// pruned of forced playouts), else the visit shares of its most visited moves, else the
// played move when the mover is an external engine (record kind usi), else none (a random
// mover's move teaches nothing). A playout cap's fast move is no target (KataGo, "Accelerating
// Self-Play Learning in Go", 2019: only full searches are recorded for the policy), though
// its position still counts for the value.
func recordTarget(pos *ms.Position, p *table.Position) (PolicyTarget, error) {
	if p.Stats != nil && !p.Stats.Target() {
		return nil, nil
	}
	if p.Stats != nil && len(p.Stats.Policy) > 0 {
		return SearchTarget(pos, p.Stats.Policy)
	}
	if p.Stats != nil && len(p.Stats.Top) > 0 {
		return VisitTarget(pos, p.Stats.Top)
	}
	if p.Mover == record.KindUSI && p.Move != "" {
		return PlayedTarget(pos, p.Move)
	}
	return nil, nil
}

// SearchTarget is a recorded search's policy target (record.MoveStats.Policy), scaled to
// sum to 1: the records round it to 4 decimals and leave out moves under 0.001.
func SearchTarget(pos *ms.Position, policy []record.PolicyMove) (PolicyTarget, error) {
	return shares(pos, policy, "policy move", func(mp record.PolicyMove) (string, float64) { return mp.Move, mp.P })
}

// shares is the target giving each item's move its weight's share of the total (nil when the
// total is not positive); what names the items in an error.
func shares[T any](pos *ms.Position, items []T, what string, weigh func(T) (move string, w float64)) (PolicyTarget, error) {
	var total float64
	for _, it := range items {
		_, w := weigh(it)
		total += w
	}
	if !(total > 0) {
		return nil, nil
	}
	var out PolicyTarget
	for _, it := range items {
		move, w := weigh(it)
		m, err := pos.ParseMove(move)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = out.add(m, float32(w/total))
	}
	return out, nil
}

// add adds probability x to move m.
func (t PolicyTarget) add(m ms.Move, x float32) PolicyTarget {
	for i := range t {
		if t[i].Move == m {
			t[i].P += x
			return t
		}
	}
	return append(t, MoveProb{Move: m, P: x})
}

// scale multiplies every probability by k.
func (t PolicyTarget) scale(k float32) {
	for i := range t {
		t[i].P *= k
	}
}

// Mirror returns the target of the mirror image of its position (Mirror): each move's
// squares reflected left to right, found by name in the image.
func (t PolicyTarget) Mirror(image *ms.Position) (PolicyTarget, error) {
	if t == nil {
		return nil, nil
	}
	out := make(PolicyTarget, len(t))
	for i, mp := range t {
		m, err := image.ParseMove(mirrorUSI(mp.Move.String()))
		if err != nil {
			return nil, fmt.Errorf("data: mirror of move %s: %w", mp.Move, err)
		}
		out[i] = MoveProb{Move: m, P: mp.P}
	}
	return out, nil
}

// mirrorUSI reflects a USI move's files: file f becomes 6-f on the 5×5 board (the ranks
// are letters and stay).
func mirrorUSI(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= '1' && c <= '5' {
			b[i] = '1' + '5' - c
		}
	}
	return strings.Clone(string(b))
}
