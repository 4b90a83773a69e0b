package eval

// The mate search. Strong shogi MCTS engines (dlshogi and its descendants) run a small
// mate search when a leaf is expanded, because a random-looking tree misses forced mates
// that an alpha-beta search sees at once. Here: a depth-limited AND/OR search by checks
// only (every attacker move is a check, as in tsume shogi), to mate in 1, 3, 5 or 7 plies
// (Config.MateDepth), deepened 3, 5, 7 so that a short mate is found before a long line
// spends the node budget (Config.MateNodes). At every attacker node the checks are tried
// in the order of the defender's number of replies, fewest first: the proof-number idea
// (Allis 1994; Nagai's df-pn starts from the same counts) that a check leaving fewer
// replies is cheaper to prove. Counting the replies also finds every mate in one at once.
//
// Uchifuzume needs no care: GenerateChecks and GenerateLegal never yield a pawn drop that
// mates, so no line ends in one. Repetition does: a line through a position that occurred
// before might be ended by the repetition rule first, so such lines are not trusted
// (MaybeSeen). A mate ends the game at once, so a mating move is trusted even so.

import (
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// MaxMateDepth is the deepest mate search Config.MateDepth allows, in plies.
const MaxMateDepth = 7

// mateCandidate is a check that does not mate at once, with the defender's reply count.
type mateCandidate struct {
	m       ms.Move
	replies int
}

// findMate looks for a mate in at most depth plies (odd) by checks, where checks are the
// legal checking moves of pos. It returns the mating move and the length of the line
// found, trying every check for a mate in one and then deepening by two plies from
// from (3, or past a depth an earlier search of the position found no mate within); it
// gives up, proving nothing, after Config.MateNodes moves beyond the first ply.
func (e *Evaluator) findMate(pos *ms.Position, g Game, checks []ms.Move, depth, from int) (ms.Move, int, bool) {
	e.nodes, e.seen = 0, false
	cands, m, mated := e.countReplies(pos, g, 0, depth, checks)
	if mated {
		return m, 1, true
	}
	for d := max(from, 3); d <= depth; d += 2 {
		if m, plies, ok := e.tryChecks(pos, g, 0, d, cands); ok {
			return m, plies, true
		}
		if e.nodes >= e.cfg.MateNodes {
			break
		}
	}
	return ms.NoMove, 0, false
}

// attack reports whether the side to move mates within depth plies (odd) by one of
// checks, its legal checking moves; ply is the distance from the search's root, which
// picks the scratch lists. It returns the mating move and the length of the line found.
func (e *Evaluator) attack(pos *ms.Position, g Game, ply, depth int, checks []ms.Move) (ms.Move, int, bool) {
	cands, m, mated := e.countReplies(pos, g, ply, depth, checks)
	if mated {
		return m, 1, true
	}
	return e.tryChecks(pos, g, ply, depth, cands)
}

// countReplies plays each of checks and counts the defender's replies: a check without
// one mates, and is returned at once. Otherwise it returns, where depth allows a longer
// mate, the checks worth trying further (not into a position that may have occurred),
// fewest replies first. At the search's root (ply 0) every check is counted, whatever
// the budget, so that no mate in one is missed.
func (e *Evaluator) countReplies(pos *ms.Position, g Game, ply, depth int, checks []ms.Move) ([]mateCandidate, ms.Move, bool) {
	cands := e.cands[ply/2][:0]
	replies := &e.lists[ply+1]
	for _, c := range checks {
		if ply > 0 && e.nodes >= e.cfg.MateNodes {
			return nil, ms.NoMove, false
		}
		u := pos.MakeMove(c)
		e.nodes++
		if depth <= 1 {
			// The last ply: only whether c mates counts, not how many replies it leaves.
			mates := !pos.HasLegalMove()
			pos.UnmakeMove(c, u)
			if mates {
				return nil, c, true
			}
			continue
		}
		pos.GenerateLegal(replies)
		seen := depth > 1 && g.MaybeSeen(pos.Hash())
		e.seen = e.seen || seen
		pos.UnmakeMove(c, u)
		if replies.N == 0 {
			return nil, c, true
		}
		if depth > 1 && !seen {
			cands = append(cands, mateCandidate{c, replies.N})
		}
	}
	// Fewest replies first; an insertion sort keeps generation order among equals and
	// allocates nothing.
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && cands[j].replies < cands[j-1].replies; j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	return cands, ms.NoMove, false
}

// tryChecks looks for a mate within depth plies by one of cands, none of which mates at
// once.
func (e *Evaluator) tryChecks(pos *ms.Position, g Game, ply, depth int, cands []mateCandidate) (ms.Move, int, bool) {
	if depth < 3 {
		return ms.NoMove, 0, false
	}
	for _, c := range cands {
		u := pos.MakeMove(c.m)
		e.nodes++
		plies, ok := e.defend(pos, g, ply+1, depth-1)
		pos.UnmakeMove(c.m, u)
		if ok {
			return c.m, plies + 1, true
		}
		if e.nodes >= e.cfg.MateNodes {
			break
		}
	}
	return ms.NoMove, 0, false
}

// defend reports whether every legal reply of the side to move (which is in check and has
// a reply) allows a mate within depth-1 plies, and returns the longest such line.
func (e *Evaluator) defend(pos *ms.Position, g Game, ply, depth int) (int, bool) {
	replies := &e.lists[ply]
	pos.GenerateLegal(replies)
	longest := 0
	checks := &e.lists[ply+1]
	for _, r := range replies.Slice() {
		if e.nodes >= e.cfg.MateNodes {
			return 0, false
		}
		u := pos.MakeMove(r)
		e.nodes++
		ok, plies := false, 0
		if !g.MaybeSeen(pos.Hash()) {
			pos.GenerateChecks(checks)
			_, plies, ok = e.attack(pos, g, ply+1, depth-1, checks.Slice())
		} else {
			e.seen = true
		}
		pos.UnmakeMove(r, u)
		if !ok {
			return 0, false
		}
		longest = max(longest, plies)
	}
	return longest + 1, true
}
