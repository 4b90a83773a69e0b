package minishogi

// Tsume is Minishogi as a tsume problem (mate by checks only), in the form of the searches of
// package retro (retro.MoveRules): the attacker may only give check, the defender plays any
// legal move. An attacker without a check has failed, a defender without a legal move is
// mated, as retro's searches count a side without moves. The engine's `go mate` and the
// tests of the engine's own mate search share it.
type Tsume struct{ Attacker Color }

// Code returns the position's exact code.
func (Tsume) Code(p Position) Code { return p.Code() }

// Moves appends the moves of the side to move to dst: every legal move of the defender, the
// checking ones of the attacker, in the order of GenerateLegal.
func (g Tsume) Moves(p Position, dst []Move) []Move {
	n := len(dst)
	dst = p.LegalMoves(dst)
	if p.SideToMove() != g.Attacker {
		return dst
	}
	checks := dst[:n]
	ct := p.NewCheckTest()
	for _, m := range dst[n:] {
		if ct.GivesCheck(m) {
			checks = append(checks, m)
		}
	}
	return checks
}

// Play returns the position after m.
func (Tsume) Play(p Position, m Move) Position {
	p.MakeMove(m)
	return p
}
