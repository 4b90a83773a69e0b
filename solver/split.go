package solver

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

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
	// With nothing fixed the attacker's side plays no part, and no error can arise.
	leaves, _, _ := SplitLeavesUnder(root, minishogi.Sente, k, nil)
	return leaves
}

// SplitLeavesUnder is SplitLeaves with the defender's replies fixed: at a defender position
// of the first k plies that fixed has a move for (a certificate's replies), the walk follows
// that reply alone; at the others, and at every attacker position, every move. It returns the
// leaves and the entries of fixed it followed. Such a split can only show a lower bound (a
// certificate of no mate within L plies: the defender may keep to the fixed replies), never a
// mate, since the defender's other replies go unsearched; it is the split that certifies a
// bound at a seventh of the work when a certificate of a shorter bound names a good defence
// (datasets/handicap/README.md, Under the 18-ply certificate's defence). A fixed reply that is not
// a legal move of its position is an error.
func SplitLeavesUnder(root minishogi.Position, attacker minishogi.Color, k int, fixed map[minishogi.Code]minishogi.Move) (leaves []minishogi.Position, followed map[minishogi.Code]minishogi.Move, err error) {
	seen := map[minishogi.Code]bool{}
	followed = map[minishogi.Code]minishogi.Move{}
	var walk func(p minishogi.Position, d int) error
	walk = func(p minishogi.Position, d int) error {
		if d == k {
			if c := p.Code(); !seen[c] {
				seen[c] = true
				leaves = append(leaves, p)
			}
			return nil
		}
		moves, isFixed, err := splitMoves(p, attacker, fixed)
		if err != nil {
			return err
		}
		if isFixed {
			followed[p.Code()] = moves[0]
		}
		for _, m := range moves {
			if err := walk((moveRules{}).Play(p, m), d+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, 0); err != nil {
		return nil, nil, err
	}
	return leaves, followed, nil
}

// splitMoves returns the moves a split follows from p: the defender's fixed reply alone where
// fixed has one (isFixed), else every legal move.
func splitMoves(p minishogi.Position, attacker minishogi.Color, fixed map[minishogi.Code]minishogi.Move) (moves []minishogi.Move, isFixed bool, err error) {
	moves = (moveRules{}).Moves(p, nil)
	if p.SideToMove() == attacker {
		return moves, false, nil
	}
	m, ok := fixed[p.Code()]
	if !ok {
		return moves, false, nil
	}
	if !slices.Contains(moves, m) {
		return nil, false, fmt.Errorf("solver: split: the fixed reply %s is not a legal move of %s", m, positionKey(&p))
	}
	return []minishogi.Move{m}, true, nil
}

// LeafResult is a subproblem's answer: a minimal mate of Plies plies with its proof, or
// (Found false) no mate within the subproblem's bound; and, for MergeCertificate, a
// certificate of the longest length its deepening disproved (nil: none kept) and its
// entries, which choose between equal defences (CertificateSize, given also without the
// certificate to CertificateLeaves).
type LeafResult struct {
	Found           bool
	Plies           int
	Proof           *Proof
	Certificate     *Certificate
	CertificateSize int
}

// splitValue is the AND/OR rule over the first k plies: it returns the root's minimal mate
// (noMate: none) from the leaves' answers and tells visit, for each node above the leaves
// with a move, its position, depth and value, and its side's best move: the attacker's to
// the least child, the defender's to the greatest. Among moves of equal value the recorder's
// (the side whose moves the merged file records: the attacker's in a proof, the defender's
// in a certificate) is the one under which the leaves' files are smallest, by size: a node
// weighs its chosen child at the recorder's nodes and all its children at the other side's,
// so that the merged file keeps few entries (for the two-piece start split after 2 plies
// within 12, the root's seven replies lead to leaf certificates of 70,000 to 172,000 entries
// in all, and the first in generation order to 151,000). Further ties go to the first.
// Where fixed has a defender's reply (SplitLeavesUnder), that reply is the node's only move:
// the value is then the mate's length against the fixed replies, at most the root's minimal
// mate, so it bounds the minimal mate from below.
func splitValue(root minishogi.Position, attacker, recorder minishogi.Color, k int, fixed map[minishogi.Code]minishogi.Move, leaves map[minishogi.Code]LeafResult,
	size func(LeafResult) int, visit func(p minishogi.Position, d, v int, best minishogi.Move)) (int, error) {
	g := moveRules{}
	var value func(p minishogi.Position, d int) (v, weight int, err error)
	value = func(p minishogi.Position, d int) (int, int, error) {
		if d == k {
			r, ok := leaves[p.Code()]
			if !ok {
				return 0, 0, fmt.Errorf("solver: merge: no result for the subproblem %s", p.SFEN())
			}
			if !r.Found {
				return noMate, size(r), nil
			}
			return r.Plies, size(r), nil
		}
		moves, _, err := splitMoves(p, attacker, fixed)
		if err != nil {
			return 0, 0, err
		}
		att := p.SideToMove() == attacker
		if len(moves) == 0 {
			if att {
				return noMate, 0, nil
			}
			return 0, 0, nil
		}
		chooses := p.SideToMove() == recorder
		v, weight, best := noMate, 0, minishogi.Move(0)
		if !att {
			v = -1
		}
		bestWeight := 0
		for i, m := range moves {
			cv, cw, err := value(g.Play(p, m), d+1)
			if err != nil {
				return 0, 0, err
			}
			if cv < noMate {
				cv++
			}
			if i == 0 || att && cv < v || !att && cv > v || cv == v && chooses && cw < bestWeight {
				v, best, bestWeight = cv, m, cw
			}
			weight += cw
		}
		if chooses {
			weight = bestWeight + 1
		}
		visit(p, d, v, best)
		return v, weight, nil
	}
	v, _, err := value(root, 0)
	return v, err
}

// sortedLeaves lists the leaves' codes in order, so that a merge is the same from run to run
// (a map's order is not).
func sortedLeaves(leaves map[minishogi.Code]LeafResult) []minishogi.Code {
	codes := slices.Collect(maps.Keys(leaves))
	slices.SortFunc(codes, compareCodes)
	return codes
}

func compareCodes(a, b minishogi.Code) int {
	return cmp.Or(cmp.Compare(a[1], b[1]), cmp.Compare(a[0], b[0]))
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
	proofSize := func(r LeafResult) int {
		if r.Proof == nil {
			return 0
		}
		return len(r.Proof.Moves)
	}
	v, err := splitValue(root, attacker, attacker, k, nil, leaves, proofSize, func(p minishogi.Position, _, v int, m minishogi.Move) {
		if p.SideToMove() == attacker && v < noMate {
			offer(p.Code(), m, v)
		}
	})
	if err != nil {
		return false, 0, nil, err
	}
	if v > maxPlies {
		return false, 0, nil, nil
	}
	// Each leaf proof's moves, with the length each mates in by that proof's own strategy;
	// keeping the shortest at each position keeps every position's mate within its length
	// (by induction on the length), so the union is one proof.
	for _, c := range sortedLeaves(leaves) {
		r := leaves[c]
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

// SubproblemError is a merge's complaint about one subproblem's result, so that a caller
// can say where that result came from.
type SubproblemError struct {
	Leaf minishogi.Code
	Err  error
}

func (e *SubproblemError) Error() string {
	p, err := e.Leaf.Decode()
	if err != nil {
		return fmt.Sprintf("solver: merge: a subproblem: %v", e.Err)
	}
	return fmt.Sprintf("solver: merge: the subproblem %s: %v", positionKey(&p), e.Err)
}

func (e *SubproblemError) Unwrap() error { return e.Err }

// certificateTop is the first k plies of a merged certificate: the length L to certify (the
// root's minimal mate within maxPlies minus 2, a position's mate lengths having one parity,
// or maxPlies when none is found; below 0 when there is nothing to disprove), and what the
// check from the root meets above the leaves when the defender plays its longest defence
// (splitValue's, the smallest certificates breaking ties): the replies it takes, each with
// the plies it is shown over at the position's shallowest such occurrence, and the leaves it
// reaches with plies to play, whose certificates the merge needs. With replies fixed
// (SplitLeavesUnder) the defence is theirs where they have one; L still bounds the minimal
// mate from below, the mate against the fixed replies being no longer than it.
//
// A reply at depth d is shown over min(v-2, maxPlies-d) plies, v the merged mate length
// there: a leaf's certificate shows its own v-2, or its whole bound maxPlies-k, and the
// AND/OR rule carries the shift and the cap up (an attacker node's least child plus one, a
// defender's greatest). The check meets a node at depth d with L-d plies, at most that.
func certificateTop(root minishogi.Position, attacker minishogi.Color, k, maxPlies int, fixed map[minishogi.Code]minishogi.Move, leaves map[minishogi.Code]LeafResult) (lower int, top map[minishogi.Code]shownReply, reached []minishogi.Code, err error) {
	type occurrence struct {
		code  minishogi.Code
		depth int
	}
	chosen := map[occurrence]shownReply{}
	size := func(r LeafResult) int { return r.CertificateSize }
	v, err := splitValue(root, attacker, attacker.Opponent(), k, fixed, leaves, size, func(p minishogi.Position, d, v int, m minishogi.Move) {
		if p.SideToMove() != attacker {
			chosen[occurrence{p.Code(), d}] = shownReply{m, min(v-2, maxPlies-d)}
		}
	})
	if err != nil {
		return 0, nil, nil, err
	}
	lower = maxPlies
	if v <= maxPlies {
		lower = v - 2
	}
	top = map[minishogi.Code]shownReply{}
	seen := map[occurrence]bool{}
	g := moveRules{}
	var walk func(p minishogi.Position, d int)
	walk = func(p minishogi.Position, d int) {
		o := occurrence{p.Code(), d}
		att := p.SideToMove() == attacker
		// With no ply left, or one for the defender, the check needs nothing more
		// (docs/proofs.md#certificate-check).
		if n := lower - d; seen[o] || n <= 0 || !att && n == 1 {
			return
		}
		seen[o] = true
		switch c, ok := chosen[o]; {
		case d == k:
			reached = append(reached, o.code)
		case att:
			for _, m := range g.Moves(p, nil) {
				walk(g.Play(p, m), d+1)
			}
		case ok: // (a defender without moves has no choice; the check reports it)
			if t, ok := top[o.code]; !ok || c.plies > t.plies {
				top[o.code] = c
			}
			walk(g.Play(p, c.reply), d+1)
		}
	}
	walk(root, 0)
	slices.SortFunc(reached, compareCodes)
	reached = slices.Compact(reached)
	return lower, top, reached, nil
}

// shownReply is a defender's reply and the plies a source shows it to escape over.
type shownReply struct {
	reply minishogi.Move
	plies int
}

// CertificateLeaves returns the subproblems whose certificates MergeCertificate needs:
// those the check of the merged certificate reaches above them. leaves need their answers and
// CertificateSize, not their certificates, so that a caller can read only those it needs.
// fixed is the split's fixed replies (SplitLeavesUnder; nil: none).
func CertificateLeaves(root minishogi.Position, attacker minishogi.Color, k, maxPlies int, fixed map[minishogi.Code]minishogi.Move, leaves map[minishogi.Code]LeafResult) ([]minishogi.Code, error) {
	_, _, reached, err := certificateTop(root, attacker, k, maxPlies, fixed, leaves)
	return reached, err
}

// MergeCertificate combines the leaves' certificates (LeafResult.Certificate) into one
// certificate for root of "no mate within L plies", L the longest length the leaves show
// (certificateTop), over a split with the defender's replies fixed (SplitLeavesUnder; nil:
// none). It is nil when L < 0 (a mate in 0 or 1 plies: nothing to disprove). The
// leaves CertificateLeaves lists must have their certificates, of the lengths their results
// disprove; the others are not read. The certificate returned has passed the checker
// (CheckCertificate's walk), and holds only the entries the check uses.
// docs/proofs.md#split-certificates gives the rule and why it is sound:
//   - over the first k plies, the defender's longest defence (certificateTop);
//   - below, the entries of the certificates of the leaves it reaches, united;
//   - where two sources give one position different replies, the reply of the one that
//     shows it escaping over the most plies (by the checker's memo, certificatePlies).
func MergeCertificate(root minishogi.Position, attacker minishogi.Color, k, maxPlies int, fixed map[minishogi.Code]minishogi.Move, leaves map[minishogi.Code]LeafResult) (*Certificate, error) {
	lower, top, reached, err := certificateTop(root, attacker, k, maxPlies, fixed, leaves)
	if err != nil || lower < 0 {
		return nil, err
	}
	replies := make(map[minishogi.Code]minishogi.Move, len(top))
	shown := make(map[minishogi.Code]int, len(top))
	for c, t := range top {
		replies[c], shown[c] = t.reply, t.plies
	}
	for _, c := range reached {
		r := leaves[c]
		need := maxPlies - k
		if r.Found {
			need = r.Plies - 2
		}
		switch {
		case r.Certificate == nil:
			return nil, &SubproblemError{c, fmt.Errorf("no certificate (of no mate within %d plies)", need)}
		case r.Certificate.Plies < need:
			return nil, &SubproblemError{c, fmt.Errorf("a certificate of no mate within %d plies; its result needs %d", r.Certificate.Plies, need)}
		}
		p, err := c.Decode()
		if err != nil {
			return nil, fmt.Errorf("solver: merge: %w", err)
		}
		plies, err := certificatePlies(p, r.Certificate)
		if err != nil {
			return nil, &SubproblemError{c, fmt.Errorf("its certificate: %w", err)}
		}
		for q, n := range plies {
			if old, ok := shown[q]; !ok || n > old {
				replies[q], shown[q] = r.Certificate.Replies[q], n
			}
		}
	}
	d := &Certificate{Plies: lower, AttackerToMove: root.SideToMove() == attacker, Replies: replies}
	used, err := certificatePlies(root, d)
	if err != nil {
		return nil, fmt.Errorf("solver: merge: the merged certificate does not hold: %w", err)
	}
	maps.DeleteFunc(replies, func(q minishogi.Code, _ minishogi.Move) bool { _, ok := used[q]; return !ok })
	return d, nil
}
