package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
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
	if os.Getenv("SHOGILAB_DEADLINE_TESTS") == "" {
		// A deadline on a loaded machine that the test loads itself: beside another
		// package's tests (go test ./... runs two at once on two cores) the engine gets too
		// little CPU to mean anything. .ci/run runs it alone with this variable set.
		t.Skip("a deadline test: run it alone with SHOGILAB_DEADLINE_TESTS=1 (as .ci/run does)")
	}
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
			played := playClocked(t, self, threads, moves, usi.GoParams{Byoyomi: byoyomi})
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
// the engine's last info line before it, without its pv (its `time` is the engine's own
// count from reading the go to the search's end).
type clockedMove struct {
	took time.Duration
	info string
}

// playClocked starts the engine with the given threads, through the USI client, and plays
// games against itself, each move searched with the go parameters, until moves moves are
// played.
func playClocked(t *testing.T, self string, threads, moves int, goParams usi.GoParams) []clockedMove {
	t.Helper()
	ctx := context.Background()
	c, err := usi.Start(ctx, []string{self}, usi.WithEnv(append(os.Environ(), roleVar+"=engine")),
		usi.WithResponseTimeout(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Handshake(ctx); err != nil {
		t.Fatal(err)
	}
	for _, o := range [][2]string{{"Threads", fmt.Sprint(threads)}, {"USI_Hash", "64"}} {
		if err := c.SetOption(o[0], o[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SetUpReady(ctx); err != nil {
		t.Fatal(err)
	}
	var took []clockedMove
	var played []string
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
	for len(took) < moves {
		if err := c.Position("", played); err != nil {
			t.Fatal(err)
		}
		var last usi.SearchInfo
		start := time.Now()
		bm, err := c.Go(ctx, goParams, func(in usi.SearchInfo) { last = in })
		if err != nil {
			t.Fatal(err)
		}
		last.PV = nil
		took = append(took, clockedMove{time.Since(start), last.Format()})
		best := bm.Move
		if best != "resign" {
			if err := g.PlayUSI(best); err != nil {
				t.Fatalf("bestmove %s after %v: %v", best, played, err)
			}
			played = append(played, best)
		}
		if best == "resign" || g.Result().Over() {
			if err := c.NewGame(); err != nil {
				t.Fatal(err)
			}
			played, g = nil, minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
		}
	}
	return took
}
