package retro

import (
	"fmt"
	"slices"
	"strings"
)

// Proof is a certificate that the attacker forces mate within Plies plies from a root: the
// attacker's move in every position where the attacker is to move and the proof needs one.
// Defender nodes need no entry, since a checker generates every legal defence itself. Keying
// by position rather than by path keeps transpositions shared, and one move per position is
// enough: each recorded move mates within the fewest plies the position is ever reached with.
type Proof[K comparable, M comparable] struct {
	Plies          int
	AttackerToMove bool // the role of the side to move at the root
	Moves          map[K]M
}

// Proof returns a proof that the attacker mates within plies plies from s, read from the
// search's table (searching again where the table forgot a node). It is an error if there is
// no such mate.
func (ms *MateSearch[S, M, K]) Proof(s S, attacker bool, plies int) (*Proof[K, M], error) {
	ok, err := ms.Prove(s, attacker, plies)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("retro: proof: the attacker has no forced mate within %d plies", plies)
	}
	type choice struct {
		plies int16
		move  M
	}
	chosen := map[K]choice{}
	visited := map[ttKey[K]]bool{}
	var walk func(s S, plies int, attacker bool) error
	walk = func(s S, plies int, attacker bool) error {
		nk := ms.key(s, plies, attacker)
		k := ttKey[K]{ms.game.Code(s), nk.plies, attacker}
		if visited[k] {
			return nil
		}
		visited[k] = true
		if !attacker {
			for _, m := range ms.game.Moves(s, nil) {
				if err := walk(ms.game.Play(s, m), int(k.plies)-1, true); err != nil {
					return err
				}
			}
			return nil
		}
		m, found, err := ms.firstMove(s, true, int(k.plies)-1, true)
		switch {
		case err != nil:
			return err
		case !found:
			panic("retro: proof: a proved attacker node has no proved move; the search is inconsistent")
		}
		if old, ok := chosen[k.code]; !ok || k.plies < old.plies {
			chosen[k.code] = choice{k.plies, m}
		}
		return walk(ms.game.Play(s, m), int(k.plies)-1, false)
	}
	if err := walk(s, plies, attacker); err != nil {
		return nil, err
	}
	// Keep only the entries reached when the chosen moves are followed: a position met at
	// several depths kept the move of the shallowest, and the subtrees of the others' moves
	// are no longer needed.
	p := &Proof[K, M]{Plies: plies, AttackerToMove: attacker, Moves: map[K]M{}}
	seen := map[K]bool{}
	var keep func(s S, attacker bool)
	keep = func(s S, attacker bool) {
		code := ms.game.Code(s)
		if seen[code] {
			return
		}
		seen[code] = true
		if attacker {
			m := chosen[code].move
			p.Moves[code] = m
			keep(ms.game.Play(s, m), false)
			return
		}
		for _, m := range ms.game.Moves(s, nil) {
			keep(ms.game.Play(s, m), true)
		}
	}
	keep(s, attacker)
	return p, nil
}

// MateMove returns the first move of MateLine(s, true, plies) without walking the rest of
// the line: a move of the attacker, to move in s, after which the defender is mated within
// plies-1 plies. plies must be the minimal mate length.
func (ms *MateSearch[S, M, K]) MateMove(s S, plies int) (M, error) {
	m, found, err := ms.firstMove(s, true, plies-1, true)
	if err == nil && !found {
		err = fmt.Errorf("retro: mate move: no move keeps a mate in %d plies", plies)
	}
	return m, err
}

// MateLine returns a principal variation of a mate in exactly plies plies from s, which must
// be the minimal mate length (as MinimalMate finds it): the attacker plays a move that keeps
// the mate minimal and the defender a longest defence, each chosen by exact bounded searches.
// Ties go to the first move in the game's order.
func (ms *MateSearch[S, M, K]) MateLine(s S, attacker bool, plies int) ([]M, error) {
	var line []M
	for d := plies; d > 0; d-- {
		// An attacker move is minimal when the child mates in d-1; a defence is longest when
		// the child has no mate in d-3 (it cannot need more than d-1).
		var next M
		var found bool
		var err error
		switch {
		case attacker:
			next, found, err = ms.firstMove(s, true, d-1, true)
		case d < 3:
			next, found = ms.game.Moves(s, nil)[0], true
		default:
			next, found, err = ms.firstMove(s, false, d-3, false)
		}
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("retro: mate line: no move keeps a mate in %d plies after %s; is %d the minimal length?", d, formatLine(line), plies)
		}
		line = append(line, next)
		s = ms.game.Play(s, next)
		attacker = !attacker
	}
	return line, nil
}

// CheckProof replays proof from root with the game's own move generator and returns nil only
// if it proves a forced mate: at each attacker node the recorded move exists and is legal, at
// each defender node every legal defence leads on to an attacker node of the proof or to a
// defender without moves, and every line ends in mate within proof.Plies plies. The error
// names the first hole and the line of moves that reaches it.
//
// The checker is deliberately plain: a depth-first walk with the plies left, remembering for
// each position the fewest plies it was verified with (a mate within fewer plies is a mate
// within more).
func CheckProof[S any, M comparable, K comparable](g MoveRules[S, M, K], root S, proof *Proof[K, M]) error {
	w := certificateWalk[S, M, K]{
		g: g, what: "proof", recorder: true, recorded: proof.Moves,
		hole: "the proof has no attacker move (a hole)", illegal: "the proof's move %v is illegal",
		covers: func(verified, plies int) bool { return verified <= plies },
		end: func(moves, plies int, attacker bool) (bool, string) {
			switch {
			case moves == 0 && !attacker:
				return true, "" // the defender is mated
			case moves == 0:
				return true, "the attacker has no legal move"
			case plies == 0:
				return true, "the defender is not mated and no plies are left"
			}
			return false, ""
		},
	}
	return w.check(root, proof.Plies, proof.AttackerToMove)
}

// certificateWalk is the walk of CheckProof and CheckDisproof: depth first from the root with
// the plies left, a node at a time. At a node of the recorder (the side whose moves the
// certificate holds: the attacker in a proof, the defender in a disproof) the recorded move
// must exist and be legal, and it is the only one followed; at the other side's every legal
// move is. What ends a line (end), and whether a position verified once with some plies holds
// with others (covers), is each certificate's own.
type certificateWalk[S any, M comparable, K comparable] struct {
	g        MoveRules[S, M, K]
	what     string // "proof" or "disproof", in the errors
	recorder bool   // whether the recorder is the attacker
	recorded map[K]M
	hole     string // the error when the recorder has no recorded move
	illegal  string // the error when it is illegal (a format of the move)
	covers   func(verified, plies int) bool
	end      func(moves, plies int, attacker bool) (ends bool, failure string) // failure "": the line holds
	line     []M
	verified map[certificateNode[K]]int
}

type certificateNode[K comparable] struct {
	code     K
	attacker bool
}

func (w *certificateWalk[S, M, K]) fail(format string, a ...any) error {
	return fmt.Errorf("retro: %s: after %s %s", w.what, formatLine(w.line), fmt.Sprintf(format, a...))
}

func (w *certificateWalk[S, M, K]) check(s S, plies int, attacker bool) error {
	if w.verified == nil {
		w.verified = map[certificateNode[K]]int{}
	}
	n := certificateNode[K]{w.g.Code(s), attacker}
	if done, ok := w.verified[n]; ok && w.covers(done, plies) {
		return nil
	}
	moves := w.g.Moves(s, nil)
	if ends, failure := w.end(len(moves), plies, attacker); ends {
		if failure != "" {
			return w.fail("%s", failure)
		}
		return nil
	}
	if attacker == w.recorder {
		m, ok := w.recorded[n.code]
		if !ok {
			return w.fail("%s", w.hole)
		}
		if !slices.Contains(moves, m) {
			return w.fail(w.illegal, m)
		}
		moves = []M{m}
	}
	for _, m := range moves {
		w.line = append(w.line, m)
		err := w.check(w.g.Play(s, m), plies-1, !attacker)
		w.line = w.line[:len(w.line)-1]
		if err != nil {
			return err
		}
	}
	w.verified[n] = plies
	return nil
}

func formatLine[M any](line []M) string {
	if len(line) == 0 {
		return "the root"
	}
	parts := make([]string, len(line))
	for i, m := range line {
		parts[i] = fmt.Sprint(m)
	}
	return strings.Join(parts, " ")
}
