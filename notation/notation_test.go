package notation

import (
	"strings"
	"testing"

	"github.com/shogilab/shogilab/record"
)

// bareKingMate is Fairy-Stockfish's mate in 8 plies from the bare-king
// handicap (docs/rules.md#bare-king).
func bareKingMate() *record.Game {
	return &record.Game{
		ID: 0, Seed: 1, Variant: "minishogi", Start: "4k/5/5/P4/KGSBR w - 1",
		Moves:  []string{"1a2a", "4e4d", "2a2b", "2e5b", "2b2a", "4d3c", "2a3a", "1e1a"},
		Result: record.Sente, Termination: record.Checkmate, Plies: 8,
		Players: record.Players{Sente: record.Player{Name: "a", Kind: record.KindUSI}, Gote: record.Player{Name: "b", Kind: record.KindUSI}},
		Rules:   record.Rules{Repetition: record.RepetitionFirstMoverLoses}, Version: "test",
	}
}

// withStats gives the first four moves of the bare-king mate statistics of each kind a
// record holds: an external engine's mate (1.5 s), a search with its top moves and score
// (62 s), a random mover's zeros (0.999 s), a bare search (3 s); the last four moves have
// none.
func withStats(g *record.Game) *record.Game {
	mate, cp := -8, 120
	g.Stats = []record.MoveStats{
		{Visits: 403113, Value: -1, Mate: &mate, MS: 1500},
		{Visits: 800, Value: 0.12, ScoreCP: &cp, Top: []record.TopMove{{Move: "4e4d", Visits: 410}, {Move: "2e5b", Visits: 200}}, MS: 62000},
		{MS: 999},
		{Visits: 50, Value: 1, MS: 3000},
	}
	return g
}

// The expected texts are written by hand from the formats' descriptions
// (Kakinoki's KIF page; CSA standard file format 2.2): squares are file
// then rank, the KIF origin in parentheses as digits, a CSA move names the
// piece after it moved. Times are whole seconds, rounded down: KIF's column
// has the move's m:ss and the mover's total hh:mm:ss (Gote moves first here:
// 1.5 s, then 2.499 s in all; Sente 62 s, then 65 s), padded so that it
// starts at the fourteenth column after the move number, a full-width
// character counting two; CSA's T line the move's seconds.
func TestKIFBareKing(t *testing.T) {
	got, err := KIF(withStats(bareKingMate()))
	if err != nil {
		t.Fatal(err)
	}
	want := `#KIF version=2.0 encoding=UTF-8
#shogilab game 0 seed 1 termination checkmate
後手の持駒：なし
  ５ ４ ３ ２ １
+---------------+
| ・ ・ ・ ・v玉|一
| ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・|三
| 歩 ・ ・ ・ ・|四
| 玉 金 銀 角 飛|五
+---------------+
先手の持駒：なし
後手番
先手：a
後手：b
手数----指手---------消費時間--
   1 ２一玉(11)   ( 0:01/00:00:01)
*value -1.000, visits 403113, mate -8
   2 ４四金(45)   ( 1:02/00:01:02)
*value 0.120, visits 800, score_cp 120; top 4e4d 410, 2e5b 200
   3 ２二玉(21)   ( 0:00/00:00:02)
   4 ５二角(25)   ( 0:03/00:01:05)
*value 1.000, visits 50
   5 ２一玉(22)   ( 0:00/00:00:02)
   6 ３三金(44)   ( 0:00/00:01:05)
   7 ３一玉(21)   ( 0:00/00:00:02)
   8 １一飛(15)   ( 0:00/00:01:05)
   9 詰み         ( 0:00/00:00:02)
まで8手で先手の勝ち
`
	if got != want {
		t.Errorf("KIF:\n%s\nwant:\n%s", got, want)
	}
}

func TestCSABareKing(t *testing.T) {
	g := withStats(bareKingMate())
	g.Moves[7] = "1e1a+" // the promoting rook mates too
	got, err := CSA(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `V2.2
N+a
N-b
$EVENT:shogilab game 0 seed 1
P1 *  *  *  * -OU
P2 *  *  *  *  * 
P3 *  *  *  *  * 
P4+FU *  *  *  * 
P5+OU+KI+GI+KA+HI
-
-1121OU
T1
'value -1.000, visits 403113, mate -8
+4544KI
T62
'value 0.120, visits 800, score_cp 120; top 4e4d 410, 2e5b 200
-2122OU
T0
+2552KA
T3
'value 1.000, visits 50
-2221OU
T0
+4433KI
T0
-2131OU
T0
+1511RY
T0
%TSUMI
'termination checkmate, result sente
`
	if got != want {
		t.Errorf("CSA:\n%s\nwant:\n%s", got, want)
	}
}

// From the normal start: a capture on the previous move's square and a recapture (both KIF
// 同), a drop, and a resignation.
func TestStartposCaptureDropResign(t *testing.T) {
	g := &record.Game{
		ID: 3, Seed: 9, Variant: "minishogi", Start: "rbsgk/4p/5/P4/KGSBR b - 1",
		Moves:  []string{"2e4c", "3a3b", "4c3b", "2a3b", "S*4b"},
		Result: record.Sente, Termination: record.Resignation, Plies: 5,
		Players: record.Players{Sente: record.Player{Name: "x", Kind: record.KindRandom}, Gote: record.Player{Name: "y", Kind: record.KindRandom}},
		Rules:   record.Rules{Repetition: record.RepetitionDraw}, Version: "test",
	}
	kif, err := KIF(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"手合割：5五将棋\n", "   1 ４三角(25)   (", "   2 ３二銀(31)   (", "   3 同　角(43)   (",
		"   4 同　金(21)   (", "   5 ４二銀打     (", "   6 投了         (", "まで5手で先手の勝ち\n"} {
		if !strings.Contains(kif, line) {
			t.Errorf("KIF lacks %q:\n%s", line, kif)
		}
	}
	csa, err := CSA(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"P1-HI-KA-GI-KI-OU\n", "P5+OU+KI+GI+KA+HI\n", "\n+\n+2543KA\n", "-3132GI\n", "+4332KA\n", "-2132KI\n", "+0042GI\nT0\n%TORYO\n"} {
		if !strings.Contains(csa, line) {
			t.Errorf("CSA lacks %q:\n%s", line, csa)
		}
	}
}

func TestIllegalMoveIsAnError(t *testing.T) {
	g := bareKingMate()
	g.Moves[1] = "4e3c"
	if _, err := KIF(g); err == nil || !strings.Contains(err.Error(), "move 2 4e3c") {
		t.Errorf("KIF of an illegal move: %v", err)
	}
	if _, err := CSA(g); err == nil {
		t.Error("CSA of an illegal move: no error")
	}
}

// TestTimeForfeit: a loss on time is KIF's 切れ負け (said by the side to move, which flagged)
// and CSA's %TIME_UP, the words both formats use for it.
func TestTimeForfeit(t *testing.T) {
	g := &record.Game{
		ID: 4, Variant: "minishogi", Start: "rbsgk/4p/5/P4/KGSBR b - 1",
		Moves: []string{"2e4c"}, Result: record.Sente, Termination: record.TimeForfeit, Plies: 1,
		Players: record.Players{Sente: record.Player{Name: "x", Kind: record.KindRandom}, Gote: record.Player{Name: "y", Kind: record.KindRandom}},
		Rules:   record.Rules{Repetition: record.RepetitionDraw}, Version: "test",
	}
	kif, err := KIF(g)
	if err != nil || !strings.Contains(kif, "   2 切れ負け     (") {
		t.Errorf("KIF (%v):\n%s", err, kif)
	}
	csa, err := CSA(g)
	if err != nil || !strings.Contains(csa, "\n+2543KA\nT0\n%TIME_UP\n") {
		t.Errorf("CSA (%v):\n%s", err, csa)
	}
}
