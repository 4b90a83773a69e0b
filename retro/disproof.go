package retro

import (
	"errors"
	"fmt"
)

// Disproof is a certificate that the attacker does not force mate within Plies plies from a
// root: the defender's escaping reply in every position where the defender is to move and the
// certificate needs one. Attacker nodes need no entry, since a checker generates every legal
// attacker move itself. It is the mirror of Proof: one reply per position is enough, since
// each recorded reply escapes over the most plies the position is ever reached with.
type Disproof[K comparable, M comparable] struct {
	Plies          int
	AttackerToMove bool // the role of the side to move at the root
	Replies        map[K]M
}

// ErrTooLarge is returned by Disproof when the certificate would pass its entry limit.
var ErrTooLarge = errors.New("retro: disproof: the certificate passes its entry limit")

// Disproof returns a certificate that the attacker has no forced mate within plies plies
// from s, read from the search's table (searching again where the table forgot a node), with
// at most maxEntries replies (0: no limit; past it, ErrTooLarge). It is an error if the
// attacker does mate within plies plies.
func (ms *MateSearch[S, M, K]) Disproof(s S, attacker bool, plies, maxEntries int) (*Disproof[K, M], error) {
	ok, err := ms.Prove(s, attacker, plies)
	if err != nil {
		return nil, err
	}
	if ok {
		return nil, fmt.Errorf("retro: disproof: the attacker forces mate within %d plies", plies)
	}
	type choice struct {
		plies int16
		move  M
	}
	chosen := map[K]choice{}
	visited := map[ttKey[K]]bool{}
	var walk func(s S, plies int, attacker bool) error
	walk = func(s S, plies int, attacker bool) error {
		if plies <= 0 || !attacker && plies == 1 {
			return nil // the attacker has no ply left to mate on: the defender has escaped
		}
		code := ms.game.Code(s)
		k := ttKey[K]{code, int16(plies), attacker}
		if visited[k] {
			return nil
		}
		visited[k] = true
		if attacker {
			for _, m := range ms.game.Moves(s, nil) {
				if err := walk(ms.game.Play(s, m), plies-1, false); err != nil {
					return err
				}
			}
			return nil
		}
		if old, ok := chosen[code]; ok && int(old.plies) >= plies {
			return nil // a reply escaping over more plies is known
		}
		m, found, err := ms.firstMove(s, false, plies-1, false)
		switch {
		case err != nil:
			return err
		case !found:
			panic("retro: disproof: a disproved defender node has no escaping move; the search is inconsistent")
		}
		chosen[code] = choice{int16(plies), m}
		if maxEntries > 0 && len(chosen) > maxEntries {
			return ErrTooLarge
		}
		return walk(ms.game.Play(s, m), plies-1, true)
	}
	if err := walk(s, plies, attacker); err != nil {
		return nil, err
	}
	// Keep only the replies reached when the chosen replies are followed, each position at the
	// most plies it is met with.
	d := &Disproof[K, M]{Plies: plies, AttackerToMove: attacker, Replies: map[K]M{}}
	seen := map[ttKey[K]]bool{}
	var keep func(s S, plies int, attacker bool)
	keep = func(s S, plies int, attacker bool) {
		if plies <= 0 || !attacker && plies == 1 {
			return
		}
		code := ms.game.Code(s)
		if seen[ttKey[K]{code, int16(plies), attacker}] {
			return
		}
		seen[ttKey[K]{code, int16(plies), attacker}] = true
		if attacker {
			for _, m := range ms.game.Moves(s, nil) {
				keep(ms.game.Play(s, m), plies-1, false)
			}
			return
		}
		m := chosen[code].move
		d.Replies[code] = m
		keep(ms.game.Play(s, m), plies-1, true)
	}
	keep(s, plies, attacker)
	return d, nil
}

// CheckDisproof replays certificate d from root with the game's own move generator and
// returns nil only if it shows that the attacker has no forced mate within d.Plies plies: at
// each attacker node every legal move leads to a defender node of the certificate (or the
// attacker has no move at all), at each defender node the recorded reply exists and is legal,
// and no line reaches a defender without moves within the bound. A defender with a move and
// one ply left has escaped (the attacker has no ply left to mate on), so it needs no entry. The error names the first
// hole and the line of moves that reaches it.
//
// The checker is as plain as CheckProof: a depth-first walk with the plies left, remembering
// for each position the most plies it was verified with (an escape over more plies is an
// escape over fewer).
func CheckDisproof[S any, M comparable, K comparable](g MoveRules[S, M, K], root S, d *Disproof[K, M]) error {
	_, err := walkDisproof(g, root, d)
	return err
}

// DisproofPlies checks d as CheckDisproof does and returns, for each defender position whose
// entry the check used, the most plies the check showed it to escape over there (its memo).
// Merging certificates needs them: where two certificates give one position different
// replies, the merge keeps the reply shown over more plies (docs/proofs.md#split-certificates).
func DisproofPlies[S any, M comparable, K comparable](g MoveRules[S, M, K], root S, d *Disproof[K, M]) (map[K]int, error) {
	w, err := walkDisproof(g, root, d)
	if err != nil {
		return nil, err
	}
	// A defender position is verified past the end cases only with two plies or more, and
	// then its entry was used.
	plies := map[K]int{}
	for n, p := range w.verified {
		if !n.attacker {
			plies[n.code] = p
		}
	}
	return plies, nil
}

// walkDisproof is the check of CheckDisproof; its walk keeps the memo DisproofPlies reads
// (CheckDisproof does not copy it: a certificate of millions of entries would pay a second
// map for nothing).
func walkDisproof[S any, M comparable, K comparable](g MoveRules[S, M, K], root S, d *Disproof[K, M]) (*certificateWalk[S, M, K], error) {
	w := &certificateWalk[S, M, K]{
		g: g, what: "disproof", recorder: false, recorded: d.Replies,
		hole: "the certificate has no defender reply (a hole)", illegal: "the certificate's reply %v is illegal",
		covers: func(verified, plies int) bool { return verified >= plies },
		end: func(moves, plies int, attacker bool) (bool, string) {
			switch {
			case moves == 0 && !attacker:
				return true, "the defender is mated"
			case moves == 0, plies <= 0, !attacker && plies == 1:
				return true, "" // the attacker has no move, or no ply left to mate on: no mate
			}
			return false, ""
		},
	}
	if err := w.check(root, d.Plies, d.AttackerToMove); err != nil {
		return nil, err
	}
	return w, nil
}
