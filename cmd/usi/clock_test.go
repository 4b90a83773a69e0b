package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// The test binary plays two more parts, chosen by this variable: the engine (this command's
// main), and the load of a busy machine (a goroutine spinning on each core).
const roleVar = "SHOGILAB_USI_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleVar) {
	case "engine":
		main()
	case "busy":
		for range runtime.GOMAXPROCS(0) - 1 {
			go spin()
		}
		spin()
	}
	os.Exit(m.Run())
}

func spin() {
	for x := 0; ; x++ {
	}
}

// TestByoyomiClock plays moves at `byoyomi 50` on a loaded machine, with a busy process
// spinning a goroutine on every core, and one and two search threads; the engine is a process
// of its own, timed as a GUI times it: from writing `go` to reading `bestmove`. The engine
// holds MoveOverhead (30 ms by default) back from the byoyomi for its own latency, so every
// answer must come within the byoyomi (issue 33: 45 of 200 moves came late with two threads,
// up to 79 ms, before the search's clock counted tree reuse). A protocol deadline the engine
// promises, not a speed: 200 moves for each thread count (10 s each), 40 with -short.
func TestByoyomiClock(t *testing.T) {
	const byoyomi = 50 * time.Millisecond
	moves := 200
	if testing.Short() {
		moves = 40
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	busy := exec.Command(self)
	busy.Env = append(os.Environ(), roleVar+"=busy")
	if err := busy.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		busy.Process.Kill()
		busy.Wait()
	}()
	for _, threads := range []int{1, 2} {
		t.Run(fmt.Sprintf("threads %d", threads), func(t *testing.T) {
			played := playClocked(t, self, threads, moves, fmt.Sprintf("go btime 0 wtime 0 byoyomi %d", byoyomi.Milliseconds()))
			var late []string
			var took []time.Duration
			for i, m := range played {
				took = append(took, m.took)
				if m.took > byoyomi {
					late = append(late, fmt.Sprintf("move %d: %v (the engine's last info: %s)", i+1, m.took.Round(time.Millisecond/10), m.info))
				}
			}
			sorted := slices.Sorted(slices.Values(took))
			t.Logf("%d moves at byoyomi %v: median %v, 90th percentile %v, slowest %v", len(took), byoyomi,
				sorted[len(sorted)/2].Round(time.Millisecond/10), sorted[len(sorted)*9/10].Round(time.Millisecond/10), sorted[len(sorted)-1].Round(time.Millisecond/10))
			if len(late) > 0 {
				t.Errorf("%d of %d moves later than the byoyomi of %v:\n%s", len(late), len(took), byoyomi, strings.Join(late, "\n"))
			}
		})
	}
}

// clockedMove is a move as the GUI saw it: the time from writing go to reading bestmove, and
// the engine's last info line before it (its `time` is the engine's own count from reading
// the go to the search's end).
type clockedMove struct {
	took time.Duration
	info string
}

// playClocked starts the engine with the given threads and plays games against itself, each
// move searched by the go command, until moves moves are played.
func playClocked(t *testing.T, self string, threads, moves int, goCmd string) []clockedMove {
	t.Helper()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), roleVar+"=engine")
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
	defer func() {
		in.Close()
		cmd.Wait()
	}()
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(cmds ...string) {
		if _, err := io.WriteString(in, strings.Join(cmds, "\n")+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	var lastInfo string // the last line before the one expected
	expect := func(prefix string) string {
		timeout := time.After(20 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the engine's output ended before %q", prefix)
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
				lastInfo = l
			case <-timeout:
				t.Fatalf("no %q from the engine", prefix)
			}
		}
	}
	send(fmt.Sprintf("setoption name Threads value %d", threads), "setoption name USI_Hash value 64", "isready")
	expect("readyok")
	var took []clockedMove
	var played []string
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
	for len(took) < moves {
		send("position startpos moves " + strings.Join(played, " "))
		start := time.Now()
		send(goCmd)
		best := strings.Fields(expect("bestmove"))[1]
		info, _, _ := strings.Cut(lastInfo, " pv ")
		took = append(took, clockedMove{time.Since(start), info})
		if best != "resign" {
			if err := g.PlayUSI(best); err != nil {
				t.Fatalf("bestmove %s after %v: %v", best, played, err)
			}
			played = append(played, best)
		}
		if best == "resign" || g.Result().Over() {
			send("usinewgame")
			played, g = nil, minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
		}
	}
	send("quit")
	return took
}
