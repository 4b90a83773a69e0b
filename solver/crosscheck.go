package solver

import (
	"context"
	"fmt"
	"slices"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// MoveSource lists the legal moves of positions given as SFEN, one list of USI moves per
// position in the order given: another engine's move generator, such as Fairy-Stockfish's
// `go perft 1` through usi.Client.LegalMoves. CheckProofWith and CheckCertificateWith ask it
// in batches, so a source can answer thousands of positions a round trip.
type MoveSource interface {
	LegalMoves(ctx context.Context, sfens []string) ([][]string, error)
}

// ReplyCounter is an optional extension of MoveSource: the legal moves of each position and,
// for each, how many legal replies the position after it has (Fairy-Stockfish's `go perft 2`
// through usi.Client.ReplyCounts). The check asks it of the positions one ply before the
// deepest it reaches, where it needs of each child only whether it has a legal move: one
// question instead of one for each child.
type ReplyCounter interface {
	ReplyCounts(ctx context.Context, sfens []string) ([]map[string]int64, error)
}

// Disagreement is a position the check used where the source's legal moves and the rules
// engine's (minishogi.Position.LegalMoves) differ.
type Disagreement struct {
	SFEN       string   `json:"sfen"`
	OnlySource []string `json:"only_source"` // listed by the source, not by ours
	OnlyOurs   []string `json:"only_ours"`   // listed by ours, not by the source
	// PawnDropMate is set when the whole difference is pawn drops that the source lists and
	// that mate at once (the source lists no reply to them and the pawn gives check): illegal
	// by docs/rules.md (uchifuzume), left out of the source's moves by the check
	// (docs/proofs.md#another-engine). Fairy-Stockfish generates them and scores them as a
	// loss for the dropper.
	PawnDropMate bool `json:"pawn_drop_mate"`
}

// CrossCheck is the outcome of re-checking a proof or certificate with a MoveSource.
type CrossCheck struct {
	// Verdict is nil when the proof or certificate holds with the source's legal moves (less
	// its illegal pawn-drop mates); otherwise it names the first hole and the line to it, as
	// CheckProof and CheckCertificate do.
	Verdict error
	// Positions is how many distinct positions the check used the legal moves of; Asked how
	// many the source listed the moves of, which adds the positions after each pawn drop that
	// gives check (whether the drop mates is read from the source's answer there). Counted
	// is how many of the Positions were settled by their number of legal moves alone, from a
	// ReplyCounter's answer for the position before them: positions at the deepest ply the
	// check reaches, where it asks only whether a legal move exists (docs/proofs.md). They
	// are compared with ours by that number.
	Positions, Asked, Counted int
	// Disagreements lists every position used where the two move generators differ, in the
	// order met (breadth first from the root).
	Disagreements []Disagreement
}

// Unexplained counts the disagreements that are not illegal pawn-drop mates: positions where
// one of the two move generators is wrong by docs/rules.md.
func (c *CrossCheck) Unexplained() int {
	n := 0
	for _, d := range c.Disagreements {
		if !d.PawnDropMate {
			n++
		}
	}
	return n
}

// CrossOptions tunes CheckProofWith and CheckCertificateWith.
type CrossOptions struct {
	// Batch is how many positions go to the source at once (0: DefaultCrossBatch).
	Batch int
	// Progress, when set, is called after each batch with the positions whose legal moves
	// are known and the positions found so far (the plies reached, the next one included),
	// which grows as the walk goes deeper.
	Progress func(done, total int)
}

// DefaultCrossBatch is CrossOptions.Batch's default: large enough that a pipe's round trip
// costs nothing beside the source's work, small enough that progress moves.
const DefaultCrossBatch = 4096

// CheckProofWith checks proof from root as CheckProof does, but every legal move list the
// check needs (the defences it must see covered, the attacker's move it must find legal, the
// mate it must see as no legal reply) comes from src instead of the rules engine's move
// generator, and each of those positions is compared with ours. The moves are asked breadth
// first, ply by ply, in batches and each position once, before the proof is replayed by
// retro.CheckProof from the answers. The error is the source's (or a move it lists that
// cannot be played); the verdict is in the result. See docs/proofs.md#another-engine.
func CheckProofWith(ctx context.Context, src MoveSource, root minishogi.Position, proof *Proof, opts CrossOptions) (*CrossCheck, error) {
	x := newCrossChecker(ctx, src, opts)
	follow := func(p *minishogi.Position, attacker bool, depth int, legal []minishogi.Move) []minishogi.Move {
		switch {
		case depth >= proof.Plies:
			return nil // the check ends here: mated, or too long
		case !attacker:
			return legal
		}
		if m, ok := proof.Moves[p.Code()]; ok && slices.Contains(legal, m) {
			return []minishogi.Move{m}
		}
		return nil // a hole or an illegal move: the check stops here
	}
	leaf := func(attacker bool, depth int) bool { return depth >= proof.Plies }
	return x.run(root, proof.AttackerToMove, follow, leaf, func(g crossRules) error {
		return retro.CheckProof[minishogi.Position, minishogi.Move, minishogi.Code](g, root, proof)
	})
}

// CheckCertificateWith checks d from root as CheckCertificate does, with src's legal moves
// instead of ours, as CheckProofWith does for a proof.
func CheckCertificateWith(ctx context.Context, src MoveSource, root minishogi.Position, d *Certificate, opts CrossOptions) (*CrossCheck, error) {
	x := newCrossChecker(ctx, src, opts)
	follow := func(p *minishogi.Position, attacker bool, depth int, legal []minishogi.Move) []minishogi.Move {
		left := d.Plies - depth
		switch {
		case attacker && left > 0:
			return legal
		case attacker, left <= 1:
			return nil // no ply left for the attacker to mate on
		}
		if m, ok := d.Replies[p.Code()]; ok && slices.Contains(legal, m) {
			return []minishogi.Move{m}
		}
		return nil
	}
	leaf := func(attacker bool, depth int) bool {
		if attacker {
			return depth >= d.Plies
		}
		return depth >= d.Plies-1
	}
	return x.run(root, d.AttackerToMove, follow, leaf, func(g crossRules) error {
		return retro.CheckDisproof[minishogi.Position, minishogi.Move, minishogi.Code](g, root, d)
	})
}

// crossChecker holds the source's answers, by position.
type crossChecker struct {
	ctx   context.Context
	src   MoveSource
	batch int
	// raw is the source's list as it answered; legal is raw less its illegal pawn-drop
	// mates, for the positions the check uses.
	raw, legal map[minishogi.Code][]minishogi.Move
	// replies is the source's count of legal moves of the positions after each move of a
	// position asked with ReplyCounts; counted those of the positions settled by it alone.
	replies, counted map[minishogi.Code]int
	found            int // positions found so far: those in legal and those waiting
	progress         func(done, total int)
	rep              CrossCheck
}

func newCrossChecker(ctx context.Context, src MoveSource, opts CrossOptions) *crossChecker {
	batch := opts.Batch
	if batch <= 0 {
		batch = DefaultCrossBatch
	}
	return &crossChecker{ctx: ctx, src: src, batch: batch, progress: opts.Progress,
		raw: map[minishogi.Code][]minishogi.Move{}, legal: map[minishogi.Code][]minishogi.Move{},
		replies: map[minishogi.Code]int{}, counted: map[minishogi.Code]int{}}
}

// leafFunc reports whether the check needs of a position at depth plies from the root only
// whether it has a legal move: the check goes no further from it, whatever its moves.
type leafFunc func(attacker bool, depth int) bool

// followFunc returns the moves the check follows from a position at depth plies from the
// root, given its legal moves.
type followFunc func(p *minishogi.Position, attacker bool, depth int, legal []minishogi.Move) []minishogi.Move

// run asks the legal moves of every position the check can reach, ply by ply from the root
// (each position once, at the fewest plies it is reached with, where the check follows the
// most moves from it), then replays the check from the answers.
func (x *crossChecker) run(root minishogi.Position, attackerToMove bool, follow followFunc, leaf leafFunc, check func(crossRules) error) (rep *CrossCheck, err error) {
	attackerColor := root.SideToMove()
	if !attackerToMove {
		attackerColor = attackerColor.Opponent()
	}
	seen := map[minishogi.Code]bool{root.Code(): true}
	level := []minishogi.Position{root}
	counter, _ := x.src.(ReplyCounter)
	for depth := 0; len(level) > 0; depth++ {
		x.found = len(seen)
		// Every position of a ply has the same side to move. A position met again is not
		// asked again; one first met at a leaf's depth is never met with more plies left,
		// so the check needs no more of it than whether it has a move (see crossRules).
		attacker := level[0].SideToMove() == attackerColor
		var err error
		switch {
		case counter != nil && leaf(attacker, depth):
			err = x.learnLeaves(level)
		default:
			err = x.learn(level, counter != nil && leaf(!attacker, depth+1))
		}
		if err != nil {
			return nil, err
		}
		var next []minishogi.Position
		for i := range level {
			p := &level[i]
			for _, m := range follow(p, p.SideToMove() == attackerColor, depth, x.legal[p.Code()]) {
				c := *p
				c.MakeMove(m)
				if code := c.Code(); !seen[code] {
					seen[code] = true
					next = append(next, c)
				}
			}
		}
		level = next
	}
	// The replay asks only positions learnt above; a miss would be asked alone.
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(sourceFailure)
			if !ok {
				panic(r)
			}
			rep, err = nil, f.err
		}
	}()
	x.rep.Verdict = check(crossRules{x})
	x.rep.Positions = len(x.legal) + len(x.counted)
	x.rep.Asked = len(x.raw)
	x.rep.Counted = len(x.counted)
	return &x.rep, nil
}

// learn asks the source about the positions not yet known, a batch at a time, and settles
// their legal moves; withCounts asks the ReplyCounter instead, for the positions whose
// children are leaves.
func (x *crossChecker) learn(ps []minishogi.Position, withCounts bool) error {
	for start := 0; start < len(ps); start += x.batch {
		chunk := ps[start:min(start+x.batch, len(ps))]
		ask := x.ask
		if withCounts {
			ask = x.askCounts
		}
		if err := ask(chunk); err != nil {
			return err
		}
		// Whether a pawn drop that gives check mates is the source's answer in the
		// position after it: no legal reply. (A pawn's check cannot be blocked and a drop
		// gives no other check, so no reply there is itself a pawn drop: the source's raw
		// answer there is final.)
		var after []minishogi.Position
		for i := range chunk {
			p := &chunk[i]
			for _, m := range x.raw[p.Code()] {
				if pawnDropChecks(p, m) {
					c := *p
					c.MakeMove(m)
					if _, ok := x.replies[c.Code()]; !ok {
						after = append(after, c)
					}
				}
			}
		}
		if err := x.ask(after); err != nil {
			return err
		}
		for i := range chunk {
			x.settle(&chunk[i])
		}
		if x.progress != nil {
			x.progress(len(x.legal), max(x.found, len(x.legal)))
		}
	}
	return nil
}

// learnLeaves settles the positions of the deepest ply from the reply counts of the ply
// before: a position with a count that our move generator matches needs no question. The
// others are asked as learn asks: no count, a count that differs from ours (to say how), and
// a count of 1, which may be a pawn drop that mates and so no legal move (a pawn drop gives
// check on one square only, so a count of 2 or more has a legal move among it).
func (x *crossChecker) learnLeaves(ps []minishogi.Position) error {
	var ask []minishogi.Position
	var ml minishogi.MoveList
	for i := range ps {
		code := ps[i].Code()
		n, ok := x.replies[code]
		if ok && n != 1 {
			ps[i].GenerateLegal(&ml)
			if ml.N == n {
				x.counted[code] = n
				continue
			}
		}
		ask = append(ask, ps[i])
	}
	if x.progress != nil {
		x.progress(len(x.legal)+len(x.counted), max(x.found, len(x.legal)+len(x.counted)))
	}
	return x.learn(ask, false)
}

// askCounts is ask with the ReplyCounter: it also puts the count of legal replies after each
// move into x.replies.
func (x *crossChecker) askCounts(ps []minishogi.Position) error {
	sfens, todo := x.unasked(ps)
	if len(sfens) == 0 {
		return nil
	}
	answers, err := x.src.(ReplyCounter).ReplyCounts(x.ctx, sfens)
	if err != nil {
		return fmt.Errorf("solver: reply counts from the other engine: %w", err)
	}
	if len(answers) != len(sfens) {
		return fmt.Errorf("solver: reply counts from the other engine: %d answers for %d positions", len(answers), len(sfens))
	}
	for i, answer := range answers {
		p := todo[i]
		moves := make([]minishogi.Move, 0, len(answer))
		for s, n := range answer {
			m, err := x.parse(p, s, sfens[i])
			if err != nil {
				return err
			}
			moves = append(moves, m)
			c := *p
			c.MakeMove(m)
			x.replies[c.Code()] = int(n)
		}
		x.raw[p.Code()] = moves
	}
	return nil
}

// unasked returns the positions of ps not yet asked, each once, and their SFENs.
func (x *crossChecker) unasked(ps []minishogi.Position) ([]string, []*minishogi.Position) {
	var sfens []string
	var todo []*minishogi.Position
	queued := map[minishogi.Code]bool{}
	for i := range ps {
		code := ps[i].Code()
		if _, ok := x.raw[code]; ok || queued[code] {
			continue
		}
		queued[code] = true
		sfens = append(sfens, ps[i].SFEN())
		todo = append(todo, &ps[i])
	}
	return sfens, todo
}

// parse reads a move the source lists in p (whose SFEN is sfen).
func (x *crossChecker) parse(p *minishogi.Position, s, sfen string) (minishogi.Move, error) {
	m, err := minishogi.ParseMoveSyntax(s)
	if err != nil {
		return m, fmt.Errorf("solver: the other engine's move in %s: %w", sfen, err)
	}
	if why := unplayable(p, m); why != "" {
		return m, fmt.Errorf("solver: the other engine lists %s in %s, which cannot be played there: %s", s, sfen, why)
	}
	return m, nil
}

// ask puts the source's answer for each position not yet asked into x.raw.
func (x *crossChecker) ask(ps []minishogi.Position) error {
	sfens, todo := x.unasked(ps)
	if len(sfens) == 0 {
		return nil
	}
	answers, err := x.src.LegalMoves(x.ctx, sfens)
	if err != nil {
		return fmt.Errorf("solver: legal moves from the other engine: %w", err)
	}
	if len(answers) != len(sfens) {
		return fmt.Errorf("solver: legal moves from the other engine: %d answers for %d positions", len(answers), len(sfens))
	}
	for i, answer := range answers {
		p := todo[i]
		moves := make([]minishogi.Move, 0, len(answer))
		for _, s := range answer {
			m, err := x.parse(p, s, sfens[i])
			if err != nil {
				return err
			}
			moves = append(moves, m)
		}
		x.raw[p.Code()] = moves
	}
	return nil
}

// settle sets the legal moves of p, whose answer and those after its checking pawn drops are
// known: the source's, less the pawn drops that mate. It records a disagreement with ours.
func (x *crossChecker) settle(p *minishogi.Position) {
	code := p.Code()
	if _, ok := x.legal[code]; ok {
		return
	}
	raw := x.raw[code]
	legal := make([]minishogi.Move, 0, len(raw))
	var dropMates []minishogi.Move
	for _, m := range raw {
		if pawnDropChecks(p, m) {
			c := *p
			c.MakeMove(m)
			if x.noReply(c.Code()) {
				dropMates = append(dropMates, m)
				continue
			}
		}
		legal = append(legal, m)
	}
	x.legal[code] = legal
	ours := p.LegalMoves(nil)
	onlySource, onlyOurs := moveDiff(raw, ours), moveDiff(ours, raw)
	if len(onlySource) == 0 && len(onlyOurs) == 0 {
		return
	}
	x.rep.Disagreements = append(x.rep.Disagreements, Disagreement{
		SFEN:         p.SFEN(),
		OnlySource:   onlySource,
		OnlyOurs:     onlyOurs,
		PawnDropMate: len(onlyOurs) == 0 && slices.Equal(onlySource, moveStrings(dropMates)),
	})
}

// noReply reports whether the source lists no legal move in the position: its list when it
// was asked, else its count from the position before.
func (x *crossChecker) noReply(code minishogi.Code) bool {
	if raw, ok := x.raw[code]; ok {
		return len(raw) == 0
	}
	n, ok := x.replies[code]
	return ok && n == 0
}

// moveDiff lists, sorted, the moves of a that b lacks.
func moveDiff(a, b []minishogi.Move) []string {
	var out []minishogi.Move
	for _, m := range a {
		if !slices.Contains(b, m) {
			out = append(out, m)
		}
	}
	return moveStrings(out)
}

func moveStrings(ms []minishogi.Move) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// pawnDropChecks reports whether m drops a pawn on the square in front of the opponent's
// king, the one check a pawn drop can give (a drop uncovers nothing). A Sente pawn attacks
// the square a rank nearer rank a, a Gote pawn the one a rank nearer rank e (docs/rules.md).
func pawnDropChecks(p *minishogi.Position, m minishogi.Move) bool {
	if !m.IsDrop() || m.DropType() != minishogi.Pawn {
		return false
	}
	us := p.SideToMove()
	k, to := p.KingSquare(us.Opponent()), m.To()
	forward := -1
	if us == minishogi.Gote {
		forward = 1
	}
	return k.File() == to.File() && k.Rank() == to.Rank()+forward
}

// unplayable says why m cannot be played in p even as a pseudo-legal move (what
// minishogi.Position.MakeMove needs), or "" when it can.
func unplayable(p *minishogi.Position, m minishogi.Move) string {
	us := p.SideToMove()
	to := m.To()
	if m.IsDrop() {
		switch {
		case p.Hand(us, m.DropType()) == 0:
			return "no such piece in hand"
		case p.PieceAt(to) != minishogi.NoPiece:
			return "the square is occupied"
		}
		return ""
	}
	pc, target := p.PieceAt(m.From()), p.PieceAt(to)
	switch {
	case pc == minishogi.NoPiece || pc.Color() != us:
		return "no piece of the side to move there"
	case target != minishogi.NoPiece && (target.Color() == us || target.Type() == minishogi.King):
		return "it captures its own piece or a king"
	case m.IsPromotion() && !pc.Type().CanPromote():
		return "the piece cannot promote"
	}
	return ""
}

// crossRules is retro.MoveRules with the source's legal moves, for the replay.
type crossRules struct{ x *crossChecker }

// sourceFailure carries the source's error out of a replay that had to ask it.
type sourceFailure struct{ err error }

func (crossRules) Code(p minishogi.Position) minishogi.Code { return p.Code() }

// Moves returns the source's legal moves of p. For a position settled by its count alone it
// returns that many NoMoves: such a position is first met at the deepest ply the check
// reaches, so the replay meets it there or deeper, where retro's checkers look only at
// whether a move exists (a defender with none is mated; otherwise the bound has ended the
// line) and play none.
func (g crossRules) Moves(p minishogi.Position, dst []minishogi.Move) []minishogi.Move {
	code := p.Code()
	if n, ok := g.x.counted[code]; ok {
		return append(dst, make([]minishogi.Move, n)...)
	}
	legal, ok := g.x.legal[code]
	if !ok {
		if err := g.x.learn([]minishogi.Position{p}, false); err != nil {
			panic(sourceFailure{err})
		}
		legal = g.x.legal[code]
	}
	return append(dst, legal...)
}

func (crossRules) Play(p minishogi.Position, m minishogi.Move) minishogi.Position {
	p.MakeMove(m)
	return p
}
