package minishogi

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/fsftest"
)

// This file checks the move generator against Debian's fairy-stockfish 11.1, an independent
// implementation, by comparing `go perft` divides. Fairy-Stockfish generates pawn drops that
// mate (uchifuzume) and only scores them as losses, so its counts may be higher; the
// comparison walks down every subtree whose counts differ, and accepts a difference only where
// it is a pawn drop that Fairy-Stockfish itself shows leaves the opponent without a legal
// reply while giving check. Anything else fails the test.

type fsfEngine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startFSF(t testing.TB) *fsfEngine {
	cmd := exec.Command(fsftest.Path(t))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e := &fsfEngine{cmd, in, bufio.NewScanner(out)}
	t.Cleanup(func() {
		fmt.Fprintln(in, "quit")
		in.Close()
		cmd.Wait()
	})
	fmt.Fprintln(in, "usi\nsetoption name UCI_Variant value minishogi\nisready")
	for e.out.Scan() && e.out.Text() != "readyok" {
	}
	return e
}

// divide returns Fairy-Stockfish's perft divide: leaves below each root move, and the total.
func (e *fsfEngine) divide(t testing.TB, sfen string, depth int) (map[string]uint64, uint64) {
	fmt.Fprintf(e.in, "position sfen %s\ngo perft %d\n", sfen, depth)
	moves := map[string]uint64{}
	for e.out.Scan() {
		line := e.out.Text()
		if n, ok := strings.CutPrefix(line, "Nodes searched: "); ok {
			total, err := strconv.ParseUint(n, 10, 64)
			if err != nil {
				t.Fatalf("fairy-stockfish: %q", line)
			}
			return moves, total
		}
		if mv, count, ok := strings.Cut(line, ": "); ok {
			if n, err := strconv.ParseUint(count, 10, 64); err == nil {
				moves[mv] = n
			}
		}
	}
	t.Fatalf("fairy-stockfish stopped answering during perft of %s", sfen)
	return nil, 0
}

// compareWithFSF checks p's perft divide against Fairy-Stockfish's and returns how many
// leaves Fairy-Stockfish counts that are illegal pawn-drop mates.
func compareWithFSF(t testing.TB, e *fsfEngine, p *Position, depth int) (dropMates uint64) {
	theirs, _ := e.divide(t, p.SFEN(), depth)
	ours := map[string]bool{}
	for _, d := range p.PerftDivide(depth) {
		mv := d.Move.String()
		ours[mv] = true
		want, ok := theirs[mv]
		switch {
		case !ok:
			t.Errorf("%s: move %s is ours but not fairy-stockfish's", p.SFEN(), mv)
		case want != d.Nodes && depth > 1:
			u := p.MakeMove(d.Move)
			extra := compareWithFSF(t, e, p, depth-1)
			p.UnmakeMove(d.Move, u)
			if d.Nodes+extra != want {
				t.Errorf("%s %s: %d leaves, fairy-stockfish %d, of which %d pawn-drop mates", p.SFEN(), mv, d.Nodes, want, extra)
			}
			dropMates += extra
		case want != d.Nodes:
			t.Errorf("%s %s: %d leaves, fairy-stockfish %d", p.SFEN(), mv, d.Nodes, want)
		}
	}
	for mv, n := range theirs {
		if ours[mv] {
			continue
		}
		if !strings.HasPrefix(mv, "P*") || !fsfShowsDropMate(t, e, p, mv) {
			t.Errorf("%s: fairy-stockfish's move %s (%d leaves) is not ours", p.SFEN(), mv, n)
			continue
		}
		dropMates += n // 1 where the drop is a leaf, 0 deeper: the mated side has no moves
	}
	return dropMates
}

// fsfShowsDropMate asks Fairy-Stockfish whether the pawn drop mv leaves the opponent with no
// legal move, and checks on the board that the pawn gives check (it stands right in front of
// the enemy king), so that a stalemating drop, which is legal, is not mistaken for one.
func fsfShowsDropMate(t testing.TB, e *fsfEngine, p *Position, mv string) bool {
	sq, ok := parseSquare(mv[2:])
	if !ok {
		return false
	}
	_, replies := e.divide(t, p.SFEN()+" moves "+mv, 1)
	forward := -5 // Sente's pawn attacks the square above it
	if p.SideToMove() == Gote {
		forward = 5
	}
	return replies == 0 && int(p.KingSquare(p.SideToMove().Opponent())) == int(sq)+forward
}

// fsfPositions are hand-built to exercise each rule; the comments say what each is for.
var fsfPositions = []struct {
	sfen  string
	depth int
}{
	{StartSFEN, 5},
	{"4k/5/5/P4/KGSBR w - 1", 5},           // bare king: the Gote king starts in check
	{"4k/5/4G/5/K2R1 b PG 1", 3},           // P*1b would be a pawn-drop mate
	{"2k2/5/2P2/5/2K2 b RBGSrbgs 1", 3},    // most pieces in hand: drops everywhere
	{"+r1+bk1/5/2+P2/1+S3/1K3 w Gg 12", 4}, // promoted pieces of both sides
	{"k1b2/3G1/r1S1K/5/5 b Pp 1", 4},       // a gold pinned by a bishop, a silver by a rook
	{"k4/2P2/5/5/4K b P 1", 4},             // forced promotion (3b3a+) and nifu on file 3
	{"4k/5/1B1GP/5/K4 b - 1", 4},           // a mating pawn push (legal)
	{"rb1gk/4p/2s2/P4/KGSBR b - 1", 4},     // a silver that can promote entering the zone
	{"r3k/2G1p/5/P1b2/KGS1R w Bs 9", 4},    // a mid-game position with drops and checks
}

func TestAgainstFairyStockfish(t *testing.T) {
	e := startFSF(t)
	for _, c := range fsfPositions {
		t.Run(fmt.Sprintf("%s/depth-%d", c.sfen, c.depth), func(t *testing.T) {
			p, err := ParseSFEN(c.sfen)
			if err != nil {
				t.Fatalf("%s: %v", c.sfen, err)
			}
			_, fsfTotal := e.divide(t, c.sfen, c.depth)
			extra := compareWithFSF(t, e, &p, c.depth)
			ours := p.Perft(c.depth)
			t.Logf("%-40s d%d: ours %d, fairy-stockfish %d, pawn-drop mates %d", c.sfen, c.depth, ours, fsfTotal, extra)
			if ours+extra != fsfTotal {
				t.Errorf("%s d%d: ours %d + %d pawn-drop mates != fairy-stockfish %d", c.sfen, c.depth, ours, extra, fsfTotal)
			}
		})
	}
}

// TestPerft7AgainstFairyStockfish reproduces docs/rules.md#perft: at depth 7 from the start
// Fairy-Stockfish counts 132,680,698 leaves and this package 132,680,617, and the 81 between
// are exactly the pawn-drop mates. It takes about a minute, so it runs when SHOGILAB_PERFT7=1.
func TestPerft7AgainstFairyStockfish(t *testing.T) {
	if os.Getenv("SHOGILAB_PERFT7") != "1" {
		t.Skip("set SHOGILAB_PERFT7=1 to run")
	}
	e := startFSF(t)
	p := StartPosition()
	if extra := compareWithFSF(t, e, &p, 7); extra != 81 {
		t.Errorf("pawn-drop mates at depth 7: %d, want 81", extra)
	}
}

// TestRandomPositionsAgainstFairyStockfish compares perft(3) divides on positions from
// random games (seeded, so the positions are the same in every run).
func TestRandomPositionsAgainstFairyStockfish(t *testing.T) {
	e := startFSF(t)
	rng := rand.New(rand.NewPCG(7, 11))
	games := 40
	if testing.Short() {
		games = 8
	}
	for g := 0; g < games; g++ {
		p := StartPosition()
		for ply := 0; ply < 10+rng.IntN(50); ply++ {
			var ml MoveList
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.N)])
		}
		compareWithFSF(t, e, &p, 3)
	}
}
