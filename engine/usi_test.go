package engine_test

// A USI conformance test: the engine behind usi.Server, driven as GUIs drive it (ShogiGUI's
// and Shogidokoro's analysis mode, pondering, mate search), with commands arriving in the
// middle of searches, a full node pool, and garbage. Every wait is bounded, so a hang is a
// failure with the transcript, never a stuck test.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/internal/bounded/boundedtest"
	"github.com/shogilab/shogilab/internal/fsftest/fsfclient"
	"github.com/shogilab/shogilab/internal/sysmem"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// session is one engine process as a GUI sees it: a pipe in, lines out.
type session struct {
	t      testing.TB
	in     *io.PipeWriter
	lines  chan string
	served chan error
	seen   []string // the last lines read and sent, for failure messages
	count  int      // lines read and sent in all
}

// note keeps a line for the transcript, the last 100 only, so that a long session's memory
// stays flat.
func (s *session) note(line string) {
	s.count++
	if len(s.seen) == 100 {
		s.seen = append(s.seen[:0], s.seen[1:]...)
	}
	s.seen = append(s.seen, line)
}

// patience bounds every wait for the engine; generous, since the machine may be busy.
const patience = 20 * time.Second

func startSession(t testing.TB) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, lines: make(chan string, 1<<16), served: make(chan error, 1)}
	srv := usi.NewServer(engine.New(), outW)
	go func() {
		err := srv.Serve(inR)
		outW.Close()
		s.served <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
		io.Copy(io.Discard, outR)
	}()
	t.Cleanup(func() { inW.Close() })
	return s
}

// send writes commands; an engine that stops reading its input fails the test.
func (s *session) send(cmds ...string) {
	for _, c := range cmds {
		s.note("> " + c)
	}
	s.t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := io.WriteString(s.in, strings.Join(cmds, "\n")+"\n")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			s.t.Fatalf("writing %q: %v\n%s", cmds, err, s.transcript())
		}
	case <-time.After(patience):
		s.t.Fatalf("the engine stopped reading its input at %q\n%s", cmds, s.transcript())
	}
}

func (s *session) transcript() string {
	shown := s.seen[max(0, len(s.seen)-30):]
	return fmt.Sprintf("last %d of %d lines sent (>) and read:\n  %s", len(shown), s.count, strings.Join(shown, "\n  "))
}

// next returns the next line, failing after patience.
func (s *session) next(why string) string {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("the engine's output ended while waiting for %s\n%s", why, s.transcript())
		}
		s.note(l)
		return l
	case <-time.After(patience):
		s.t.Fatalf("no %s after %v\n%s", why, patience, s.transcript())
	}
	return ""
}

// expect reads up to the first line starting with prefix and returns it with the lines
// before it.
func (s *session) expect(prefix string) (line string, before []string) {
	s.t.Helper()
	for {
		l := s.next(fmt.Sprintf("%q", prefix))
		if strings.HasPrefix(l, prefix) {
			return l, before
		}
		before = append(before, l)
	}
}

// quiet checks that no line starting with one of the prefixes comes within d.
func (s *session) quiet(d time.Duration, prefixes ...string) {
	s.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("the engine's output ended\n%s", s.transcript())
			}
			s.note(l)
			for _, p := range prefixes {
				if strings.HasPrefix(l, p) {
					s.t.Fatalf("unexpected %q\n%s", l, s.transcript())
				}
			}
		case <-deadline:
			return
		}
	}
}

// finish sends quit and checks that Serve returns.
func (s *session) finish(cmds ...string) {
	s.t.Helper()
	if len(cmds) > 0 {
		s.send(cmds...)
	}
	s.in.Close()
	select {
	case err := <-s.served:
		if err != nil {
			s.t.Errorf("Serve: %v", err)
		}
	case <-time.After(patience):
		s.t.Fatalf("Serve did not return after the end of input\n%s", s.transcript())
	}
}

// legalIn checks that move is legal after the moves from the start position, with the rules
// package as the judge.
func legalIn(t testing.TB, move string, moves ...string) {
	t.Helper()
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
	for _, m := range moves {
		if err := g.PlayUSI(m); err != nil {
			t.Fatal(err)
		}
	}
	pos := g.Position()
	if _, err := pos.ParseMove(move); err != nil {
		t.Errorf("bestmove %s after %v: %v", move, moves, err)
	}
}

func bestMove(t testing.TB, line string) string {
	t.Helper()
	b, err := usi.ParseBestMove(line)
	if err != nil {
		t.Fatal(err)
	}
	return b.Move
}

// TestUSIAnalysisSession is ShogiGUI's analysis mode (検討) with a tiny hash: `go infinite`
// runs until the pool is full and keeps waiting for `stop`; meanwhile `isready` is answered at
// once and the other commands wait for the search's end, then run in order.
func TestUSIAnalysisSession(t *testing.T) {
	s := startSession(t)
	s.send("usi")
	s.expect("usiok")
	s.send("setoption name USI_Hash value 1", "isready")
	s.expect("readyok")
	s.send("usinewgame", "position startpos", "go infinite")
	// A 1 MiB pool holds 32k nodes: full after a few thousand playouts. Wait for the info
	// line that says so.
	for {
		l, _ := s.expect("info ")
		if strings.Contains(l, "hashfull 1000") || strings.Contains(l, "hashfull 99") {
			break
		}
	}
	// The search is over but must not answer before stop (USI: go infinite).
	s.send("isready")
	_, before := s.expect("readyok")
	for _, l := range before {
		if strings.HasPrefix(l, "bestmove") {
			t.Fatalf("bestmove before stop: %q", l)
		}
	}
	// Commands that need the engine idle are held until the search ends.
	s.send("d", "position startpos moves 2e3d", "usinewgame", "isready")
	s.expect("readyok")
	s.quiet(300*time.Millisecond, "bestmove", "Sfen:")
	s.send("stop")
	best, _ := s.expect("bestmove")
	legalIn(t, bestMove(t, best))
	// `d` ran after the search, before the position changed.
	if l, _ := s.expect("Sfen:"); !strings.Contains(l, minishogi.StartSFEN) {
		t.Errorf("d showed %q, want the start position", l)
	}
	s.send("go nodes 200")
	best, _ = s.expect("bestmove")
	legalIn(t, bestMove(t, best), "2e3d")
	// stop and ponderhit when idle are ignored (USI: a command not expected is ignored).
	s.send("stop", "ponderhit", "isready")
	if l, before := s.expect("readyok"); len(before) > 0 {
		t.Errorf("stray output before %q: %q", l, before)
	}
	s.finish("quit")
}

// TestUSIQuitDuringSearch: quit and the end of input both end a search and Serve.
func TestUSIQuitDuringSearch(t *testing.T) {
	for _, end := range []string{"quit", "eof"} {
		t.Run(end, func(t *testing.T) {
			s := startSession(t)
			s.send("setoption name USI_Hash value 1", "position startpos", "go infinite")
			s.expect("info ")
			if end == "quit" {
				s.send("d", "quit")
			}
			s.finish()
		})
	}
}

// TestUSIPerftStops: a perft too deep to finish is ended by stop, quit or the end of input,
// and the engine stays responsive while it runs.
func TestUSIPerftStops(t *testing.T) {
	s := startSession(t)
	s.send("go perft 14", "isready")
	s.expect("readyok")
	s.send("stop", "go perft 2")
	l, _ := s.expect("Nodes searched")
	if l != "Nodes searched: 181" { // perft(2) of the start position, docs/rules.md
		t.Errorf("%q, want Nodes searched: 181", l)
	}
	s.send("go perft 14")
	s.finish("quit")

	s = startSession(t)
	s.send("go perft 14")
	s.finish() // end of input
}

// TestUSILongLine: a line over the limit is refused with an error that does not echo it, and
// the engine reads on.
func TestUSILongLine(t *testing.T) {
	s := startSession(t)
	long := "position sfen " + strings.Repeat("x", usiMaxLine+10)
	s.send(long, "isready")
	l, before := s.expect("readyok")
	if len(before) != 1 || !strings.HasPrefix(before[0], "info string error") || strings.Contains(before[0], "xxxxxxxx") || len(before[0]) > 200 {
		t.Errorf("before %q: %q, want one short info string error", l, before)
	}
	s.send("go nodes 50")
	best, _ := s.expect("bestmove")
	legalIn(t, bestMove(t, best))
	s.finish("quit")
}

// usiMaxLine is the longest line the server promises to read: 1 MiB.
const usiMaxLine = 1 << 20

// TestUSIPonder follows the USI specification's ponder exchange: after `go ponder` the
// engine searches without answering until ponderhit (then it plays within the limits) or
// stop; `go ponder` never ends by itself, even with a tiny pool or a proven result.
func TestUSIPonder(t *testing.T) {
	s := startSession(t)
	s.send("usi")
	l, before := s.expect("usiok")
	if !strings.Contains(strings.Join(append(before, l), "\n"), "option name USI_Ponder type check") {
		t.Errorf("no USI_Ponder option in %q", before)
	}
	s.send("setoption name USI_Ponder value true", "setoption name USI_Hash value 1", "isready")
	if _, before := s.expect("readyok"); len(before) > 0 {
		t.Errorf("setoption answered %q", before)
	}
	// byoyomi 100 would end a normal search within 100 ms.
	s.send("position startpos moves 2e3d", "go ponder btime 0 wtime 0 byoyomi 100")
	s.quiet(600*time.Millisecond, "bestmove")
	s.send("ponderhit")
	best, _ := s.expect("bestmove")
	legalIn(t, bestMove(t, best), "2e3d")
	// Pondering on a mate (the root is proven at once) still waits.
	s.send("position sfen 4k/5/4P/5/K4 b Gs 1", "go ponder byoyomi 100")
	s.quiet(400*time.Millisecond, "bestmove")
	s.send("stop")
	if best, _ := s.expect("bestmove"); bestMove(t, best) != "G*1b" {
		t.Errorf("%q, want the mate in one G*1b", best)
	}
	s.finish("quit")
}

// tsume checks a `checkmate` answer from sfen: every move legal, each of the attacker's a
// check, the defender mated at the end, in plies plies.
func tsume(t *testing.T, sfen string, answer string, plies int) {
	t.Helper()
	f := strings.Fields(answer)
	if len(f) < 2 || f[0] != "checkmate" {
		t.Fatalf("%s: answer %q, want checkmate MOVES", sfen, answer)
	}
	pos, err := minishogi.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	attacker := pos.SideToMove()
	for i, s := range f[1:] {
		m, err := pos.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %q: move %d: %v", sfen, answer, i+1, err)
		}
		if pos.SideToMove() == attacker && !pos.GivesCheck(m) {
			t.Errorf("%s: %q: move %d %s does not give check", sfen, answer, i+1, s)
		}
		pos.MakeMove(m)
	}
	if pos.SideToMove() == attacker || !pos.InCheck() || len(pos.LegalMoves(nil)) > 0 {
		t.Errorf("%s: %q does not end in checkmate", sfen, answer)
	}
	if len(f)-1 != plies {
		t.Errorf("%s: %q is %d plies, want %d", sfen, answer, len(f)-1, plies)
	}
}

// mateInOne reports whether the side to move has a move after which the opponent has no legal
// move: the brute-force check that a mate is not shorter than claimed.
func mateInOne(pos minishogi.Position) bool {
	for _, m := range pos.LegalMoves(nil) {
		u := pos.MakeMove(m)
		mated := len(pos.LegalMoves(nil)) == 0
		pos.UnmakeMove(m, u)
		if mated {
			return true
		}
	}
	return false
}

// TestUSIGoMate: `go mate` answers `checkmate` with the mating line, `checkmate nomate` when
// the attacker has no check at all, and never `bestmove` (Shogidokoro's USI).
func TestUSIGoMate(t *testing.T) {
	s := startSession(t)
	// Mate in one: G*1b, guarded by the pawn on 1c (engine/eval's TestMates derives it).
	const one = "4k/5/4P/5/K4 b Gs 1"
	s.send("position sfen "+one, "go mate 5000")
	l, before := s.expect("checkmate")
	tsume(t, one, l, 1)
	// Mate in three by R*2a (engine/eval's TestMates); no mate in one, checked here by brute
	// force, so three plies is the shortest.
	const three = "4k/5/5/5/K2R1 b Rg 1"
	pos, _ := minishogi.ParseSFEN(three)
	if mateInOne(pos) {
		t.Fatalf("%s has a mate in one", three)
	}
	s.send("position sfen "+three, "go mate infinite")
	l, more := s.expect("checkmate")
	tsume(t, three, l, 3)
	// From the start Sente has no checking move (its pieces are three ranks from Gote's
	// king), so there is no tsume.
	s.send("position startpos", "go mate 5000")
	if l, _ := s.expect("checkmate"); l != "checkmate nomate" {
		t.Errorf("start position: %q, want checkmate nomate", l)
	}
	for _, l := range append(before, more...) {
		if strings.HasPrefix(l, "bestmove") {
			t.Errorf("go mate answered %q", l)
		}
	}
	s.finish("quit")
}

// TestUSIHashBeyondMemory: a hash larger than the machine can hold is refused with an info
// string, and the engine goes on with the hash it had.
func TestUSIHashBeyondMemory(t *testing.T) {
	if avail := memAvailable(t); avail >= engine.MaxHashMB<<20 {
		t.Skipf("this machine has %d MiB available: USI_Hash's maximum fits", avail>>20)
	}
	s := startSession(t)
	s.send(fmt.Sprintf("setoption name USI_Hash value %d", engine.MaxHashMB), "isready")
	l, before := s.expect("readyok")
	if len(before) != 1 || !strings.HasPrefix(before[0], "info string error") || !strings.Contains(before[0], "USI_Hash") {
		t.Errorf("before %q: %q, want an info string error about USI_Hash", l, before)
	}
	s.send("position startpos", "go nodes 100")
	best, _ := s.expect("bestmove")
	legalIn(t, bestMove(t, best))
	s.finish("quit")
}

// memAvailable reads MemAvailable from /proc/meminfo (Linux), independently of the engine.
func memAvailable(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Skipf("no /proc/meminfo: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		var kb uint64
		if _, err := fmt.Sscanf(line, "MemAvailable: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	t.Fatal("no MemAvailable in /proc/meminfo")
	return 0
}

// garbage is a line a confused GUI, a user at a terminal or line noise might send.
func garbage(r *rand.Rand) string {
	words := []string{"go", "position", "startpos", "sfen", "moves", "setoption", "name", "value",
		"USI_Hash", "Threads", "isready", "stop", "ponderhit", "ponder", "infinite", "mate",
		"perft", "nodes", "movetime", "byoyomi", "btime", "-1", "0", "3", "99999999999999999999",
		"2e3d", "G*1b", "rbsgk/4p/5/P4/KGSBR", "b", "-", "d", "usinewgame", "gameover", "☃",
		"\x00", "\t", "debug", "on", "register", "later"}
	var b strings.Builder
	for n := r.IntN(8); n >= 0; n-- {
		if r.IntN(10) == 0 {
			b.WriteString(string(rune(r.IntN(0x3000))))
		} else {
			b.WriteString(words[r.IntN(len(words))])
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// TestUSIGarbage interleaves random lines with a game and checks that the engine keeps its
// promises: it reads on, answers every isready, and every search it starts ends in a
// bestmove at stop.
func TestUSIGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 1))
	s := startSession(t)
	s.send("setoption name USI_Hash value 1")
	moves := []string{}
	for round := 0; round < 40; round++ {
		// Random lines, of which only the last may start a search (the wait for its
		// bestmove below would otherwise not know which search answered).
		for i := range 4 {
			g := garbage(r)
			if strings.Contains(g, "Hash") || i < 3 && strings.HasPrefix(g, "go ") {
				continue
			}
			if i == 3 && r.IntN(2) == 0 {
				g = "go " + g
			}
			s.send(g)
		}
		s.send("stop", "isready")
		s.expect("readyok")
		s.send(fmt.Sprintf("position startpos moves %s", strings.Join(moves, " ")), "go nodes 50")
		best, _ := s.expect("bestmove")
		m := bestMove(t, best)
		if m == "resign" { // a proven loss (Resign=proven, the default): a new game
			moves = moves[:0]
			continue
		}
		legalIn(t, m, moves...)
		g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
		for _, x := range append(moves, m) {
			g.PlayUSI(x)
		}
		if moves = append(moves, m); g.Result().Over() {
			moves = moves[:0]
		}
	}
	s.finish("quit")
}

// TestUSIGameOverEndsPonder: a game that ends while the engine ponders ends the search (the
// GUI may send gameover without stop), and the engine takes the next game.
func TestUSIGameOverEndsPonder(t *testing.T) {
	s := startSession(t)
	s.send("setoption name USI_Hash value 1", "position startpos moves 2e3d", "go ponder byoyomi 100")
	s.quiet(200*time.Millisecond, "bestmove")
	s.send("gameover lose")
	s.expect("bestmove")
	s.send("usinewgame", "position startpos", "go nodes 100")
	best, _ := s.expect("bestmove")
	legalIn(t, bestMove(t, best))
	s.finish("quit")
}

// FuzzUSISession runs whole sessions of commands through the server and the engine: nothing
// panics, the server returns at the end of input, and every isready before quit is answered.
// Lines that set the hash are dropped, so that a session cannot ask for gigabytes.
func FuzzUSISession(f *testing.F) {
	for _, seed := range []string{
		"usi\nisready\nusinewgame\nposition startpos\ngo infinite\nisready\nd\nstop\nquit\n",
		"position startpos moves 2e3d\ngo ponder byoyomi 10\nponderhit\nisready\n",
		"position sfen 4k/5/4P/5/K4 b Gs 1\ngo mate 1000\nisready\ngo mate infinite\nstop\n",
		"go perft 3\ngo perft 15\nisready\nstop\nsetoption name USI_Ponder value true\ngo nodes 30\n",
		"position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 2e3d 4a3b\ngo btime 100 wtime 100 byoyomi 10\ngameover win\n",
		"go\x00\nposition ☃\n\n\r\nisready\r\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, session string) {
		var kept []string
		ready := 0
		for _, l := range strings.Split(session, "\n") {
			if strings.Contains(strings.ToLower(l), "hash") {
				continue
			}
			kept = append(kept, l)
			f := strings.Fields(l)
			if len(f) > 0 && f[0] == "quit" {
				break
			}
			if len(f) > 0 && f[0] == "isready" {
				ready++
			}
		}
		in := "setoption name USI_Hash value 1\n" + strings.Join(kept, "\n") + "\n"
		var out strings.Builder
		done := make(chan error, 1)
		go func() { done <- usi.NewServer(engine.New(), &out).Serve(strings.NewReader(in)) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Serve: %v", err)
			}
		case <-time.After(patience):
			t.Fatalf("Serve did not return at the end of input %q", in)
		}
		n := 0
		for _, l := range strings.Split(out.String(), "\n") {
			if l == "readyok" {
				n++
			}
		}
		if n != ready {
			t.Errorf("%d readyok for %d isready\ninput %q\noutput %q", n, ready, in, out.String())
		}
	})
}

// TestUSISoak plays short games through the server, as a match runner or a GUI would, with
// random commands between the moves (isready, d, garbage, searches stopped, ponder hits,
// mate searches, perft, options), and checks that the engine's memory stays flat. It logs
// the commands per second and the heap; 500 games (some 45,000 commands; 1,000 held CI's
// test step some two minutes on a loaded machine for no finding the 500 would miss), or 40
// in -short mode.
func TestUSISoak(t *testing.T) {
	games := 500
	if testing.Short() {
		games = 40
	}
	r := rand.New(rand.NewPCG(2026, 12))
	s := startSession(t)
	s.send("usi")
	s.expect("usiok")
	s.send("setoption name USI_Hash value 1", "setoption name MaxPlies value 24", "isready")
	s.expect("readyok")
	commands := 0
	send := func(cmds ...string) {
		s.send(cmds...)
		commands += len(cmds)
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var first, peak uint64
	start := time.Now()
	for game := 0; game < games; game++ {
		send("usinewgame", fmt.Sprintf("setoption name Seed value %d", game))
		var moves []string
		for {
			switch r.IntN(12) {
			case 0:
				send("isready")
				s.expect("readyok")
			case 1:
				send("d")
				s.expect("Checkers:")
			case 2:
				// A garbage line may start a search of its own: stop it and let
				// everything it printed come before readyok.
				send(garbage(r), "stop", "isready")
				s.expect("readyok")
			case 3:
				send(fmt.Sprintf("position startpos moves %s", strings.Join(moves, " ")), "go infinite", "isready")
				s.expect("readyok")
				send("stop")
				s.expect("bestmove")
			case 4:
				send(fmt.Sprintf("position startpos moves %s", strings.Join(moves, " ")), "go ponder byoyomi 10", "ponderhit")
				s.expect("bestmove")
			case 5:
				send(fmt.Sprintf("position startpos moves %s", strings.Join(moves, " ")), "go mate 20")
				s.expect("checkmate")
			case 6:
				send("go perft 2")
				s.expect("Nodes searched")
			case 7:
				send("stop", "ponderhit", "gameover draw")
			}
			send(fmt.Sprintf("position startpos moves %s", strings.Join(moves, " ")), "go nodes 40")
			best, _ := s.expect("bestmove")
			m := bestMove(t, best)
			if m == "resign" {
				break
			}
			legalIn(t, m, moves...)
			moves = append(moves, m)
			g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{MaxPlies: 24})
			for _, x := range moves {
				g.PlayUSI(x)
			}
			if g.Result().Over() {
				break
			}
		}
		send("gameover draw")
		if game == games/10 {
			first = heap()
		}
		if game%(games/10) == 0 {
			peak = max(peak, heap())
		}
	}
	elapsed := time.Since(start)
	last := heap()
	peak = max(peak, last)
	t.Logf("%d games, %d commands in %.1f s: %.0f commands/s; heap after GC %.1f MiB at game %d, %.1f MiB at the end, peak %.1f MiB; peak resident memory of the test process %.1f MiB",
		games, commands, elapsed.Seconds(), float64(commands)/elapsed.Seconds(), float64(first)/(1<<20), games/10, float64(last)/(1<<20), float64(peak)/(1<<20),
		float64(sysmem.PeakRSS())/(1<<20))
	if last > first+1<<20 {
		t.Errorf("the heap grew from %.1f to %.1f MiB over the games", float64(first)/(1<<20), float64(last)/(1<<20))
	}
	s.finish("quit")
}

// TestUSIGoBehindInfinite is issue 33's session: `go infinite`, then `go nodes 10` and `stop`
// while it runs. The stop ends the infinite search (which would never end otherwise), then
// the held go runs: two bestmoves, the input still open.
func TestUSIGoBehindInfinite(t *testing.T) {
	s := startSession(t)
	s.send("setoption name USI_Hash value 1", "position startpos", "go infinite", "go nodes 10", "stop")
	for range 2 {
		best, _ := s.expect("bestmove")
		legalIn(t, bestMove(t, best))
	}
	s.send("isready")
	s.expect("readyok")
	s.finish("quit")
}

// TestUSIPlaysTheWinAtOnce is issue 33's position: Sente's 5e3c (the bishop takes the gold)
// leaves Gote's king on 4a alone, not in check and without a legal move (every square next
// to it is covered: 5a and 4b by the bishop on 3c, 3a and 3b by the gold on 2b, 5b and 4b by
// the silver on 5c), and Gote has nothing in hand: a loss for Gote
// (docs/rules.md#no-legal-move). Fairy-Stockfish confirms it: Gote has no legal move after
// 5e3c. The engine, which proved a mate in 5 starting 2b3a there first, must play and
// report the win in one.
func TestUSIPlaysTheWinAtOnce(t *testing.T) {
	const sfen = "1k1B1/3G1/S1g1R/K1PR1/BP1S1 b - 43"
	fsf := fsfclient.Start(t)
	if err := fsf.Position(sfen, []string{"5e3c"}); err != nil {
		t.Fatal(err)
	}
	perft, err := fsf.Perft(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if perft.Nodes != 0 {
		t.Fatalf("fairy-stockfish counts %d moves for Gote after 5e3c, want none", perft.Nodes)
	}

	s := startSession(t)
	s.send("position sfen "+sfen, "go nodes 20000")
	best, before := s.expect("bestmove")
	if m := bestMove(t, best); m != "5e3c" {
		t.Errorf("bestmove %s, want 5e3c", m)
	}
	if last := before[len(before)-1]; !strings.Contains(last, "score mate 1 ") {
		t.Errorf("last info %q, want score mate 1", last)
	}
	s.finish("quit")
}

// TestUSIEvalFileBounded: setoption EvalFile refuses what it cannot load at once, with one
// short info string, and the engine answers isready right after: /dev/zero (issue 33: read
// whole, the engine stopped answering and grew to 23.6 GB), a FIFO with no writer (opening it
// would wait for ever), sparse gigabytes that start as a network or as linear weights. A file that loads is
// named with its family and sizes: the shipped network is 64×16, as its name says
// (datasets/README.md).
func TestUSIEvalFileBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := dir + "/fifo.nnue"
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := func(name, magic string) string {
		path := dir + "/" + name
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(magic)
		f.Truncate(1 << 30)
		f.Close()
		return path
	}
	s := startSession(t)
	s.send("setoption name USI_Hash value 1", "isready") // isready builds the player (a small one)
	s.expect("readyok")
	for _, c := range []struct{ file, want string }{
		{"/dev/zero", "not a regular file (a device)"},
		{fifo, "not a regular file (a FIFO)"},
		{sparse("huge.nnue", nnue.Magic), "nnue: " + dir + "/huge.nnue: 1073741824 bytes, more than the"},
		{sparse("huge.lin", eval.WeightsMagic), "eval: " + dir + "/huge.lin: 1073741824 bytes, more than the"},
	} {
		t.Run(c.file, func(t *testing.T) {
			boundedtest.Within(t, "setoption EvalFile "+c.file, 16<<20, func() {
				s.send("setoption name EvalFile value "+c.file, "isready")
				l, before := s.expect("readyok")
				if len(before) != 1 || !strings.HasPrefix(before[0], "info string error: ") || !strings.Contains(before[0], c.want) || len(before[0]) > 300 {
					t.Errorf("%s: %q before %q; want one short info string error with %q", c.file, before, l, c.want)
				}
			})
		})
	}
	s.send("setoption name EvalFile value ../datasets/evaluation/fsf5000-64x16.nnue", "isready")
	_, before := s.expect("readyok")
	if len(before) != 1 || !strings.Contains(before[0], "info string EvalFile ../datasets/evaluation/fsf5000-64x16.nnue: family nnue") || !strings.Contains(before[0], "64×2 → 16 → 1") {
		t.Errorf("after loading the shipped network: %q; want an info string with its file, family and sizes", before)
	}
	s.send("go nodes 50")
	best, _ := s.expect("bestmove")
	legalIn(t, bestMove(t, best))
	s.finish("quit")
}
