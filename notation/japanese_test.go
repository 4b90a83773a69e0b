package notation

import (
	"testing"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestJapaneseMove checks moves written by hand from the usual KIF conventions (file digit
// full-width, rank in kanji, the origin in brackets as file and rank digits).
func TestJapaneseMove(t *testing.T) {
	for _, c := range []struct {
		name, sfen, move string
		lastTo           minishogi.Square
		want             string
	}{
		{"a silver steps", minishogi.StartSFEN, "3e2d", minishogi.NoSquare, "２四銀(35)"},
		{"a rook takes where the last move went", "4k/4g/5/5/K3R b - 1", "1e1b", minishogi.NewSquare(1, 1), "同　飛(15)"},
		{"a drop", "4k/5/5/5/K4 b P 1", "P*3c", minishogi.NoSquare, "３三歩打"},
		{"a bishop promotes", "4k/5/5/5/K3B b - 1", "1e5a+", minishogi.NoSquare, "５一角成(15)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pos, err := minishogi.ParseSFEN(c.sfen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := pos.ParseMove(c.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := JapaneseMove(&pos, m, c.lastTo); got != c.want {
				t.Errorf("JapaneseMove(%s) = %s, want %s", c.move, got, c.want)
			}
		})
	}
}
