package usi

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shogilab/shogilab/internal/fsftest"
)

// startMinishogi starts Fairy-Stockfish set to minishogi (StartVariant) and ready for a game.
func startMinishogi(t *testing.T) *Client {
	t.Helper()
	c, err := StartVariant(context.Background(), []string{fsftest.Path(t)}, "minishogi")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	if err := c.NewGame(); err != nil {
		t.Fatal(err)
	}
	return c
}

// startMoves are the 14 legal first moves of minishogi, derived by hand from
// rbsgk/4p/5/P4/KGSBR: king 5e4d; gold 4e4d 4e3d; silver 3e4d 3e3d 3e2d;
// bishop 2e3d 2e4c 2e5b 2e1d; rook 1e1d 1e1c 1e1b (takes the pawn); pawn 5d5c.
var startMoves = []string{
	"5e4d", "4e4d", "4e3d", "3e4d", "3e3d", "3e2d",
	"2e3d", "2e4c", "2e5b", "2e1d", "1e1d", "1e1c", "1e1b", "5d5c",
}

func TestFairyStockfishHandshake(t *testing.T) {
	path := fsftest.Path(t)
	ctx := context.Background()
	var transcript strings.Builder
	var mu sync.Mutex
	c, err := Start(ctx, []string{path}, WithTranscript(lockedWriter{&mu, &transcript}))
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Handshake(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(info.Name, "Fairy-Stockfish") {
		t.Errorf("id name = %q, want it to name Fairy-Stockfish", info.Name)
	}
	v, ok := info.Option("uci_variant") // names are case-insensitive
	if !ok {
		t.Fatal("no UCI_Variant option")
	}
	if v.Type != "combo" || !slices.Contains(v.Vars, "minishogi") {
		t.Errorf("UCI_Variant = %+v, want a combo offering minishogi", v)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"> usi\n", "< usiok\n", "> quit\n"} {
		if !strings.Contains(transcript.String(), want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
}

// TestFairyStockfishScore asks for the verdict on a mate in one worked by hand: in
// 4k/5/4G/5/K4 b G the gold dropped on 1b takes 2a and 2b from the king on 1a and is
// guarded by the gold on 1c, so the last unbounded score is mate in 1 ply.
func TestFairyStockfishScore(t *testing.T) {
	c := startMinishogi(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, err := c.Score(ctx, "4k/5/4G/5/K4 b G 1", 5)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != ScoreMate || got.MateLengthUnknown || got.Mate != 1 || got.Bound != "" {
		t.Errorf("Score = %q; want an exact score mate 1", got.Format())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func TestFairyStockfishPerft(t *testing.T) {
	c := startMinishogi(t)
	ctx := context.Background()
	// Published counts, docs/rules.md#perft (Fairy-Stockfish and shogiops agree).
	tests := []struct {
		name  string
		sfen  string
		depth int
		want  int64
	}{
		{"start", "", 1, 14},
		{"start", "", 2, 181},
		{"start", "", 3, 2512},
		{"bare king", "4k/5/5/P4/KGSBR w - 1", 1, 2},
		{"bare king", "4k/5/5/P4/KGSBR w - 1", 2, 32},
		{"bare king", "4k/5/5/P4/KGSBR w - 1", 3, 112},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/depth=%d", tc.name, tc.depth), func(t *testing.T) {
			if err := c.Position(tc.sfen, nil); err != nil {
				t.Fatal(err)
			}
			got, err := c.Perft(ctx, tc.depth)
			if err != nil {
				t.Fatal(err)
			}
			if got.Nodes != tc.want {
				t.Errorf("%s perft %d = %d, want %d", tc.name, tc.depth, got.Nodes, tc.want)
			}
			if tc.sfen == "" && tc.depth == 1 {
				var moves []string
				for m, n := range got.Moves {
					moves = append(moves, m)
					if n != 1 {
						t.Errorf("perft 1 count of %s = %d, want 1", m, n)
					}
				}
				slices.Sort(moves)
				want := slices.Sorted(slices.Values(startMoves))
				if !slices.Equal(moves, want) {
					t.Errorf("perft 1 moves = %v, want %v", moves, want)
				}
			}
		})
	}
}

// TestFairyStockfishPositionWithMoves checks that `position startpos moves
// 2e3d` reaches the same position as its SFEN, written by hand, and that
// both agree with the 2e3d entry of the start's perft 2 breakdown.
func TestFairyStockfishPositionWithMoves(t *testing.T) {
	c := startMinishogi(t)
	ctx := context.Background()
	if err := c.Position("", nil); err != nil {
		t.Fatal(err)
	}
	d2, err := c.Perft(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := d2.Moves["2e3d"]
	if want == 0 {
		t.Fatalf("perft 2 breakdown has no 2e3d: %v", d2.Moves)
	}
	for _, pos := range []struct {
		sfen  string
		moves []string
	}{
		{"", []string{"2e3d"}},
		{"startpos", []string{"2e3d"}},
		{"rbsgk/4p/5/P1B2/KGS1R w - 2", nil}, // the bishop on 3d, Gote to move
	} {
		t.Run(pos.sfen, func(t *testing.T) {
			if err := c.Position(pos.sfen, pos.moves); err != nil {
				t.Fatal(err)
			}
			got, err := c.Perft(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got.Nodes != want {
				t.Errorf("position %q moves %v: perft 1 = %d, want %d", pos.sfen, pos.moves, got.Nodes, want)
			}
		})
	}
}

func TestFairyStockfishGo(t *testing.T) {
	c := startMinishogi(t)
	ctx := context.Background()
	if err := c.Position("", nil); err != nil {
		t.Fatal(err)
	}
	var last SearchInfo
	bm, err := c.Go(ctx, GoParams{MoveTime: 50 * time.Millisecond}, lastSearchLine(&last))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(startMoves, bm.Move) {
		t.Errorf("bestmove %q is not a legal first move %v", bm.Move, startMoves)
	}
	if !last.HasScore() || last.Depth < 1 || len(last.PV) == 0 || last.PV[0] != bm.Move {
		t.Errorf("last info %+v: want a score, a depth and a pv starting with %s", last, bm.Move)
	}

	// Depth-limited search from a position reached by moves.
	if err := c.Position("", []string{bm.Move}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Go(ctx, GoParams{Depth: 4}, lastSearchLine(&last)); err != nil {
		t.Fatal(err)
	}
	if last.Depth != 4 {
		t.Errorf("go depth 4: last info depth %d", last.Depth)
	}
	if err := c.IsReady(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestFairyStockfishInfiniteStop(t *testing.T) {
	c := startMinishogi(t)
	if err := c.Position("", nil); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bm, err := c.Go(ctx, GoParams{Infinite: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(startMoves, bm.Move) {
		t.Errorf("bestmove %q is not a legal first move", bm.Move)
	}
}

// TestFairyStockfishCancelledGo checks that a cancelled search returns an
// error and leaves the engine ready for the next command.
func TestFairyStockfishCancelledGo(t *testing.T) {
	c := startMinishogi(t)
	if err := c.Position("", nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.Go(ctx, GoParams{Infinite: true}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Go error = %v, want the deadline", err)
	}
	if err := c.IsReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, err := c.Perft(context.Background(), 1)
	if err != nil || got.Nodes != 14 {
		t.Fatalf("perft 1 after a cancelled search = %d, %v; want 14", got.Nodes, err)
	}
}

// The fake engine: the test binary started again with fakeEngineEnv set runs
// TestClientFakeEngineProcess, which plays a scripted engine on stdin/stdout
// (the os/exec TestHelperProcess pattern).
const fakeEngineEnv = "SHOGILAB_USI_FAKE_ENGINE"

func startFake(t *testing.T, scenario string, opts ...ClientOption) *Client {
	t.Helper()
	env := append(os.Environ(), fakeEngineEnv+"="+scenario)
	opts = append([]ClientOption{WithEnv(env), WithName("fake-" + scenario)}, opts...)
	c, err := Start(context.Background(), []string{os.Args[0], "-test.run=^TestClientFakeEngineProcess$"}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClientFakeEngineProcess(t *testing.T) {
	scenario := os.Getenv(fakeEngineEnv)
	if scenario == "" {
		t.Skip("runs only as the fake engine started by the other tests")
	}
	os.Exit(runFakeEngine(scenario))
}

// runFakeEngine plays one scenario:
//   - "good": a well-behaved engine; `go` prints info lines and a bestmove;
//     `go perft N` prints two moves, and a wrong total when N is 9.
//   - "dies-on-go": like good, but `go` writes to stderr and exits with 3.
//   - "silent": answers nothing and never exits on its own, not even at EOF.
//   - "silent-search": answers usi and isready, but `go` and `stop` get nothing.
//   - "slow-ready": like good, but answers isready 400 ms late.
func runFakeEngine(scenario string) int {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(lines ...string) {
		for _, l := range lines {
			fmt.Fprintln(out, l)
		}
		out.Flush()
	}
	for in.Scan() {
		cmd := in.Text()
		if scenario == "silent" {
			continue
		}
		switch {
		case cmd == "usi":
			say("id name Fake Engine 1.0", "id author shogilab tests",
				"option name USI_Hash type spin default 16 min 1 max 1024",
				"option name Style type combo default Normal var Solid var Normal var Risky",
				"usiok")
		case cmd == "isready":
			if scenario == "slow-ready" {
				time.Sleep(400 * time.Millisecond)
			}
			say("info string loading", "readyok")
		case cmd == "quit":
			return 0
		case strings.HasPrefix(cmd, "go perft"):
			total := "7"
			if cmd == "go perft 9" {
				total = "8"
			}
			say("2e3d: 3", "5d5c: 4", "", "Nodes searched: "+total)
		case strings.HasPrefix(cmd, "go"):
			switch scenario {
			case "dies-on-go":
				fmt.Fprintln(os.Stderr, "fake: internal error")
				return 3
			case "silent-search":
				continue
			}
			say("info depth 1 score cp 10 nodes 5 pv 5d5c",
				"info depth 2 seldepth 3 score mate -2 nodes 40 pv 2e3d 4a3b",
				"info string done",
				"bestmove 2e3d ponder 4a3b")
		}
	}
	if scenario == "silent" {
		time.Sleep(time.Hour) // ignore EOF too: only a kill ends it
	}
	return 0
}

// TestClientSetUpReady: the first isready, after the options, may take as long as the
// engine's start; later ones only as long as a response.
func TestClientSetUpReady(t *testing.T) {
	c := startFake(t, "slow-ready", WithStartupTimeout(5*time.Second), WithResponseTimeout(100*time.Millisecond))
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Handshake(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.SetUpReady(ctx); err != nil {
		t.Errorf("SetUpReady with a 5 s startup timeout, readyok after 400 ms: %v", err)
	}
	if err := c.IsReady(ctx); !errors.Is(err, ErrTimeout) {
		t.Errorf("IsReady with a 100 ms response timeout, readyok after 400 ms: %v, want ErrTimeout", err)
	}
}

func TestClientFakeGood(t *testing.T) {
	c := startFake(t, "good")
	ctx := context.Background()
	info, err := c.Handshake(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := EngineInfo{
		Name:   "Fake Engine 1.0",
		Author: "shogilab tests",
		Options: []Option{
			{Name: "USI_Hash", Type: "spin", Default: "16", Min: 1, Max: 1024},
			{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}},
		},
	}
	if !reflect.DeepEqual(info, want) {
		t.Errorf("Handshake = %+v, want %+v", info, want)
	}
	if err := c.IsReady(ctx); err != nil {
		t.Fatal(err)
	}
	var last SearchInfo
	bm, err := c.Go(ctx, GoParams{MoveTime: 10 * time.Millisecond}, lastSearchLine(&last))
	if err != nil {
		t.Fatal(err)
	}
	if bm.Move != "2e3d" || bm.Ponder != "4a3b" {
		t.Errorf("bestmove %q ponder %q, want 2e3d ponder 4a3b", bm.Move, bm.Ponder)
	}
	if last.Kind != ScoreMate || last.Mate != -2 || last.Depth != 2 || !slices.Equal(last.PV, []string{"2e3d", "4a3b"}) {
		t.Errorf("last info = %+v, want the depth-2 line (the info string is not a search line)", last)
	}
	p, err := c.Perft(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if p.Nodes != 7 || !reflect.DeepEqual(p.Moves, map[string]int64{"2e3d": 3, "5d5c": 4}) {
		t.Errorf("Perft = %+v", p)
	}
	if _, err := c.Perft(ctx, 9); err == nil || !strings.Contains(err.Error(), "add up to 7 but the total is 8") {
		t.Errorf("Perft with a wrong total: err = %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close of an engine that quits: %v", err)
	}
}

func TestClientEngineDiesMidGame(t *testing.T) {
	c := startFake(t, "dies-on-go")
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Handshake(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Position("", []string{"2e3d"}); err != nil {
		t.Fatal(err)
	}
	_, err := c.Go(ctx, GoParams{Depth: 3}, nil)
	if err == nil {
		t.Fatal("Go succeeded against an engine that died")
	}
	for _, want := range []string{"usi: fake-dies-on-go exited while waiting for bestmove", "exit status 3", "fake: internal error"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// Every later command fails at once and names the engine.
	if err := c.Position("", nil); err == nil || !strings.Contains(err.Error(), "fake-dies-on-go exited before position") {
		t.Errorf("Position after death: %v", err)
	}
	if err := c.IsReady(ctx); err == nil || !strings.Contains(err.Error(), "fake-dies-on-go exited") {
		t.Errorf("IsReady after death: %v", err)
	}
}

func TestClientSilentEngineTimesOut(t *testing.T) {
	c := startFake(t, "silent", WithStartupTimeout(200*time.Millisecond), WithQuitGrace(200*time.Millisecond))
	_, err := c.Handshake(context.Background())
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "usi: fake-silent: waiting for usiok") {
		t.Errorf("Handshake of a silent engine: %v", err)
	}
	err = c.Close()
	if err == nil || !strings.Contains(err.Error(), "did not quit within 200ms; killed") {
		t.Errorf("Close of an engine that ignores quit: %v", err)
	}
	select {
	case <-c.exited:
	default:
		t.Error("the process is not reaped after Close")
	}
}

func TestClientSilentSearch(t *testing.T) {
	c := startFake(t, "silent-search", WithResponseTimeout(300*time.Millisecond))
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Handshake(ctx); err != nil {
		t.Fatal(err)
	}
	// A timed search is bounded by its time plus the response timeout even
	// with no ctx deadline; the stop that follows gets no answer either.
	_, err := c.Go(ctx, GoParams{MoveTime: 50 * time.Millisecond}, nil)
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "waiting for bestmove after stop") {
		t.Errorf("Go on an engine that never answers: %v", err)
	}
	// A depth search is bounded by the ctx.
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := c.Go(cctx, GoParams{Depth: 30}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Go with a ctx deadline: %v", err)
	}
}

// TestClientCloseWhileWaiting checks that Close from another goroutine ends
// a Go that would otherwise wait forever.
func TestClientCloseWhileWaiting(t *testing.T) {
	c := startFake(t, "silent-search", WithQuitGrace(100*time.Millisecond))
	if _, err := c.Handshake(context.Background()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		_, err := c.Go(context.Background(), GoParams{Infinite: true}, nil)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	c.Close()
	if err := <-done; err == nil {
		t.Error("Go returned no error after Close")
	}
}

func TestClientMissingEngine(t *testing.T) {
	_, err := Start(context.Background(), []string{"/nonexistent/usi-engine"})
	if err == nil || !strings.Contains(err.Error(), "usi: cannot start usi-engine") {
		t.Errorf("Start of a missing engine: %v", err)
	}
}

// lastSearchLine returns an info callback for Client.Go that keeps in last the last line with
// a score or a pv (not an info string).
func lastSearchLine(last *SearchInfo) func(SearchInfo) {
	return func(in SearchInfo) {
		if in.HasScore() || len(in.PV) > 0 {
			*last = in
		}
	}
}
