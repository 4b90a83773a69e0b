package solver

import (
	"fmt"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// Splitting a solve. The first K plies from the root are a full tree (every move of both
// sides); its leaves, the distinct positions exactly K plies deep, are independent
// subproblems, each a minimal mate within L-K plies. MergeSplit puts their answers back by
// the AND/OR rule: at an attacker node the least child's length plus one, at a defender node
// the greatest plus one, a side without moves losing on the spot (docs/rules.md#no-legal-move).
// Since each leaf's answer is its minimal mate, the root's is the minimal mate within L.

// noMate stands for "no mate within the bound" in the merge's arithmetic.
const noMate = 1 << 30

// SplitLeaves returns the distinct positions exactly k plies from root, in the order first
// met walking the moves in generation order.
func SplitLeaves(root minishogi.Position, k int) []minishogi.Position {
	seen := map[minishogi.Code]bool{}
	var out []minishogi.Position
	var walk func(p minishogi.Position, d int)
	walk = func(p minishogi.Position, d int) {
		if d == k {
			if c := p.Code(); !seen[c] {
				seen[c] = true
				out = append(out, p)
			}
			return
		}
		for _, m := range (moveRules{}).Moves(p, nil) {
			walk((moveRules{}).Play(p, m), d+1)
		}
	}
	walk(root, 0)
	return out
}

// LeafResult is a subproblem's answer: a minimal mate of Plies plies with its proof, or
// (Found false) no mate within the subproblem's bound.
type LeafResult struct {
	Found bool
	Plies int
	Proof *Proof
}

// MergeSplit combines the answers for SplitLeaves(root, k) (by the leaf's code) into the
// root's minimal mate within maxPlies and one proof of it. A leaf without an answer is an
// error.
func MergeSplit(root minishogi.Position, attacker minishogi.Color, k, maxPlies int, leaves map[minishogi.Code]LeafResult) (found bool, plies int, proof *Proof, err error) {
	g := moveRules{}
	// cand holds, for each attacker position, the move with the shortest mate known there.
	type cand struct {
		move minishogi.Move
		dist int
	}
	best := map[minishogi.Code]cand{}
	offer := func(c minishogi.Code, m minishogi.Move, d int) {
		if b, ok := best[c]; !ok || d < b.dist {
			best[c] = cand{m, d}
		}
	}
	var value func(p minishogi.Position, d int) (int, error)
	value = func(p minishogi.Position, d int) (int, error) {
		if d == k {
			r, ok := leaves[p.Code()]
			if !ok {
				return 0, fmt.Errorf("solver: merge: no result for the subproblem %s", p.SFEN())
			}
			if !r.Found {
				return noMate, nil
			}
			return r.Plies, nil
		}
		moves := g.Moves(p, nil)
		att := p.SideToMove() == attacker
		if len(moves) == 0 {
			if att {
				return noMate, nil
			}
			return 0, nil
		}
		v := noMate
		if !att {
			v = 0
		}
		var bestMove minishogi.Move
		for _, m := range moves {
			cv, err := value(g.Play(p, m), d+1)
			if err != nil {
				return 0, err
			}
			if cv < noMate {
				cv++
			}
			if att && cv < v {
				v, bestMove = cv, m
			}
			if !att && cv > v {
				v = cv
			}
		}
		if att && v < noMate {
			offer(p.Code(), bestMove, v)
		}
		return v, nil
	}
	v, err := value(root, 0)
	if err != nil {
		return false, 0, nil, err
	}
	if v > maxPlies {
		return false, 0, nil, nil
	}
	// Each leaf proof's moves, with the length each mates in by that proof's own strategy;
	// keeping the shortest at each position keeps every position's mate within its length
	// (by induction on the length), so the union is one proof.
	for c, r := range leaves {
		if !r.Found || r.Proof == nil {
			continue
		}
		p, err := c.Decode()
		if err != nil {
			return false, 0, nil, fmt.Errorf("solver: merge: %w", err)
		}
		memo := map[[2]any]int{}
		var dist func(s minishogi.Position, att bool) int
		dist = func(s minishogi.Position, att bool) int {
			key := [2]any{s.Code(), att}
			if d, ok := memo[key]; ok {
				return d
			}
			memo[key] = noMate // a cycle does not mate
			d := noMate
			if att {
				if m, ok := r.Proof.Moves[s.Code()]; ok {
					if cd := dist(g.Play(s, m), false); cd < noMate {
						d = cd + 1
						offer(s.Code(), m, d)
					}
				}
			} else {
				d = 0
				for _, m := range g.Moves(s, nil) {
					cd := dist(g.Play(s, m), true)
					if cd >= noMate {
						d = noMate
						break
					}
					d = max(d, cd+1)
				}
			}
			memo[key] = d
			return d
		}
		dist(p, p.SideToMove() == attacker)
	}
	// Keep only the positions the chosen moves reach from the root.
	proof = &Proof{Plies: v, AttackerToMove: root.SideToMove() == attacker, Moves: map[minishogi.Code]minishogi.Move{}}
	seen := map[minishogi.Code]bool{}
	var keep func(p minishogi.Position)
	keep = func(p minishogi.Position) {
		c := p.Code()
		if seen[c] {
			return
		}
		seen[c] = true
		if p.SideToMove() == attacker {
			if b, ok := best[c]; ok {
				proof.Moves[c] = b.move
				keep(g.Play(p, b.move))
			}
			return
		}
		for _, m := range g.Moves(p, nil) {
			keep(g.Play(p, m))
		}
	}
	keep(root)
	return true, v, proof, nil
}
