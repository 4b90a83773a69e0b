package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/solver"
)

// verifyUSI runs solve verify --usi with Fairy-Stockfish on path and reads its JSON report.
func verifyUSI(t *testing.T, fsf, path string) (code int, rep verifyReport, stderr string) {
	t.Helper()
	code, out, stderr := runSolve("verify", "--json", "--usi-engines", "1", "--usi", fsf, path)
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.USI == nil {
		t.Fatalf("solve verify --usi %s: exit %d, stderr %q; the report %q: %v", path, code, stderr, out, err)
	}
	return code, rep, stderr
}

// TestVerifyUSI re-checks proofs and certificates with Fairy-Stockfish's legal moves
// (solve verify --usi, docs/proofs.md#another-engine).
func TestVerifyUSI(t *testing.T) {
	fsf := fsftest.Path(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}

	// The shipped files small enough for a test; the larger ones are measured in
	// datasets/README.md. Each holds with Fairy-Stockfish's moves, and on these the two
	// generators agree everywhere but on illegal pawn-drop mates.
	for _, name := range []string{"bare-king.proof", "bare-king.cert", "four-piece.proof", "four-piece.cert", "three-piece.proof"} {
		t.Run("accepts "+name, func(t *testing.T) {
			code, rep, stderr := verifyUSI(t, fsf, filepath.Join("..", "..", "datasets", "handicap", name))
			if code != 0 || !rep.OK || rep.USI.Unexplained != 0 || rep.USI.Positions == 0 {
				t.Errorf("exit %d, stderr %q, report %+v; want it to hold with no unexplained disagreement", code, stderr, rep)
			}
			for _, d := range rep.USI.Disagreements {
				if !d.PawnDropMate || len(d.OnlyOurs) != 0 || len(d.OnlySource) != 1 || !strings.HasPrefix(d.OnlySource[0], "P*") {
					t.Errorf("disagreement %+v: want one pawn drop that Fairy-Stockfish lists and ours does not", d)
				}
			}
		})
	}

	// A proof with a defence removed: every entry of the bare-king proof answers some
	// defence (the proof keeps only the positions its moves reach), so without any one of
	// them a defence is left unanswered, a hole on the line that reaches that position. The
	// command runs on the first; the checker, with one engine for all, on every one.
	t.Run("rejects the bare-king proof with a defence removed", func(t *testing.T) {
		text, err := os.ReadFile("../../datasets/handicap/bare-king.proof")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
		const header = 5
		without := func(i int) string {
			kept := append([]string{}, lines[:header]...)
			kept[4] = fmt.Sprintf("entries %d", len(lines)-header-1)
			return strings.Join(append(append(kept, lines[header:i]...), lines[i+1:]...), "\n") + "\n"
		}
		code, rep, _ := verifyUSI(t, fsf, write("removed.proof", without(header)))
		if code != 1 || rep.OK || !strings.Contains(rep.Hole, "has no attacker move (a hole)") {
			t.Errorf("without %s: exit %d, report %+v; want exit 1 and a hole", lines[header], code, rep)
		}
		ctx := context.Background()
		engine, err := startLegalMoves(ctx, []string{fsf})
		if err != nil {
			t.Fatal(err)
		}
		defer engine.Close()
		for i := header; i < len(lines); i++ {
			root, _, proof, err := solver.ReadProof(strings.NewReader(without(i)))
			if err != nil {
				t.Fatal(err)
			}
			cross, err := solver.CheckProofWith(ctx, engine, root, proof, solver.CrossOptions{})
			if err != nil {
				t.Fatal(err)
			}
			hole := fmt.Sprint(cross.Verdict)
			if cross.Verdict == nil || !strings.Contains(hole, "has no attacker move (a hole)") {
				t.Errorf("without %s: verdict %v; want a hole", lines[i], cross.Verdict)
				continue
			}
			// The line the verdict names must lead from the root to the removed position.
			_, after, _ := strings.Cut(hole, "after ")
			moves, _, _ := strings.Cut(after, " the proof")
			p := root
			for _, s := range strings.Fields(moves) {
				m, err := p.ParseMove(s)
				if err != nil {
					t.Fatalf("without %s: the hole's line %q: %v", lines[i], moves, err)
				}
				p.MakeMove(m)
			}
			entry := strings.Fields(lines[i])
			if got := strings.Join(strings.Fields(p.SFEN())[:3], " "); got != strings.Join(entry[:3], " ") {
				t.Errorf("without %s: the hole's line %q reaches %s", lines[i], moves, got)
			}
		}
	})

	// Hand-corrupted certificates of the bare-king handicap. The root is Gote's king on 1a
	// in check from the rook on 1e: 1a1b stays on the rook's file, an illegal reply. And
	// the bare-king start mates in 8 (datasets/handicap/bare-king.proof, and Fairy-Stockfish's
	// search, docs/rules.md), so no certificate can say there is no mate within 8.
	cert, err := os.ReadFile("../../datasets/handicap/bare-king.cert")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, old, new, want string }{
		{"an illegal reply", "\n4k/5/5/P4/KGSBR w - 1a2b\n", "\n4k/5/5/P4/KGSBR w - 1a1b\n", "after the root the certificate's reply 1a1b is illegal"},
		{"a bound past the mate in 8", "\nplies 6\n", "\nplies 8\n", "retro: disproof: after "},
	} {
		t.Run("rejects a certificate with "+c.name, func(t *testing.T) {
			if !strings.Contains(string(cert), c.old) {
				t.Fatalf("bare-king.cert has no %q", c.old)
			}
			path := write("corrupt.cert", strings.Replace(string(cert), c.old, c.new, 1))
			code, rep, _ := verifyUSI(t, fsf, path)
			if code != 1 || rep.OK || !strings.Contains(rep.Hole, c.want) {
				t.Errorf("exit %d, report %+v; want a failure with %q", code, rep, c.want)
			}
		})
	}

	// A pawn-drop mate, built by hand: Gote's king on 1a, its pawn on 5b; Sente's silver on
	// 3b guards 2a, its gold on 2c guards 2b and 1b, and Sente has a pawn in hand. P*1b
	// checks, and the king can neither take the guarded pawn nor step to 2a or 2b: a mate by
	// a dropped pawn, illegal (docs/rules.md). No legal move of Sente mates: the gold's
	// checks on 2b and 1b are taken by the king, and after any other move Gote's pawn can
	// still move. Fairy-Stockfish lists P*1b all the same.
	const dropMate = "4k/p1S2/3G1/5/K4 b P 1"
	t.Run("reports the pawn-drop mate and leaves it out", func(t *testing.T) {
		path := write("nomate1.cert", "shogilab-nomate-certificate 1\nroot "+dropMate+"\nattacker b\nplies 1\nentries 0\n")
		code, rep, stderr := verifyUSI(t, fsf, path)
		if code != 0 || !rep.OK {
			t.Errorf("no mate within 1 ply: exit %d, stderr %q, report %+v; want it to hold", code, stderr, rep)
		}
		if len(rep.USI.Disagreements) != 1 {
			t.Fatalf("disagreements %+v; want one, at the root", rep.USI.Disagreements)
		}
		d := rep.USI.Disagreements[0]
		if d.SFEN != dropMate || !d.PawnDropMate || strings.Join(d.OnlySource, " ") != "P*1b" || len(d.OnlyOurs) != 0 || rep.USI.Unexplained != 0 {
			t.Errorf("disagreement %+v; want Fairy-Stockfish's P*1b at %s, a pawn-drop mate", d, dropMate)
		}
		if _, out, _ := runSolve("verify", "--usi", fsf, path); !strings.Contains(out, "only "+fsf+": P*1b; only ours: none (illegal pawn-drop mate, left out)") {
			t.Errorf("the plain report does not name the drop:\n%s", out)
		}
	})
	t.Run("rejects a mate by the pawn drop", func(t *testing.T) {
		path := write("dropmate.proof", "shogilab-mate-proof 1\nroot "+dropMate+"\nattacker b\nplies 1\nentries 1\n"+strings.TrimSuffix(dropMate, " 1")+" P*1b\n")
		code, rep, _ := verifyUSI(t, fsf, path)
		if code != 1 || rep.OK || !strings.Contains(rep.Hole, "the proof's move P*1b is illegal") {
			t.Errorf("exit %d, report %+v; want P*1b refused as illegal", code, rep)
		}
	})
}
