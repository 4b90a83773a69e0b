package eval

// The mate search. Strong shogi MCTS engines (dlshogi and its descendants) run a small
// mate search when a leaf is expanded, because a random-looking tree misses forced mates
// that an alpha-beta search sees at once. Here: mate in one by trying every checking move,
// and mate in three by checks only (every attacker move is a check, as in tsume shogi):
// a check after which every reply allows a mate in one.
//
// Uchifuzume needs no care: GenerateLegal never yields a pawn drop that mates, so no line
// ends in one. Repetition does: a line through a position that occurred before might be
// ended by the repetition rule first, so such lines are not trusted (MaybeSeen).

import (
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// matesAtOnce reports whether the legal checking move m leaves the opponent no legal move.
func (e *Evaluator) matesAtOnce(pos *ms.Position, m ms.Move) bool {
	u := pos.MakeMove(m)
	e.nodes++
	replies := &e.lists[3]
	pos.GenerateLegal(replies)
	pos.UnmakeMove(m, u)
	return replies.N == 0
}

// mateIn1 reports whether the side to move has a mate in one, using list for its moves.
func (e *Evaluator) mateIn1(pos *ms.Position, list *ms.MoveList) bool {
	pos.GenerateLegal(list)
	us := pos.SideToMove()
	theirKing := pos.KingSquare(us.Opponent())
	occ := pos.Occupied()
	lines := kingLines(theirKing, occ)
	for _, m := range list.Slice() {
		if m.IsDrop() {
			if !ms.PieceAttacks(m.DropType(), us, m.To(), occ|1<<uint(m.To())).Has(theirKing) {
				continue
			}
		} else {
			after := pos.PieceAt(m.From()).Type()
			if m.IsPromotion() {
				after = after.Promoted()
			}
			if !givesCheck(pos, m, after, occ, lines) {
				continue
			}
		}
		if e.matesAtOnce(pos, m) {
			return true
		}
	}
	return false
}

// mateIn3 looks for a check among checks (the legal checking moves of pos, none of which
// mates at once) after which every reply allows a mate in one. It gives up, proving
// nothing, after Config.MateNodes moves.
func (e *Evaluator) mateIn3(pos *ms.Position, g Game, checks []ms.Move) (ms.Move, bool) {
	e.nodes = 0
	for _, c := range checks {
		if e.nodes >= e.cfg.MateNodes {
			return ms.NoMove, false
		}
		u := pos.MakeMove(c)
		e.nodes++
		forced := !g.MaybeSeen(pos.Hash()) && e.everyReplyMated(pos, g)
		pos.UnmakeMove(c, u)
		if forced {
			return c, true
		}
	}
	return ms.NoMove, false
}

// everyReplyMated reports whether every legal reply of the side to move (which is in check
// and has a reply) allows a mate in one, within the node budget.
func (e *Evaluator) everyReplyMated(pos *ms.Position, g Game) bool {
	replies := &e.lists[1]
	pos.GenerateLegal(replies)
	for _, r := range replies.Slice() {
		if e.nodes >= e.cfg.MateNodes {
			return false
		}
		u := pos.MakeMove(r)
		e.nodes++
		mated := !g.MaybeSeen(pos.Hash()) && e.mateIn1(pos, &e.lists[2])
		pos.UnmakeMove(r, u)
		if !mated {
			return false
		}
	}
	return true
}
