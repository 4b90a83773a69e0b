package solver

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// plainGame is moveRules without its knowledge and hand split: df-pn over it keys every
// position by its exact code, with no hand superiority.
type plainGame struct{}

func (plainGame) Code(p minishogi.Position) minishogi.Code { return p.Code() }
func (plainGame) Moves(p minishogi.Position, dst []minishogi.Move) []minishogi.Move {
	return p.LegalMoves(dst)
}
func (plainGame) Play(p minishogi.Position, m minishogi.Move) minishogi.Position {
	p.MakeMove(m)
	return p
}

// TestSplitByHand checks the board split on hand-made pairs: the same board with the pieces
// in hand moved between the players has one board and hands that Covers orders by the
// attacker's advantage (Sente attacks).
func TestSplitByHand(t *testing.T) {
	more := mustSFEN(t, "4k/5/4G/5/K4 b GS 1") // Sente holds gold and silver
	less := mustSFEN(t, "4k/5/4G/5/K4 b Gs 1") // the silver is Gote's
	none := mustSFEN(t, "4k/5/4G/5/K4 b gs 1") // both are Gote's
	other := mustSFEN(t, "3k1/5/4G/5/K4 b GS 1")
	g := moveRules{}
	bm, hm, hashM := split(g, more)
	bl, hl, hashL := split(g, less)
	bn, hn, _ := split(g, none)
	bo, _, _ := split(g, other)
	if bm != bl || bl != bn || hashM != hashL {
		t.Fatalf("one board, three codes: %x %x %x", bm, bl, bn)
	}
	if bo == bm {
		t.Fatal("a king on another square gives the same board")
	}
	if !hm.Covers(hl) || !hl.Covers(hn) || !hm.Covers(hn) {
		t.Fatal("more in the attacker's hand does not cover less")
	}
	if hl.Covers(hm) || hn.Covers(hl) {
		t.Fatal("less in the attacker's hand covers more")
	}
	if hm == hl || hl == hn {
		t.Fatal("different hands pack alike")
	}
}

func split(g moveRules, p minishogi.Position) (minishogi.Code, retro.Hand, uint64) {
	b, h, hand := g.Split(p, p.SideToMove() == minishogi.Sente)
	return b, hand, h
}

// randomPlay plays up to five random legal moves from p (fewer where the game ends): the
// positions near the small mates and the handicaps that the random comparisons search.
func randomPlay(p minishogi.Position, rng *rand.Rand) minishogi.Position {
	for range rng.IntN(6) {
		moves := p.LegalMoves(nil)
		if len(moves) == 0 {
			break
		}
		p.MakeMove(moves[rng.IntN(len(moves))])
	}
	return p
}

// TestSuperiorityAgreesWithPlainSearch compares, on positions reached by random play from
// the small mates and the handicaps, the minimal mate of df-pn with hand and depth
// superiority (and a tiny table that forgets, so superiority meets partly searched graphs),
// df-pn over plain codes, and the brute-force definition.
func TestSuperiorityAgreesWithPlainSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var roots []minishogi.Position
	for _, c := range smallMates {
		roots = append(roots, mustSFEN(t, c.sfen))
	}
	for _, name := range []string{"bare-king", "four-piece"} {
		p, _ := minishogi.Handicap(name)
		roots = append(roots, p)
	}
	trials := 60
	if testing.Short() {
		trials = 20
	}
	mates := 0
	for trial := range trials {
		p := randomPlay(roots[trial%len(roots)], rng)
		attacker := minishogi.Sente
		const maxPlies = 5
		want := plainMinimalMate(p, attacker, maxPlies)
		att := p.SideToMove() == attacker
		for _, s := range []struct {
			name string
			ms   interface {
				MinimalMate(minishogi.Position, bool, int) (int, bool, error)
			}
		}{
			{"hand superiority", retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, 0)},
			{"hand superiority, 16 entries", retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, 16)},
			{"plain", retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](plainGame{}, 0)},
		} {
			got, found, err := s.ms.MinimalMate(p, att, maxPlies)
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				got = -1
			}
			if got != want {
				t.Fatalf("%s: %s: df-pn says %d, brute force %d", p.SFEN(), s.name, got, want)
			}
		}
		if want >= 0 {
			mates++
		}
	}
	if mates < trials/5 {
		t.Fatalf("only %d mates among %d trials; the test needs more", mates, trials)
	}
}

// TestParallelFourPiece solves the four-piece handicap (mate in 10: the shipped proof's
// length, and the bounded retrograde method's, see datasets/README.md) with two workers; run
// it with -race. The proof must check and the shorter length must be disproved.
func TestParallelFourPiece(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 10, Workers: 2, MemoryBudget: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Found || d.Plies != 10 || !d.Minimal || d.Lower != 8 {
		t.Fatalf("mate %v in %d (minimal %v), no mate within %d", d.Found, d.Plies, d.Minimal, d.Lower)
	}
	if err := CheckProof(root, d.Proof); err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		return
	}
	r := SolveRetro(root, minishogi.Sente, RetroOptions{MaxPlies: 9})
	if r.Found {
		t.Fatalf("the retrograde method finds a mate in %d within 9 plies", r.Plies)
	}
}

// TestUpperOnly proves one length without deepening: the four-piece mates within 10 plies
// and not within 8 (the retrograde method above); a proved mate claims no minimality, and a
// disproved length is a lower bound.
func TestUpperOnly(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	for _, c := range []struct {
		plies int
		found bool
	}{{10, true}, {12, true}, {8, false}} {
		t.Run(fmt.Sprintf("%d-plies", c.plies), func(t *testing.T) {
			d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: c.plies, Upper: true})
			if err != nil {
				t.Fatal(err)
			}
			lower := -1
			if !c.found {
				lower = c.plies
			}
			if d.Found != c.found || d.Minimal || d.Lower != lower {
				t.Fatalf("within %d: found %v, minimal %v, lower %d", c.plies, d.Found, d.Minimal, d.Lower)
			}
			if d.Found {
				if d.Proof.Plies != c.plies {
					t.Fatalf("the proof is for %d plies", d.Proof.Plies)
				}
				if err := CheckProof(root, d.Proof); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
