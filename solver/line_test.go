package solver

import (
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/minishogi"
)

func kinds(lc *LineCheck) []string {
	var k []string
	for _, r := range lc.Refutations {
		k = append(k, r.Kind)
	}
	return k
}

func TestCheckLineHandDerived(t *testing.T) {
	// Gote's king on 1a can only go to 2a (the gold on 1c covers 1b and 2b).
	root := mustSFEN(t, "4k/5/4G/5/K4 b G 1")
	for _, c := range []struct {
		line      string
		ok        bool
		wantKinds []string
	}{
		{"G*1b", true, nil},
		// A legal mate in 3, but G*1b mates at once.
		{"5e5d 1a2a G*2b", false, []string{"shorter-mate"}},
		// 1c1b is no drop: the line's second move is illegal.
		{"G*2b 1a2b", false, []string{"illegal"}},
		// Legal, but Gote is not mated at the end (and a mate in 1 was there).
		{"5e5d 1a2a", false, []string{"not-mate", "shorter-mate"}},
	} {
		t.Run(c.line, func(t *testing.T) {
			lc, err := CheckLine(root, minishogi.Sente, strings.Fields(c.line), 0)
			if err != nil {
				t.Fatal(err)
			}
			got := kinds(lc)
			if lc.OK() != c.ok || !slices.Equal(got, c.wantKinds) {
				t.Errorf("%q: ok %v, refutations %v; want ok %v, %v", c.line, lc.OK(), lc.Refutations, c.ok, c.wantKinds)
			}
		})
	}
	// The refutation shows a mate in 1 (G*1b, or a drop that stalemates, such as G*3a).
	lc, _ := CheckLine(root, minishogi.Sente, strings.Fields("5e5d 1a2a G*2b"), 0)
	r := lc.Refutations[0]
	if r.Ply != 0 || len(r.Moves) != 1 {
		t.Fatalf("refutation %+v, want one mating move at ply 0", r)
	}
	p := root
	m, err := p.ParseMove(r.Moves[0])
	if err != nil {
		t.Fatal(err)
	}
	p.MakeMove(m)
	if !plainMates(p, minishogi.Sente, 0) {
		t.Errorf("the refutation's %s does not mate", m)
	}
}

// TestCheckLineDefences builds bare-king lines in which Gote's second move is each of its
// legal moves followed by a fastest mate, and checks every verdict against brute force: a
// defence is refuted exactly when another defence survives longer.
func TestCheckLineDefences(t *testing.T) {
	root, _ := minishogi.Handicap("bare-king")
	prefix := []string{"1a2a", "5e4d"}
	p := root
	for _, s := range prefix {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m)
	}
	longest := -1
	lengths := map[minishogi.Move]int{}
	for _, m := range p.LegalMoves(nil) {
		c := p
		c.MakeMove(m)
		n := plainMinimalMate(c, minishogi.Sente, 5)
		lengths[m] = n
		longest = max(longest, n)
	}
	if longest != 5 {
		t.Fatalf("brute force: Gote's longest defence after %v is mated in %d, want 5 (the mate in 8)", prefix, longest)
	}
	refuted := 0
	for m, n := range lengths {
		if n < 0 {
			t.Fatalf("brute force: %v %v escapes, but the bare king is mated in 8", prefix, m)
		}
		c := p
		c.MakeMove(m)
		d, err := SolveDFPN(c, minishogi.Sente, DFPNOptions{MaxPlies: 5})
		if err != nil || !d.Found || d.Plies != n {
			t.Fatalf("df-pn after %v %v: %v, %+v; brute force says %d", prefix, m, err, d, n)
		}
		line := append(append(append([]string{}, prefix...), m.String()), usi(d.PV)...)
		lc, err := CheckLine(root, minishogi.Sente, line, 0)
		if err != nil {
			t.Fatal(err)
		}
		if n == longest {
			if !lc.OK() {
				t.Errorf("%v: a longest defence is refuted: %+v", line, lc.Refutations)
			}
			continue
		}
		refuted++
		found := false
		for _, r := range lc.Refutations {
			if r.Ply == 2 && (r.Kind == "longer-defence" || r.Kind == "escape") {
				found = true
				alt, _ := p.ParseMove(r.Moves[0])
				if lengths[alt] <= n {
					t.Errorf("%v: refuted by %s, which brute force mates in %d, not more than %d", line, r.Moves[0], lengths[alt], n)
				}
			}
		}
		if !found {
			t.Errorf("%v: the short defence (mate in %d of %d) is not refuted: %+v", line, n, longest, lc.Refutations)
		}
	}
	if refuted == 0 {
		t.Fatal("no short defence to refute; the test checks nothing")
	}
}
