package minishogi

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// sfenWithoutMoveNumber is the independent description of a position that codes must match:
// two positions are the same exactly when these strings are equal.
func sfenWithoutMoveNumber(p *Position) string {
	f := strings.Fields(p.SFEN())
	return strings.Join(f[:3], " ")
}

// walkPositions returns the positions of random games from the start and every handicap.
func walkPositions(t *testing.T, games, plies int) []Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 2026))
	starts := []Position{StartPosition()}
	for _, name := range HandicapNames() {
		p, err := Handicap(name)
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, p)
	}
	var out []Position
	var ml MoveList
	for g := range games {
		p := starts[g%len(starts)]
		for range plies {
			out = append(out, p)
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.N)])
		}
	}
	return out
}

func TestCodeRoundTrip(t *testing.T) {
	for _, p := range walkPositions(t, 300, 120) {
		code := p.Code()
		q, err := code.Decode()
		if err != nil {
			t.Fatalf("%s: %v", p.SFEN(), err)
		}
		if got, want := sfenWithoutMoveNumber(&q), sfenWithoutMoveNumber(&p); got != want {
			t.Fatalf("decode(code(%s)) = %s", want, got)
		}
		if q.Hash() != p.Hash() {
			t.Fatalf("%s: decoded hash %x, want %x", p.SFEN(), q.Hash(), p.Hash())
		}
		if q.Code() != code {
			t.Fatalf("%s: code changed on round trip", p.SFEN())
		}
	}
}

func TestCodeDistinct(t *testing.T) {
	byCode := map[Code]string{}
	bySFEN := map[string]Code{}
	for _, p := range walkPositions(t, 300, 120) {
		s, c := sfenWithoutMoveNumber(&p), p.Code()
		if other, ok := byCode[c]; ok && other != s {
			t.Fatalf("positions %s and %s share a code", s, other)
		}
		if other, ok := bySFEN[s]; ok && other != c {
			t.Fatalf("position %s has two codes", s)
		}
		byCode[c], bySFEN[s] = s, c
	}
	if len(byCode) < 10000 {
		t.Fatalf("only %d distinct positions walked; the test needs many", len(byCode))
	}
}

func TestCodeRejectsBadCodes(t *testing.T) {
	start := StartPosition()
	good := start.Code()
	for name, c := range map[string]Code{
		"stray bit":          {good[0], good[1] | 1<<40},
		"location 27":        {good[0]&^127 | 27<<2, good[1]},
		"promoted king":      {good[0] | 2, good[1]},
		"two on a square":    {good[0]&^(127<<7) | good[0]&127, good[1]},
		"slots out of order": {good[0]&^127 | 26<<2, good[1]},
	} {
		if _, err := c.Decode(); err == nil {
			t.Errorf("%s: Decode accepted %x", name, c)
		}
	}
}

func BenchmarkCode(b *testing.B) {
	p, _ := ParseSFEN(benchPositions[1].sfen)
	for b.Loop() {
		c := p.Code()
		if _, err := c.Decode(); err != nil {
			b.Fatal(err)
		}
	}
}
