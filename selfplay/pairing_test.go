package selfplay

import (
	"context"
	"fmt"
	"testing"

	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// TestSideSeedsDiffer: the two players of a game draw from different seeds
// (architecture.md#seeds), and no side of one game shares a seed with a side of another.
func TestSideSeedsDiffer(t *testing.T) {
	seen := map[uint64]string{}
	for id := range 1000 {
		game := GameSeed(7, id)
		for _, c := range []minishogi.Color{minishogi.Sente, minishogi.Gote} {
			s := SideSeed(game, c)
			if prev, dup := seen[s]; dup {
				t.Fatalf("game %d, %v: the seed of %s", id, c, prev)
			}
			seen[s] = fmt.Sprintf("game %d, %v", id, c)
		}
	}
}

// TestPairing: with Pairs, games 2k and 2k+1 start from opening k (modulo the book), A
// playing Sente in the first and Gote in the second; without, game id starts from opening
// id (modulo the book) and A is always Sente (Match's doc, as cutechess-cli's -repeat).
func TestPairing(t *testing.T) {
	book := []Opening{{Name: "opening:1", SFEN: "a"}, {Name: "opening:2", SFEN: "b"}, {Name: "opening:3", SFEN: "c"}}
	paired := &Match{Pairs: true, Openings: book}
	// Hand-derived: game → opening name, A's colour.
	for id, want := range []struct {
		opening string
		aSente  bool
	}{
		{"opening:1", true}, {"opening:1", false}, {"opening:2", true}, {"opening:2", false},
		{"opening:3", true}, {"opening:3", false}, {"opening:1", true}, {"opening:1", false},
		{"opening:2", true}, {"opening:2", false},
	} {
		t.Run(fmt.Sprintf("game-%d", id), func(t *testing.T) {
			if got := paired.Opening(id).Name; got != want.opening {
				t.Errorf("paired game %d starts from %s, want %s", id, got, want.opening)
			}
			if got := paired.AIsSente(id); got != want.aSente {
				t.Errorf("paired game %d: A is Sente %v, want %v", id, got, want.aSente)
			}
		})
	}
	single := &Match{Openings: book}
	for id, want := range []string{"opening:1", "opening:2", "opening:3", "opening:1", "opening:2", "opening:3", "opening:1"} {
		if got := single.Opening(id).Name; got != want || !single.AIsSente(id) {
			t.Errorf("unpaired game %d: %s with A Sente %v; want %s with A Sente", id, got, single.AIsSente(id), want)
		}
	}
}

// TestPlaySeedsEachSide: Match.Play makes each side's player with that side's seed
// (SideSeed of the game's seed, architecture.md#seeds): a game between random movers is
// the game the two random movers seeded so play, and the sides' seeds differ.
func TestPlaySeedsEachSide(t *testing.T) {
	random, err := ParsePlayerSpec("random", PlayerSpec{})
	if err != nil {
		t.Fatal(err)
	}
	m := &Match{A: random, B: random, Pairs: true, Seed: 11, Version: "test",
		Openings: []Opening{{Name: "startpos", SFEN: minishogi.StartSFEN}}, Rules: minishogi.GameOptions{MaxPlies: 40}}
	for id := range 2 {
		rec, err := m.Play(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		seed := GameSeed(11, id)
		if rec.Seed != seed || len(rec.Moves) < 2 {
			t.Fatalf("game %d: seed %d and %d moves; want seed %d and a game", id, rec.Seed, len(rec.Moves), seed)
		}
		players := [2]Player{NewRandomPlayer(SideSeed(seed, minishogi.Sente)), NewRandomPlayer(SideSeed(seed, minishogi.Gote))}
		g := minishogi.NewGame(minishogi.StartPosition(), m.Rules)
		for i, move := range rec.Moves {
			pos := g.Position()
			d, err := players[pos.SideToMove()].Move(context.Background(), g, usi.GoParams{})
			if err != nil {
				t.Fatal(err)
			}
			if d.Move != move {
				t.Fatalf("game %d, move %d: %s played, but the player seeded with its side's seed plays %s", id, i+1, move, d.Move)
			}
			if err := g.PlayUSI(move); err != nil {
				t.Fatal(err)
			}
		}
	}
}
