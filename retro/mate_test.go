package retro_test

import (
	"errors"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/outcome"
	"github.com/shogilab/shogilab/retro"
)

// arena is a random two-player game on a small directed graph: a state is a vertex and the
// side to move (2v + side); the mover picks an out-edge of the vertex and passes the turn.
// A mover without edges loses. Side 0 is the attacker. Cycles abound, so repetition and
// transpositions are exercised.
type arena struct{ edges [][]int }

func (a arena) Code(s int) int { return s }
func (a arena) Moves(s int, dst []int) []int {
	return append(dst, a.edges[s/2]...)
}
func (a arena) Play(s, w int) int { return 2*w + 1 - s%2 }
func (a arena) Children(s int, dst []int) []int {
	for _, w := range a.edges[s/2] {
		dst = append(dst, a.Play(s, w))
	}
	return dst
}
func (a arena) Terminal(s int) (outcome.Value, bool) {
	if len(a.edges[s/2]) == 0 {
		return outcome.Loss, true
	}
	return outcome.Unknown, false
}

func randomArena(rng *rand.Rand, vertices int) arena {
	a := arena{edges: make([][]int, vertices)}
	for v := range a.edges {
		for range rng.IntN(4) {
			a.edges[v] = append(a.edges[v], rng.IntN(vertices))
		}
	}
	return a
}

// plainMates is the definition of a bounded forced mate, evaluated by brute force: the
// attacker (side 0) mates within plies plies from s.
func plainMates(a arena, s, plies int) bool {
	attacker := s%2 == 0
	if len(a.edges[s/2]) == 0 {
		return !attacker
	}
	if plies == 0 {
		return false
	}
	for _, w := range a.edges[s/2] {
		if plainMates(a, a.Play(s, w), plies-1) == attacker {
			return attacker
		}
	}
	return !attacker
}

func plainMinimalMate(a arena, s, maxPlies int) int {
	for n := range maxPlies + 1 {
		if plainMates(a, s, n) {
			return n
		}
	}
	return -1
}

// TestMateMethodsAgree compares, on random arenas, the brute-force definition with the
// bounded retrograde labelling and with df-pn (with a roomy and with a tiny table), and
// checks each df-pn proof and principal variation.
func TestMateMethodsAgree(t *testing.T) {
	const maxPlies = 9
	rng := rand.New(rand.NewPCG(1, 2))
	mates := 0
	for trial := range 300 {
		a := randomArena(rng, 8)
		root := 2 * rng.IntN(8) // attacker to move ...
		if trial%2 == 1 {
			root++ // ... or the defender
		}
		attacker := root%2 == 0
		want := plainMinimalMate(a, root, maxPlies)

		gr := retro.Enumerate[int, int](a, []int{root}, retro.Options{MaxPly: maxPlies})
		sol := gr.SolveMate(attacker, nil)
		if got, _ := sol.Mated(0); got != want {
			t.Fatalf("trial %d: retrograde says %d, brute force %d (edges %v, root %d)", trial, got, want, a.edges, root)
		}
		if want >= 0 {
			if line := gr.MateLine(sol, 0); len(line) != want+1 {
				t.Fatalf("trial %d: retrograde line %v for a mate in %d", trial, line, want)
			}
		}

		for _, budget := range []int{0, 6} {
			ms := retro.NewMateSearch[int, int, int](a, budget)
			got, found, err := ms.MinimalMate(root, attacker, maxPlies)
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				got = -1
			}
			if got != want {
				t.Fatalf("trial %d, budget %d: df-pn says %d, brute force %d (edges %v, root %d)", trial, budget, got, want, a.edges, root)
			}
			if !found {
				continue
			}
			mates++
			proof, err := ms.Proof(root, attacker, got)
			if err != nil {
				t.Fatal(err)
			}
			if err := retro.CheckProof[int, int, int](a, root, proof); err != nil {
				t.Fatalf("trial %d: proof rejected: %v", trial, err)
			}
			line, err := ms.MateLine(root, attacker, got)
			if err != nil {
				t.Fatal(err)
			}
			s := root
			for i, w := range line {
				// Each ply must keep the exact distance falling by one (brute force).
				s = a.Play(s, w)
				if d := plainMinimalMate(a, s, maxPlies); d != got-i-1 {
					t.Fatalf("trial %d: after %v the mate takes %d plies, want %d", trial, line[:i+1], d, got-i-1)
				}
			}
		}
	}
	if mates < 50 {
		t.Fatalf("only %d mates among the trials; the test needs more", mates)
	}
}

// TestCheckProofRejects corrupts proofs by hand on small arenas and checks that the checker
// rejects each for the reason it names. Arena a: the attacker at vertex 0 goes to 1; the
// defender at 1 goes to 2 or 3; the attacker at 2 (edges to 4 and 0) and at 3 (edge to 4)
// goes to 4, which has no edges, so the defender is mated. Mate in 3 plies; the proof needs
// moves at states 0 (vertex 0), 4 (vertex 2) and 6 (vertex 3).
func TestCheckProofRejects(t *testing.T) {
	a := arena{edges: [][]int{{1}, {2, 3}, {4, 0}, {4}, {}}}
	good := func() *retro.Proof[int, int] {
		return &retro.Proof[int, int]{Plies: 3, AttackerToMove: true, Moves: map[int]int{0: 1, 4: 4, 6: 4}}
	}
	missing := good()
	delete(missing.Moves, 6) // the answer to the defence 1→3
	illegal := good()
	illegal.Moves[4] = 3 // vertex 2 has no edge to 3
	short := good()
	short.Plies = 2
	escape := good()
	escape.Moves[4] = 0 // back to the start: the defender is never mated

	// Arena twoDepths: the defender at 1 goes straight to the attacker at 2, or by a detour
	// through the attacker at 3 and the defender at 4, which reaches the attacker at 2 two
	// plies later. From 2 the attacker mates at once (5 has no edges). The direct line mates
	// in 3 plies, the detour in 5, so a proof of 4 plies is one ply too short, and only the
	// second visit of state 4 (vertex 2) shows it.
	twoDepths := arena{edges: [][]int{{1}, {2, 3}, {5}, {4}, {2}, {}}}
	detour := map[int]int{0: 1, 4: 5, 6: 4}
	// Arena stuck: the defender at 1 goes to 2, where the attacker mates (4 has no edges),
	// or to 3, where the attacker has no move at all: a loss for the attacker, not a mate.
	stuck := arena{edges: [][]int{{1}, {2, 3}, {4}, {}, {}}}
	// Arena line: 0 → 1 → 2 → 3, mate in 3; vertex 4, without edges, is no move of 0's,
	// so a proof that goes there at once "mates" in 1 only by an illegal move.
	line := arena{edges: [][]int{{1}, {2}, {3}, {}, {}}}

	for _, c := range []struct {
		name  string
		a     arena
		mate  int // the minimal mate from state 0, derived by hand (-1: none)
		proof *retro.Proof[int, int]
		want  string // what the error must say; "" for a proof that holds
	}{
		{"good", a, 3, good(), ""},
		{"missing", a, 3, missing, "after 1 3 the proof has no attacker move (a hole)"},
		{"illegal", a, 3, illegal, "after 1 2 the proof's move 3 is illegal"},
		{"too short", a, 3, short, "after 1 2 the defender is not mated and no plies are left"},
		{"cycle", a, 3, escape, "after 1 2 0 the defender is not mated and no plies are left"},
		{"detour", twoDepths, 5, &retro.Proof[int, int]{Plies: 5, AttackerToMove: true, Moves: detour}, ""},
		{"detour one ply short", twoDepths, 5, &retro.Proof[int, int]{Plies: 4, AttackerToMove: true, Moves: detour},
			"after 1 3 4 2 the defender is not mated and no plies are left"},
		{"attacker without moves", stuck, -1, &retro.Proof[int, int]{Plies: 3, AttackerToMove: true, Moves: map[int]int{0: 1, 4: 4}},
			"after 1 3 the attacker has no legal move"},
		{"illegal mate", line, 3, &retro.Proof[int, int]{Plies: 3, AttackerToMove: true, Moves: map[int]int{0: 4}},
			"after the root the proof's move 4 is illegal"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := plainMinimalMate(c.a, 0, 9); got != c.mate {
				t.Fatalf("brute force: mate in %d, derived by hand %d", got, c.mate)
			}
			err := retro.CheckProof[int, int, int](c.a, 0, c.proof)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("the hand-made proof is rejected: %v", err)
			case c.want == "":
			case err == nil:
				t.Fatalf("accepted; want %q", c.want)
			case !strings.Contains(err.Error(), c.want):
				t.Fatalf("rejected with %q; want %q", err, c.want)
			}
		})
	}
}

// TestCheckDisproofRejects corrupts certificates by hand. Arena twoDepths: the attacker at
// 0 goes to the defender at 1 or straight to the defender at 3; from 1 the defender must go
// to the attacker at 2, which must go to 3. From the defender at 3 the line 3 → 4 → 5 → 6 →
// 7 is forced and ends with the defender at 7 without moves. So the defender at 3 is
// reached with two plies fewer by the long way (where its reply escapes: the mate lies
// past the bound) than by the short one; the short way mates in 5, the long one in 7.
// A certificate of no mate within 4 holds; the same replies for 5 must be rejected, which
// only the second visit of state 7 (vertex 3) shows.
func TestCheckDisproofRejects(t *testing.T) {
	a := arena{edges: [][]int{{1, 3}, {2}, {3}, {4}, {5}, {6}, {7}, {}}}
	if got := plainMinimalMate(a, 0, 9); got != 5 {
		t.Fatalf("brute force: mate in %d, derived by hand 5", got)
	}
	replies := func() map[int]int { return map[int]int{3: 2, 7: 4, 11: 6} } // by state: 2v + 1
	holed := replies()
	delete(holed, 7)
	illegal := replies()
	illegal[7] = 0 // vertex 3 has no edge to 0; the attacker at 0 would have 2 plies left, too few
	for _, c := range []struct {
		name string
		d    *retro.Disproof[int, int]
		want string // what the error must say; "" for a certificate that holds
	}{
		{"no mate within 4", &retro.Disproof[int, int]{Plies: 4, AttackerToMove: true, Replies: replies()}, ""},
		{"no mate within 5", &retro.Disproof[int, int]{Plies: 5, AttackerToMove: true, Replies: replies()}, "after 3 4 5 6 7 the defender is mated"},
		{"hole", &retro.Disproof[int, int]{Plies: 4, AttackerToMove: true, Replies: holed}, "after 3 the certificate has no defender reply (a hole)"},
		{"illegal escape", &retro.Disproof[int, int]{Plies: 4, AttackerToMove: true, Replies: illegal}, "after 3 the certificate's reply 0 is illegal"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := retro.CheckDisproof[int, int, int](a, 0, c.d)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("the hand-made certificate is rejected: %v", err)
			case c.want == "":
			case err == nil:
				t.Fatalf("accepted; want %q", c.want)
			case !strings.Contains(err.Error(), c.want):
				t.Fatalf("rejected with %q; want %q", err, c.want)
			}
		})
	}
}

// TestDisproofPlies: on TestCheckDisproofRejects' arena, the certificate of no mate within 4
// uses two entries, worked by hand: the defender at vertex 1 (state 3) is met once, with 3
// plies left (after 0 → 1); the defender at vertex 3 (state 7) with 3 plies (after 0 → 3) and
// with 1 (after 0 → 1 → 2 → 3), so 3 is its most; the defender at vertex 5 (state 11) is met
// only with 1 ply left, where no reply is needed, so its entry is not used.
func TestDisproofPlies(t *testing.T) {
	a := arena{edges: [][]int{{1, 3}, {2}, {3}, {4}, {5}, {6}, {7}, {}}}
	d := &retro.Disproof[int, int]{Plies: 4, AttackerToMove: true, Replies: map[int]int{3: 2, 7: 4, 11: 6}}
	got, err := retro.DisproofPlies[int, int, int](a, 0, d)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[int]int{3: 3, 7: 3}; !maps.Equal(got, want) {
		t.Fatalf("got %v, worked by hand %v", got, want)
	}
	delete(d.Replies, 7)
	if _, err := retro.DisproofPlies[int, int, int](a, 0, d); err == nil || !strings.Contains(err.Error(), "after 3 the certificate has no defender reply (a hole)") {
		t.Fatalf("without the entry of state 7: %v; want the hole after 3", err)
	}
}

// TestParallelAgrees runs df-pn with four workers on the random arenas (roomy and tiny
// tables) and compares it with the brute-force definition; run it with -race.
func TestParallelAgrees(t *testing.T) {
	const maxPlies = 9
	rng := rand.New(rand.NewPCG(5, 6))
	trials := 100
	if testing.Short() {
		trials = 20
	}
	for trial := range trials {
		a := randomArena(rng, 10)
		root := 2 * rng.IntN(10)
		want := plainMinimalMate(a, root, maxPlies)
		for _, budget := range []int{0, 8} {
			ms := retro.NewMateSearch[int, int, int](a, budget)
			ms.SetWorkers(4)
			got, found, err := ms.MinimalMate(root, true, maxPlies)
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				got = -1
			}
			if got != want {
				t.Fatalf("trial %d, budget %d: parallel df-pn says %d, brute force %d", trial, budget, got, want)
			}
			if found {
				proof, err := ms.Proof(root, true, got)
				if err != nil {
					t.Fatal(err)
				}
				if err := retro.CheckProof[int, int, int](a, root, proof); err != nil {
					t.Fatalf("trial %d: proof rejected: %v", trial, err)
				}
			}
		}
	}
}

// needed returns the defender states that certificate d must answer, found by a plain walk
// of every line from root (the attacker tries every move, the defender plays d's reply):
// those reached with a move to make and two or more plies left (with one, the attacker has
// no ply left to mate on). It remembers nothing, so it shares no shortcut with the checker.
func needed(a arena, root int, d *retro.Disproof[int, int]) map[int]bool {
	out := map[int]bool{}
	var walk func(s, plies int)
	walk = func(s, plies int) {
		moves := a.edges[s/2]
		switch {
		case len(moves) == 0 || plies <= 0:
			return
		case s%2 == 0: // the attacker
			for _, w := range moves {
				walk(a.Play(s, w), plies-1)
			}
		case plies >= 2:
			out[s] = true
			if w, ok := d.Replies[s]; ok {
				walk(a.Play(s, w), plies-1)
			}
		}
	}
	walk(root, d.Plies)
	return out
}

// TestDisproofAgrees reads disproof certificates off df-pn on random arenas for lengths the
// brute-force definition disproves and checks them. Then it removes each reply in turn: the
// checker must reject the certificate for a hole exactly when a plain walk of the lines
// (needed) reaches that position with plies to play, and accept it otherwise; and a needed
// reply replaced by one the brute force says is mated at once must be rejected.
func TestDisproofAgrees(t *testing.T) {
	const maxPlies = 7
	rng := rand.New(rand.NewPCG(7, 8))
	certs, corrupted, spare := 0, 0, 0
	for trial := range 200 {
		a := randomArena(rng, 8)
		root := 2*rng.IntN(8) + rng.IntN(2)
		attacker := root%2 == 0
		want := plainMinimalMate(a, root, maxPlies)
		lower := maxPlies
		if want >= 0 {
			lower = want - 1
		}
		if lower < 1 {
			continue
		}
		ms := retro.NewMateSearch[int, int, int](a, 0)
		if want >= 0 {
			if _, err := ms.Disproof(root, attacker, want, 0); err == nil || !strings.Contains(err.Error(), "the attacker forces mate within") {
				t.Fatalf("trial %d: a certificate of no mate within %d, but the brute force mates in %d: %v", trial, want, want, err)
			}
		}
		d, err := ms.Disproof(root, attacker, lower, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := retro.CheckDisproof[int, int, int](a, root, d); err != nil {
			t.Fatalf("trial %d: certificate of no mate within %d rejected: %v", trial, lower, err)
		}
		certs++
		need := needed(a, root, d)
		for s, w := range d.Replies {
			bad := *d
			bad.Replies = maps.Clone(d.Replies)
			delete(bad.Replies, s)
			err := retro.CheckDisproof[int, int, int](a, root, &bad)
			switch {
			case !need[s] && err != nil:
				t.Fatalf("trial %d: without the reply at state %d, which no line reaches with plies to play, the certificate is rejected: %v", trial, s, err)
			case !need[s]:
				spare++
				continue
			case err == nil || !strings.Contains(err.Error(), "(a hole)"):
				t.Fatalf("trial %d: without the reply at state %d the checker says %v; want a hole", trial, s, err)
			}
			corrupted++
			// A reply to a vertex from which the attacker mates at once (brute force).
			for _, v := range a.edges[s/2] {
				if v != w && plainMates(a, a.Play(s, v), 1) {
					bad.Replies[s] = v
					if err := retro.CheckDisproof[int, int, int](a, root, &bad); err == nil || !strings.Contains(err.Error(), "is mated") && !strings.Contains(err.Error(), "(a hole)") {
						t.Fatalf("trial %d: the reply %d at state %d is mated in 1; the checker says %v", trial, v, s, err)
					}
				}
			}
		}
	}
	t.Logf("%d certificates, %d needed replies removed, %d spare ones", certs, corrupted, spare)
	if certs < 50 || corrupted < 20 {
		t.Fatalf("only %d certificates and %d corruptions; the test needs more", certs, corrupted)
	}
}

// TestNodeLimitResumes stops df-pn on random arenas every 30 nodes (more than a descent to the deepest node takes) (SetNodeLimit) and
// raises the limit until it answers: since every stop keeps what the table decided, the
// search gets on, and its answer must be the brute force's; MateMove's move must keep the
// mate exactly one ply shorter.
func TestNodeLimitResumes(t *testing.T) {
	const maxPlies = 9
	rng := rand.New(rand.NewPCG(3, 4))
	stopped, mates := 0, 0
	for trial := range 200 {
		a := randomArena(rng, 8)
		root := 2 * rng.IntN(8) // the attacker to move
		want := plainMinimalMate(a, root, maxPlies)
		ms := retro.NewMateSearch[int, int, int](a, 0)
		var got int
		var found bool
		for step := int64(1); ; step++ {
			ms.SetNodeLimit(ms.Nodes() + 30)
			var err error
			got, found, err = ms.MinimalMate(root, true, maxPlies)
			if errors.Is(err, retro.ErrNodeLimit) {
				stopped++
				if step > 10000 {
					t.Fatalf("trial %d: no answer after %d stops", trial, step)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		if !found {
			got = -1
		}
		if got != want {
			t.Fatalf("trial %d: df-pn stopped every 30 nodes says %d, brute force %d", trial, got, want)
		}
		if !found || got == 0 {
			continue
		}
		mates++
		ms.SetNodeLimit(0)
		m, err := ms.MateMove(root, got)
		if err != nil {
			t.Fatal(err)
		}
		if d := plainMinimalMate(a, a.Play(root, m), maxPlies); d != got-1 {
			t.Fatalf("trial %d: after the mate move %d the mate takes %d plies, want %d", trial, m, d, got-1)
		}
	}
	if stopped == 0 || mates < 30 {
		t.Fatalf("%d stops and %d mates: the test needs more of both", stopped, mates)
	}
}

// TestClear: a search on a cleared table answers and counts its nodes exactly as the same
// search on a new table of the same size, on random arenas; the table is empty and the
// node count 0 after Clear.
func TestClear(t *testing.T) {
	const maxPlies, entries = 9, 1 << 12
	rng := rand.New(rand.NewPCG(5, 6))
	searched := 0
	for trial := range 100 {
		a := randomArena(rng, 10)
		root := 2 * rng.IntN(10)
		fresh := func() *retro.MateSearch[int, int, int] {
			ms := retro.NewMateSearch[int, int, int](a, entries)
			ms.Reserve(entries)
			return ms
		}
		solve := func(ms *retro.MateSearch[int, int, int]) (int, bool, int64) {
			plies, found, err := ms.MinimalMate(root, true, maxPlies)
			if err != nil {
				t.Fatal(err)
			}
			return plies, found, ms.Nodes()
		}
		ms := fresh()
		plies, found, nodes := solve(ms)
		ms.Clear()
		if ms.Nodes() != 0 || ms.TableSize() != 0 {
			t.Fatalf("trial %d: after Clear, %d nodes and %d table entries", trial, ms.Nodes(), ms.TableSize())
		}
		if ms.TableCapacity() != entries {
			t.Fatalf("trial %d: the table holds %d entries after Clear; want %d", trial, ms.TableCapacity(), entries)
		}
		p2, f2, n2 := solve(ms)
		p3, f3, n3 := solve(fresh())
		if p2 != plies || f2 != found || p3 != plies || f3 != found {
			t.Fatalf("trial %d: mate %d %v, after Clear %d %v, on a new table %d %v", trial, plies, found, p2, f2, p3, f3)
		}
		if n2 != nodes || n3 != nodes {
			t.Fatalf("trial %d: %d nodes, after Clear %d, on a new table %d", trial, nodes, n2, n3)
		}
		if nodes > 20 {
			searched++
		}
	}
	if searched < 20 {
		t.Fatalf("only %d searches of more than 20 nodes: the test needs more", searched)
	}
}
