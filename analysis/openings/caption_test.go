package openings

import (
	"strings"
	"testing"
)

// TestCaptions: the captions of the small games state the first moves counted by hand in
// ../testdata/README.md (2e3d 3 games, 2 won by Sente and 1 by Gote: score 0.67; 3e2d 2
// games, 1 won and 1 drawn: 0.75; 5d5c 2 games lost: 0.00) and, at depth 4, that two
// distinct lines were played twice (2e3d 4a3b 3e2d 3a4b, 3e2d 4a3b 2e3d 1a2b: each once).
func TestCaptions(t *testing.T) {
	tree := buildTree(t, 4, small)
	var first []Line
	for _, l := range tree.Lines(1) {
		if len(l.Moves) == 1 {
			first = append(first, l)
		}
	}
	c := FirstMovesCaption(first, "the normal start", "the small games")
	for _, want := range []string{"after each first move from the normal start", "in the small games.", "2e3d 3 games, score 0.67 [",
		"3e2d 2 games, score 0.75 [", "5d5c 2 games, score 0.00 ["} {
		if !strings.Contains(c, want) {
			t.Errorf("first-moves caption lacks %q:\n%s", want, c)
		}
	}
	lines := tree.Lines(1)
	top := TopLines(lines, 3)
	c = TopLinesCaption(top, lines, "the normal start", "the small games")
	if !strings.HasPrefix(c, "The 2 most played 4-ply lines from the normal start") || !strings.Contains(c, "2 distinct 4-ply lines were played") {
		t.Errorf("top-lines caption:\n%s", c)
	}
}
