package usi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeEngine searches until its context is done (or, with nodes, at once) and counts
// what it was asked, for the server's side of the protocol alone.
type fakeEngine struct {
	mu     sync.Mutex
	events []string
}

func (f *fakeEngine) log(e string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, e)
}

func (f *fakeEngine) Name() string                                { return "fake" }
func (f *fakeEngine) Author() string                              { return "tests" }
func (f *fakeEngine) Options() []Option                           { return nil }
func (f *fakeEngine) SetOption(name, value string) error          { return nil }
func (f *fakeEngine) NewGame()                                    { f.log("usinewgame") }
func (f *fakeEngine) SetPosition(string, []string) error          { f.log("position"); return nil }
func (f *fakeEngine) Display() string                             { return "board" }
func (f *fakeEngine) Perft(context.Context, int, io.Writer) error { return nil }

func (f *fakeEngine) Go(ctx context.Context, p GoParams, info func(SearchInfo)) (BestMove, error) {
	f.log(fmt.Sprintf("go infinite=%v nodes=%d", p.Infinite, p.Nodes))
	if p.Nodes == 0 {
		<-ctx.Done()
	}
	return BestMove{Move: "2e3d"}, nil
}

// fakeMater is a fakeEngine that answers go mate after its context is done.
type fakeMater struct{ fakeEngine }

func (f *fakeMater) Mate(ctx context.Context, info func(SearchInfo)) ([]string, bool, error) {
	<-ctx.Done()
	return nil, false, nil
}

// serve runs the commands through a server and returns its output lines.
func serve(t *testing.T, e Engine, commands ...string) []string {
	t.Helper()
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- NewServer(e, &out).Serve(strings.NewReader(strings.Join(commands, "\n") + "\n")) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("Serve did not return")
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

func TestGoMateNotImplemented(t *testing.T) {
	lines := serve(t, &fakeEngine{}, "position startpos", "go mate 1000", "isready")
	if strings.Join(lines, "|") != "checkmate notimplemented|readyok" {
		t.Errorf("got %q", lines)
	}
}

// TestGoMateTimeout: a mate search ended by its time or by stop answers checkmate timeout.
func TestGoMateTimeout(t *testing.T) {
	lines := serve(t, &fakeMater{}, "go mate 1", "isready")
	if strings.Join(lines, "|") != "checkmate timeout|readyok" && strings.Join(lines, "|") != "readyok|checkmate timeout" {
		t.Errorf("go mate 1: %q", lines)
	}
	// quit stops the infinite search; the answer comes before Serve returns.
	lines = serve(t, &fakeMater{}, "go mate infinite", "quit")
	if strings.Join(lines, "|") != "checkmate timeout" {
		t.Errorf("go mate infinite, quit: %q", lines)
	}
}

// TestQueueBound: commands beyond maxQueued that arrive during a search are dropped with
// an info string; the ones within run after it, in order; unknown ones are refused at once.
func TestQueueBound(t *testing.T) {
	e := &fakeEngine{}
	cmds := []string{"go infinite", "frobnicate"}
	for range maxQueued + 3 {
		cmds = append(cmds, "position startpos")
	}
	lines := serve(t, e, append(cmds, "isready", "stop", "go nodes 1")...)
	want := []string{
		`info string error: unknown command "frobnicate"`,
		fmt.Sprintf(`info string error: %d commands wait for the search to end; "position" dropped`, maxQueued),
		fmt.Sprintf(`info string error: %d commands wait for the search to end; "position" dropped`, maxQueued),
		fmt.Sprintf(`info string error: %d commands wait for the search to end; "position" dropped`, maxQueued),
		"readyok", "bestmove 2e3d", "bestmove 2e3d",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if n := strings.Count(strings.Join(e.events, "|"), "position"); n != maxQueued {
		t.Errorf("%d positions set, want %d", n, maxQueued)
	}
	if last := e.events[len(e.events)-1]; last != "go infinite=false nodes=1" {
		t.Errorf("last event %q: the go after stop did not run last", last)
	}
}

// TestStopReachesSearchThatWaitsForIt: a go that arrives while a search runs waits for that
// search, and so does a stop behind it, when the running search ends by itself. A search that
// ends only on stop takes the stop itself: otherwise neither search would ever answer (issue
// 33: `go infinite`, `go nodes 10`, `stop` left the engine silent until quit). Each go gets
// its bestmove, in order.
func TestStopReachesSearchThatWaitsForIt(t *testing.T) {
	for _, first := range []string{"go infinite", "go ponder nodes 5", "go", "go btime 0 wtime 0", "go depth 3"} {
		t.Run(first, func(t *testing.T) {
			e := &fakeEngine{}
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan error, 1)
			go func() {
				done <- NewServer(e, outW).Serve(inR)
				outW.Close()
			}()
			lines := make(chan string, 16)
			go func() {
				sc := bufio.NewScanner(outR)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			// The input stays open: the server may not count on its end to stop the search.
			if _, err := io.WriteString(inW, first+"\ngo nodes 10\nstop\n"); err != nil {
				t.Fatal(err)
			}
			for i := range 2 {
				select {
				case l := <-lines:
					if l != "bestmove 2e3d" {
						t.Fatalf("line %d: %q, want a bestmove", i+1, l)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("%d bestmoves after %s, go nodes 10, stop; want 2", i, first)
				}
			}
			inW.Close()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(e.events, "|"); got != "go infinite=true nodes=0|go infinite=false nodes=10" &&
				got != "go infinite=false nodes=0|go infinite=false nodes=10" {
				t.Errorf("the engine was asked %q", got)
			}
		})
	}
}
