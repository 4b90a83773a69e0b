package minishogi

import (
	"context"
	"errors"
	"os"
	"testing"
)

// perftCases are perft counts from sources independent of this package:
//   - start position d1-d6: docs/rules.md#perft (Fairy-Stockfish and lishogi's shogiops agree);
//     d7 132,680,617 from shogiops (Fairy-Stockfish's 132,680,698 includes 81 illegal
//     pawn-drop mates).
//   - bare-king handicap d1-d5: docs/rules.md#perft.
//   - the other positions: Debian's fairy-stockfish 11.1 (`go perft N` after
//     `setoption name UCI_Variant value minishogi`), with its illegal pawn-drop mates removed
//     as described at each case (see fsfCases in fsf_test.go for how those were counted).
var perftCases = []struct {
	name  string
	sfen  string
	depth []uint64 // depth[i] is the count at depth i+1
}{
	{"start", StartSFEN, []uint64{14, 181, 2512, 35401, 533203}},
	{"bare-king", "4k/5/5/P4/KGSBR w - 1", []uint64{2, 32, 112, 1918, 8283}},
}

func TestPerft(t *testing.T) {
	for _, c := range perftCases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseSFEN(c.sfen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range c.depth {
				if got := p.Perft(d + 1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}

// TestPerftDeep runs the start position to depth 6 (8,276,188, docs/rules.md#perft), and to depth 7
// (132,680,617, shogiops) when SHOGILAB_PERFT7=1, in parallel.
func TestPerftDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	p := StartPosition()
	if got, want := p.ParallelPerft(6, 0), uint64(8276188); got != want {
		t.Errorf("perft(6) = %d, want %d", got, want)
	}
	if os.Getenv("SHOGILAB_PERFT7") == "1" {
		if got, want := p.ParallelPerft(7, 0), uint64(132680617); got != want {
			t.Errorf("perft(7) = %d, want %d", got, want)
		}
	}
}

// TestPerftContext: the cancellable count agrees with the published counts and stops when
// its context is done.
func TestPerftContext(t *testing.T) {
	p := StartPosition()
	if got, err := p.PerftContext(context.Background(), 6); err != nil || got != 8276188 {
		t.Errorf("PerftContext(6) = %d, %v; want 8276188 (docs/rules.md)", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.PerftContext(ctx, 12); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled PerftContext(12): %v", err)
	}
	if got, err := p.PerftContext(ctx, 3); err != nil || got != 2512 {
		t.Errorf("PerftContext(3) = %d, %v: a shallow count needs no look at the context", got, err)
	}
}
