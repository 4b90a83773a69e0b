package synthetic

import (
	"bytes"
	"testing"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestWrite checks that the records are valid, legal, reproducible from the
// seed and numbered 0..n-1, and that no player meets itself.
func TestWrite(t *testing.T) {
	var a, b bytes.Buffer
	if err := Write(&a, 300, 3); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, 300, 3); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two writes with one seed differ")
	}
	for i, line := range bytes.Split(bytes.TrimSuffix(a.Bytes(), []byte("\n")), []byte("\n")) {
		g, err := record.ParseLine(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if g.ID != i || g.Players.Sente.Name == g.Players.Gote.Name {
			t.Errorf("game %d: id %d, %s v %s", i, g.ID, g.Players.Sente.Name, g.Players.Gote.Name)
		}
		// Replay: every move legal, and the game over exactly at its end as recorded.
		game := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{MaxPlies: MaxPlies})
		for _, m := range g.Moves {
			if err := game.PlayUSI(m); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
		}
		if r := game.Result(); r.String() != string(g.Result) || r.Termination.String() != string(g.Termination) {
			t.Errorf("game %d: replay ends %v %v; record says %s %s", i, r, r.Termination, g.Result, g.Termination)
		}
	}
}
