package solver

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// plainMates is the definition of a bounded forced mate, evaluated by brute force with the
// rules engine's move generator and nothing else: the attacker mates within plies plies.
func plainMates(p minishogi.Position, attacker minishogi.Color, plies int) bool {
	var ml minishogi.MoveList
	p.GenerateLegal(&ml)
	attacking := p.SideToMove() == attacker
	if ml.N == 0 {
		return !attacking
	}
	if plies == 0 {
		return false
	}
	for _, m := range ml.Slice() {
		u := p.MakeMove(m)
		r := plainMates(p, attacker, plies-1)
		p.UnmakeMove(m, u)
		if r == attacking {
			return attacking
		}
	}
	return !attacking
}

func plainMinimalMate(p minishogi.Position, attacker minishogi.Color, maxPlies int) int {
	for n := range maxPlies + 1 {
		if plainMates(p, attacker, n) {
			return n
		}
	}
	return -1
}

func mustSFEN(t testing.TB, s string) minishogi.Position {
	t.Helper()
	p, err := minishogi.ParseSFEN(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// smallMates are positions with known minimal mates. The mates in 1 are derived by hand in
// the comments; the longer ones are confirmed by the brute-force definition above.
var smallMates = []struct {
	name, sfen string
	attacker   minishogi.Color
	want       int // -1: none within maxPlies
	maxPlies   int
}{
	// Gote's king on 1a, Sente's gold on 1c. G*1b checks; the king cannot take (1c guards
	// 1b) and 2a, 2b are covered by the new gold: mate in 1 by a drop.
	{"gold drop mate", "4k/5/4G/5/K4 b G 1", minishogi.Sente, 1, 3},
	// Bishop 4c covers 2a, gold 2c covers 2b and guards 1b, so P*1b would mate: that is
	// uchifuzume, illegal. No other move mates at once (2c2b and 2c1b are taken by the king,
	// a bishop check on 2a is taken too). Gote's pawn on 5b keeps Gote from being
	// stalemated; the mate takes 3 plies (5e5d, and after the forced 5b5c, 5d5c leaves Gote's
	// king without moves: a stalemate, which loses).
	{"pawn drop mate is illegal", "4k/p4/1B1G1/5/K4 b P 1", minishogi.Sente, 3, 3},
	// The same with a gold in hand: G*1b is a legal drop mate.
	{"gold instead of pawn", "4k/p4/1B1G1/5/K4 b G 1", minishogi.Sente, 1, 3},
	// A pawn *move* that mates is legal: 1c1b with the same guards.
	{"pawn move mate", "4k/p4/1B1GP/5/K4 b - 1", minishogi.Sente, 1, 3},
	// Without Gote's pawn, any quiet move stalemates Gote at once: a mate in 1.
	{"stalemate loses", "4k/5/1B1G1/5/K4 b P 1", minishogi.Sente, 1, 3},
	// S*2c (covers 1b, 2b, 3b), the king must go to 2a, G*2b mates (guarded by the silver).
	{"drop mate in 3", "4k/5/5/5/K4 b GS 1", minishogi.Sente, 3, 5},
	// Gote attacks: G*2c leaves Sente's king only 2e, then G*2d mates (guarded by 2c).
	{"gote attacks", "k4/5/5/5/4K w 2g 1", minishogi.Gote, 3, 5},
	// Two silvers: mate in 5 (confirmed by brute force; no mate in 3).
	{"drop mate in 5", "2k2/5/5/5/K4 b 2S 1", minishogi.Sente, 5, 5},
	// King and gold against a cornered king: mate in 5, the last move a stalemate.
	{"stalemate in 5", "k4/5/5/3K1/5 b G 1", minishogi.Sente, 5, 5},
	// A rook alone cannot mate within 5 plies.
	{"no mate", "2k2/5/5/5/K4 b R 1", minishogi.Sente, -1, 5},
	// Gote to move first, as in the handicaps: the king's only move is 1a2a (1b and 2b are
	// covered by the gold on 1c), then G*2b, guarded by 1c, mates.
	{"defender first", "4k/5/4G/5/K4 w G 1", minishogi.Sente, 2, 4},
}

func TestSmallMates(t *testing.T) {
	for _, c := range smallMates {
		t.Run(c.name, func(t *testing.T) {
			root := mustSFEN(t, c.sfen)
			if got := plainMinimalMate(root, c.attacker, c.maxPlies); got != c.want {
				t.Fatalf("brute force: mate in %d, the table says %d", got, c.want)
			}
			d, err := SolveDFPN(root, c.attacker, DFPNOptions{MaxPlies: c.maxPlies})
			if err != nil {
				t.Fatal(err)
			}
			r := SolveRetro(root, c.attacker, RetroOptions{MaxPlies: c.maxPlies})
			for name, m := range map[string]Mate{"df-pn": d.Mate, "retrograde": r.Mate} {
				got := -1
				if m.Found {
					got = m.Plies
					if len(m.PV) != got {
						t.Errorf("%s: pv %v for a mate in %d", name, m.PV, got)
					}
				}
				if got != c.want {
					t.Errorf("%s: mate in %d, want %d", name, got, c.want)
				}
			}
			if d.Found {
				if err := CheckProof(root, d.Proof); err != nil {
					t.Errorf("proof rejected: %v", err)
				}
			}
		})
	}
}

// The bare-king handicap: Fairy-Stockfish's search reports a mate in 8 plies. Both methods
// must find exactly 8, the brute-force definition must find no mate within 6 (so 8 is
// minimal: mates from a defender-to-move root have even length), and the proof must check.
func TestBareKing(t *testing.T) {
	root, err := minishogi.Handicap("bare-king")
	if err != nil {
		t.Fatal(err)
	}
	d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 12})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Found || d.Plies != 8 {
		t.Fatalf("df-pn: found %v, %d plies; want a mate in 8", d.Found, d.Plies)
	}
	if err := CheckProof(root, d.Proof); err != nil {
		t.Fatalf("proof rejected: %v", err)
	}
	// The full 8-ply graph holds the whole mate tree, so its root label is exact.
	gr := retro.Enumerate[minishogi.Code, minishogi.Code](codeRules{}, []minishogi.Code{root.Code()}, retro.Options{MaxPly: 8})
	if got, ok := gr.SolveMate(false, nil).Mated(0); !ok || got != 8 {
		t.Fatalf("retrograde over 8 plies: mate %v in %d, want 8", ok, got)
	}
	// docs/rules.md#perft: perft of the bare-king start is 2, 32, 112, ...; the first layers of distinct
	// positions must match while no transposition is possible yet.
	if l := gr.Layers(); l[0] != 1 || l[1] != 2 || l[2] != 32 {
		t.Errorf("layers %v, want 1, 2, 32 first", l)
	}
	if testing.Short() {
		return
	}
	if plainMates(root, minishogi.Sente, 6) {
		t.Fatal("brute force finds a mate within 6 plies")
	}
}

func TestProofFileRoundTripAndCorruption(t *testing.T) {
	root, _ := minishogi.Handicap("bare-king")
	d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 8})
	if err != nil || !d.Found {
		t.Fatalf("no mate: %v", err)
	}
	var buf bytes.Buffer
	if err := WriteProof(&buf, root, minishogi.Sente, d.Proof); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	read := func(text string) (minishogi.Position, *Proof) {
		t.Helper()
		r, side, p, err := ReadProof(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if side != minishogi.Sente {
			t.Fatalf("attacker %v", side)
		}
		return r, p
	}
	r, p := read(text)
	if err := CheckProof(r, p); err != nil {
		t.Fatalf("the written proof fails: %v", err)
	}
	// The root is Gote to move; the first Sente position of the proof is after Gote's king
	// move. Corrupt entries by hand.
	lines := strings.Split(strings.TrimSpace(text), "\n")
	header, entries := lines[:5], lines[5:]
	rebuild := func(entries []string) string {
		h := append([]string{}, header...)
		h[4] = "entries " + itoa(len(entries))
		return strings.Join(append(h, entries...), "\n") + "\n"
	}
	// 1. A missing defence: drop one entry; some defence then reaches a position with no
	// attacker move.
	missing := append(append([]string{}, entries[:len(entries)/2]...), entries[len(entries)/2+1:]...)
	// 2. An illegal move: the first entry's move replaced by a drop Sente has no piece for.
	illegal := append([]string{}, entries...)
	f := strings.Fields(illegal[0])
	illegal[0] = strings.Join(append(f[:3], "G*3c"), " ")
	for _, c := range []struct{ name, text, want string }{
		{"missing", rebuild(missing), "the proof has no attacker move (a hole)"},
		{"illegal", rebuild(illegal), "the proof's move G*3c is illegal"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, p := read(c.text)
			if err := CheckProof(r, p); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v; want %q", c.name, err, c.want)
			}
		})
	}
	for _, c := range []struct{ text, want string }{
		{"not a proof\n", `proof line 1: got "not a proof", want "shogilab-mate-proof 1"`},
		{strings.Replace(text, "plies 8", "plies x", 1), `plies "x" is not a count`},
		{strings.Replace(text, "entries", "entires", 1), `proof line 5: got "entires", want the "entries" header`},
		{strings.Replace(text, "attacker b", "attacker x", 1), `attacker: solver: side "x" is not b or w`},
		{rebuild(append(entries[:len(entries):len(entries)], "4k/5/5/P4/KGSBR b - 1e1a+ extra")), "got 5 fields, want 4"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if _, _, _, err := ReadProof(strings.NewReader(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadProof of %q: %v; want %q", c.text[:min(len(c.text), 60)], err, c.want)
			}
		})
	}
	// The format sorts the lines by position (WriteProof), so that a proof's file does
	// not depend on the order of a map.
	if !slices.IsSorted(entries) {
		t.Errorf("the written proof's lines are not sorted:\n%s", strings.Join(entries, "\n"))
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// A time limit stops df-pn with the longest length it has disproved, which must hold up when
// decided again without a limit. The two-piece handicap is not solved within 31 plies in
// seconds, so the search always stops; a machine too busy to decide even one length in the
// first limit gets longer ones.
func TestTimeLimit(t *testing.T) {
	root, _ := minishogi.Handicap("two-piece")
	var d *DFPN
	for _, limit := range []time.Duration{300 * time.Millisecond, time.Second, 4 * time.Second} {
		var err error
		d, err = SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 31, TimeLimit: limit})
		if err != nil {
			t.Fatal(err)
		}
		if !d.Stopped || d.Found || d.MaxPlies >= 31 {
			t.Fatalf("limit %v: got %+v, want a stopped search with a bound below 31", limit, d.Mate)
		}
		if d.MaxPlies >= 0 {
			break
		}
	}
	if d.MaxPlies < 0 {
		t.Skip("the machine was too busy to decide even 0 plies in 4 s")
	}
	again, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MinPlies: d.MaxPlies, MaxPlies: d.MaxPlies, NoProof: true})
	if err != nil || again.Found {
		t.Fatalf("no mate within %d plies was reported, but a search without limit says %+v (%v)", d.MaxPlies, again.Mate, err)
	}
}

// TestLayersByBruteForce counts the positions first reached at each ply from the bare-king
// start with a plain breadth-first search over SFENs without their move numbers, apart from
// retro's enumeration: the layers ExampleSolveRetro prints. The first ones are perft's
// (docs/rules.md#perft: 2, then 32), before any transposition can occur.
func TestLayersByBruteForce(t *testing.T) {
	root, err := minishogi.Handicap("bare-king")
	if err != nil {
		t.Fatal(err)
	}
	key := func(p minishogi.Position) string {
		f := strings.Fields(p.SFEN())
		return strings.Join(f[:3], " ")
	}
	seen := map[string]bool{key(root): true}
	layer := []minishogi.Position{root}
	counts := []int{1}
	for ply := 1; ply <= 6; ply++ {
		var next []minishogi.Position
		for _, p := range layer {
			if len(p.LegalMoves(nil)) == 0 {
				continue // mated: the search stops there
			}
			for _, m := range p.LegalMoves(nil) {
				c := p
				c.MakeMove(m)
				if k := key(c); !seen[k] {
					seen[k] = true
					next = append(next, c)
				}
			}
		}
		counts = append(counts, len(next))
		layer = next
	}
	r := SolveRetro(root, minishogi.Sente, RetroOptions{MaxPlies: 6})
	if !slices.Equal(counts, r.Layers) || counts[1] != 2 || counts[2] != 32 {
		t.Errorf("breadth-first layers %v; the retrograde graph's %v", counts, r.Layers)
	}
}

func TestBytesPerTableEntry(t *testing.T) {
	ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, 1)
	if got := ms.EntryBytes(); got != BytesPerTableEntry {
		t.Fatalf("a table entry takes %d bytes, BytesPerTableEntry says %d", got, BytesPerTableEntry)
	}
}
