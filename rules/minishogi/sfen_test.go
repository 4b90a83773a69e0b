package minishogi

import (
	"strings"
	"testing"
)

func TestParseSFENErrors(t *testing.T) {
	cases := []struct{ sfen, want string }{
		{"rbsgk/4p/5/P4 b - 1", "board has 4 ranks"},
		{"rbsgk/4p/6/P4/KGSBR b - 1", "rank 3 (c) has 6 files"},
		{"rbsgk/4p/4/P4/KGSBR b - 1", "rank 3 (c) has 4 files"},
		{"rbsgk/4p/5/P4/KGSBX b - 1", "unknown piece letter 'X'"},
		{"rbsg+k/4p/5/P4/KGSBR b - 1", "k cannot be promoted"},
		{"rbsgk/4p/5/P3+/KGSBR b - 1", "'+' is not followed by a piece"},
		{"rbsgk/4p/5/P4/KGSBR x - 1", "side to move \"x\" is not b or w"},
		{"rbsgk/4p/5/P4/KGSBR b - 0", "move number \"0\""},
		{"rbsgk/4p/5/P4/KGSBR b", "want 3 or 4 fields"},
		{"rbsgk/4p/5/P4/KGSBR b R 1", "3 pieces of kind R"},
		{"rbsgk/4p/5/P4/KGSBR b 3p 1", "gote holds 3 P, must be 1 to 2"},
		{"rbsgk/4p/5/P4/KGSBR b 0G 1", "sente holds 0 G"},
		{"rbsgk/4p/5/P4/KGSBR b K 1", "'K' is not a piece that can be held"},
		{"rbsgk/4p/5/P4/KGSBR b +P 1", "'+' is not a piece that can be held"},
		{"rbsgk/4p/5/P4/KGSBR b PP 1", "sente's P is listed twice"},
		{"rbsgk/4p/5/P4/KGSBR b 2 1", "end with a count and no piece"},
		{"rbsg1/4p/5/P4/KGSBR b - 1", "gote has 0 kings"},
		{"rbsgk/4p/5/P4/KGSBR b - 1 extra", "want 3 or 4 fields"},
		{"rbsgk/4p/5/P3K/KGSBR b - 1", "sente has 2 kings"},
		{"Pbsgk/4p/5/5/KGSBR b r 1", "sente pawn on 5a, its last rank"},
		{"rbsgk/5/5/P4/KGSBp w - 1", "gote pawn on 1e"},
		{"rbsgk/P4/5/P4/KGSB1 b r 1", "sente has two unpromoted pawns on file 5 (nifu)"},
		{"4k/4R/5/5/K4 b - 1", "gote, not to move, is in check"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			_, err := ParseSFEN(c.sfen)
			if err == nil {
				t.Fatalf("ParseSFEN(%q) succeeded, want error containing %q", c.sfen, c.want)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "minishogi: sfen: ") {
				t.Errorf("ParseSFEN(%q) = %q, want it to contain %q", c.sfen, err, c.want)
			}
		})
	}
}

func TestParseSFENAccepts(t *testing.T) {
	for _, sfen := range []string{
		StartSFEN,
		"4k/5/5/P4/KGSBR w - 1",
		"+r1+bk1/5/2+P2/1+S3/1K3 w Gg 12", // promoted pieces, hands of both sides
		"2k2/5/2P2/5/2K2 b RBGSrbgs 1",    // most pieces in hand
		"rbsgk/4p/5/P4/KGSBR b - 1",       // the move number survives
		"rbsgk/4+p/5/+P4/KGSBR b - 1",     // promoted pawns are not nifu, not unmovable
		"4k/5/5/5/K4 b 2R2B2G2S2P 1",      // every piece in Sente's hand
	} {
		t.Run(sfen, func(t *testing.T) {
			p, err := ParseSFEN(sfen)
			if err != nil {
				t.Errorf("ParseSFEN(%q): %v", sfen, err)
				return
			}
			if got := p.SFEN(); got != sfen {
				t.Errorf("SFEN() = %q, want %q", got, sfen)
			}
		})
	}
}

// FuzzParseSFEN checks that the parser never panics and that whatever it accepts formats back
// to a string it parses to the same position.
func FuzzParseSFEN(f *testing.F) {
	for _, s := range []string{StartSFEN, "4k/5/5/P4/KGSBR w - 1", "+r1+bk1/5/2+P2/1+S3/1K3 w Gg 12", "2k2/5/2P2/5/2K2 b 2Pg 1", "rbsgk/4p/6/P4/KGSBR b - 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseSFEN(s)
		if err != nil {
			return
		}
		q, err := ParseSFEN(p.SFEN())
		if err != nil {
			t.Fatalf("%q parsed, but its SFEN %q does not: %v", s, p.SFEN(), err)
		}
		if q != p {
			t.Fatalf("%q: round trip changed the position to %q", s, q.SFEN())
		}
		var ml MoveList
		p.GenerateLegal(&ml) // must not panic on any accepted position
	})
}

func TestParseMove(t *testing.T) {
	start := StartPosition()
	promo, _ := ParseSFEN("k4/2P2/5/5/4K b - 1")
	drops, _ := ParseSFEN("k4/5/2p2/5/P3K b Pb 1")
	cases := []struct {
		pos  Position
		move string
		want string // "" for legal
	}{
		{start, "2e3d", ""},
		{start, "5d5c", ""},
		{start, "5d5c+", "this piece may not promote"},
		{start, "3c3b", "no piece on 3c"},
		{start, "1a1b", "not sente's"},
		{start, "2e2a", "cannot reach 2a"},
		{start, "4e5e", "occupied by sente's own piece"},
		{start, "P*3c", "sente has no P in hand"},
		{start, "K*3c", "a drop is a piece letter"},
		{start, "3c3c", "not USI notation"},
		{start, "6a3c", "not USI notation"},
		{start, "", "not USI notation"},
		{promo, "3b3a", "must promote"},
		{promo, "3b3a+", ""},
		{drops, "P*4a", "may not be dropped on the last rank"},
		{drops, "P*5c", "nifu"},
		{drops, "P*3c", "square is occupied"},
		{drops, "P*4c", ""},
		{drops, "B*4c", "no B in hand"},
	}
	for _, c := range cases {
		t.Run(c.pos.SFEN()+" "+c.move, func(t *testing.T) {
			_, err := c.pos.ParseMove(c.move)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("ParseMove(%q): %v", c.move, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("ParseMove(%q) = %v, want error containing %q", c.move, err, c.want)
			}
		})
	}
}

// FuzzParseMove checks that move parsing never panics and that an accepted move formats back
// to the same text.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"2e3d", "5d5c+", "P*3c", "K*3c", "1a1a", "9z9z+"} {
		f.Add(s)
	}
	start := StartPosition()
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMoveSyntax(s)
		if err != nil {
			return
		}
		if m.String() != s {
			t.Fatalf("ParseMoveSyntax(%q).String() = %q", s, m.String())
		}
		if m, err := start.ParseMove(s); err == nil && m.String() != s {
			t.Fatalf("ParseMove(%q).String() = %q", s, m.String())
		}
	})
}
