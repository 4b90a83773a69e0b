package solver

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/fsftest/fsfclient"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// listsOnly hides a source's ReplyCounts: every position is asked for its list.
type listsOnly struct{ MoveSource }

// lacking is a source that leaves out one move in one position, as a faulty generator would.
type lacking struct {
	MoveSource
	sfen, move string
}

func (l lacking) LegalMoves(ctx context.Context, sfens []string) ([][]string, error) {
	out, err := l.MoveSource.LegalMoves(ctx, sfens)
	for i, s := range sfens {
		if err == nil && s == l.sfen {
			out[i] = slices.DeleteFunc(out[i], func(m string) bool { return m == l.move })
		}
	}
	return out, err
}

// TestCrossCheckPawnDropMate checks with Fairy-Stockfish's moves, with and without its reply
// counts, a position built by hand where Sente's only mating move is an illegal pawn-drop
// mate (Gote's king on 1a, its pawn on 5b; Sente's silver on 3b guards 2a, its gold on 2c
// guards 2b and 1b; P*1b mates; the gold's checks on 2b and 1b are taken by the king, and
// after any other move Gote's pawn can move): "no mate within 1 ply" holds with the drop
// reported and left out, and "mate in 1 by P*1b" fails on an illegal move. A source that
// lacks the quiet move 5e4e there is reported as an unexplained disagreement.
func TestCrossCheckPawnDropMate(t *testing.T) {
	fsf := fsfclient.Start(t) // a MoveSource and ReplyCounter
	const sfen = "4k/p1S2/3G1/5/K4 b P 1"
	root, err := minishogi.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	noMate := &Certificate{Plies: 1, AttackerToMove: true, Replies: map[minishogi.Code]minishogi.Move{}}
	drop, _ := minishogi.ParseMoveSyntax("P*1b")
	dropMate := &Proof{Plies: 1, AttackerToMove: true, Moves: map[minishogi.Code]minishogi.Move{root.Code(): drop}}
	for _, src := range []struct {
		name string
		src  MoveSource
	}{{"with reply counts", fsf}, {"with lists alone", listsOnly{fsf}}} {
		t.Run(src.name, func(t *testing.T) {
			cross, err := CheckCertificateWith(ctx, src.src, root, noMate, CrossOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := []Disagreement{{SFEN: sfen, OnlySource: []string{"P*1b"}, OnlyOurs: []string{}, PawnDropMate: true}}
			if cross.Verdict != nil || !equalDisagreements(cross.Disagreements, want) || cross.Unexplained() != 0 {
				t.Errorf("no mate within 1: verdict %v, disagreements %+v; want it to hold with %+v", cross.Verdict, cross.Disagreements, want)
			}
			cross, err = CheckProofWith(ctx, src.src, root, dropMate, CrossOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if cross.Verdict == nil || !strings.Contains(cross.Verdict.Error(), "the proof's move P*1b is illegal") {
				t.Errorf("mate by P*1b: verdict %v; want the move refused", cross.Verdict)
			}
		})
	}
	t.Run("a source that lacks a move", func(t *testing.T) {
		cross, err := CheckCertificateWith(ctx, lacking{listsOnly{fsf}, sfen, "5e4e"}, root, noMate, CrossOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := []Disagreement{{SFEN: sfen, OnlySource: []string{"P*1b"}, OnlyOurs: []string{"5e4e"}}}
		if !equalDisagreements(cross.Disagreements, want) || cross.Unexplained() != 1 {
			t.Errorf("disagreements %+v; want %+v, unexplained", cross.Disagreements, want)
		}
	})
}

func equalDisagreements(a, b []Disagreement) bool {
	return slices.EqualFunc(a, b, func(x, y Disagreement) bool {
		return x.SFEN == y.SFEN && slices.Equal(x.OnlySource, y.OnlySource) && slices.Equal(x.OnlyOurs, y.OnlyOurs) && x.PawnDropMate == y.PawnDropMate
	})
}
