package solver

import (
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// plainGame is moveGame without its knowledge and hand split: df-pn over it keys every
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
	g := moveGame{}
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

func split(g moveGame, p minishogi.Position) (minishogi.Code, retro.Hand, uint64) {
	b, h, hand := g.Split(p, p.SideToMove() == minishogi.Sente)
	return b, hand, h
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
		p := roots[trial%len(roots)]
		for range rng.IntN(6) {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			p.MakeMove(moves[rng.IntN(len(moves))])
		}
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
			{"hand superiority", retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveGame{}, 0)},
			{"hand superiority, 16 entries", retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveGame{}, 16)},
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
