package usi

import (
	"context"
	"slices"
	"testing"
)

// TestLegalMovesBatch asks Fairy-Stockfish for the legal moves of 600 positions in one
// batch (far more than one write's chunk and the client's line buffer, so the writes and
// reads overlap) and checks each answer: the start's 14 moves derived by hand (startMoves),
// the bare-king start's 2 (docs/rules.md#perft), and none in a mate by hand (Gote's king on
// 1a, Sente's gold on 1b guarded by the pawn on 1c: 2a and 2b are the gold's, 1b is
// guarded). The same client then still answers a plain Perft.
func TestLegalMovesBatch(t *testing.T) {
	c := startMinishogi(t)
	ctx := context.Background()
	cases := []struct {
		sfen  string
		moves []string
	}{
		{"rbsgk/4p/5/P4/KGSBR b - 1", slices.Sorted(slices.Values(startMoves))},
		{"4k/5/5/P4/KGSBR w - 1", nil},
		{"4k/4G/4P/5/K4 w - 1", []string{}},
	}
	var sfens []string
	for i := range 600 {
		sfens = append(sfens, cases[i%len(cases)].sfen)
	}
	got, err := c.LegalMoves(ctx, sfens)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(sfens) {
		t.Fatalf("%d answers for %d positions", len(got), len(sfens))
	}
	for i, moves := range got {
		want := cases[i%len(cases)]
		switch {
		case want.moves == nil && len(moves) != 2:
			t.Fatalf("position %d (%s): %d moves %v, want 2", i, want.sfen, len(moves), moves)
		case want.moves != nil && !slices.Equal(moves, want.moves):
			t.Fatalf("position %d (%s): moves %v, want %v", i, want.sfen, moves, want.moves)
		}
	}
	if err := c.Position("", nil); err != nil {
		t.Fatal(err)
	}
	if p, err := c.Perft(ctx, 1); err != nil || p.Nodes != 14 {
		t.Fatalf("perft 1 after the batch: %d, %v; want 14", p.Nodes, err)
	}
}

// TestReplyCounts asks Fairy-Stockfish for perft 2 by move in one batch: from the start the
// 14 moves' counts add up to 181 and from the bare-king start the 2 moves' to 32 (the
// independent perft counts of docs/rules.md#perft); after the hand-built pawn-drop mate P*1b
// (Gote's king on 1a with 2a and 2b guarded and the pawn on 1b guarded by the gold on 2c,
// docs/proofs.md#another-engine) Gote has no reply, though Fairy-Stockfish lists the drop.
func TestReplyCounts(t *testing.T) {
	c := startMinishogi(t)
	cases := []struct {
		name, sfen string
		moves, sum int    // -1: not checked
		mate       string // a move after which no reply is listed
	}{
		{"start", "rbsgk/4p/5/P4/KGSBR b - 1", 14, 181, ""},
		{"bare king", "4k/5/5/P4/KGSBR w - 1", 2, 32, ""},
		{"pawn-drop mate", "4k/p1S2/3G1/5/K4 b P 1", -1, -1, "P*1b"},
	}
	var sfens []string
	for _, cs := range cases {
		sfens = append(sfens, cs.sfen)
	}
	got, err := c.ReplyCounts(context.Background(), sfens)
	if err != nil {
		t.Fatal(err)
	}
	for i, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			var sum int64
			for _, n := range got[i] {
				sum += n
			}
			if cs.moves >= 0 && (len(got[i]) != cs.moves || sum != int64(cs.sum)) {
				t.Errorf("%d moves, %d replies; want %d and %d", len(got[i]), sum, cs.moves, cs.sum)
			}
			if n, ok := got[i][cs.mate]; cs.mate != "" && (!ok || n != 0) {
				t.Errorf("%s: listed %v, %d replies; want it listed with none", cs.mate, ok, n)
			}
		})
	}
}
