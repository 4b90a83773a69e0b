package usi

// This file is the client side of USI: it drives an external engine process
// (Fairy-Stockfish, gnuminishogi, or our own cmd/usi) over its stdin and stdout.
//
// Protocol reference: the USI specification by Tord Romstad, and the
// Fairy-Stockfish extensions it follows for variants (`setoption name
// UCI_Variant value minishogi`) and for `go perft N`.
//
// Design: one goroutine reads the engine's stdout and hands every line to a
// channel; the channel is closed when the engine exits, after its exit status
// is known. Every method that waits for an answer selects on that channel, a
// context and (for the quick commands) a response timeout, so a dead or silent
// engine gives an error that names the engine and what the client waited for,
// never a hang.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Defaults for the client's timeouts. The startup timeout bounds the
// handshake, which may include loading a large network or opening book (and,
// for a loaded machine, starting the process). The response timeout bounds
// commands a healthy engine answers at once (isready, stop). The quit grace is
// how long Close waits after `quit` before it kills the process.
const (
	DefaultStartupTimeout  = 30 * time.Second
	DefaultResponseTimeout = 10 * time.Second
	DefaultQuitGrace       = 2 * time.Second
)

// stderrTailBytes is how much of the engine's stderr is kept for error
// messages: enough for a crash message, bounded so a chatty engine cannot
// grow memory.
const stderrTailBytes = 2048

// Client is a running external USI engine.
//
// A Client is driven by one goroutine at a time; the exceptions are Stop,
// which may be called while another goroutine waits in Go, and Close, which
// may be called from any goroutine and makes a waiting call return.
type Client struct {
	name            string
	startupTimeout  time.Duration
	responseTimeout time.Duration
	quitGrace       time.Duration

	cmd     *exec.Cmd
	lines   chan string   // engine stdout, closed after the engine exited
	exited  chan struct{} // closed when exitErr is set
	exitErr error         // the process's exit status, valid after exited is closed

	closing   chan struct{} // closed by Close: the reader drops lines nobody will read
	closeOnce sync.Once
	closeErr  error

	writeMu sync.Mutex // serialises stdin writes
	stdin   io.WriteCloser
	stderr  *tailBuffer

	// A mutex of its own, so that the reader goroutine can log while a
	// stdin write blocks on an engine that is busy writing.
	transcriptMu sync.Mutex
	transcript   io.Writer
}

// ClientOption configures Start.
type ClientOption func(*clientConfig)

type clientConfig struct {
	name            string
	startupTimeout  time.Duration
	responseTimeout time.Duration
	quitGrace       time.Duration
	transcript      io.Writer
	env             []string
	dir             string
}

// WithName sets the name used in error messages; by default it is the base
// name of argv[0] (for example "fairy-stockfish").
func WithName(name string) ClientOption { return func(c *clientConfig) { c.name = name } }

// WithStartupTimeout sets how long Handshake waits for `usiok`.
func WithStartupTimeout(d time.Duration) ClientOption {
	return func(c *clientConfig) { c.startupTimeout = d }
}

// WithResponseTimeout sets how long IsReady waits for `readyok` and Go for
// the bestmove after a `stop`, and the margin added to a timed search in Go.
func WithResponseTimeout(d time.Duration) ClientOption {
	return func(c *clientConfig) { c.responseTimeout = d }
}

// WithQuitGrace sets how long Close waits for the engine to exit after `quit`
// before it kills the process.
func WithQuitGrace(d time.Duration) ClientOption { return func(c *clientConfig) { c.quitGrace = d } }

// WithTranscript logs every line sent (prefixed "> ") and received
// (prefixed "< ") to w. Writes to w are serialised by the client.
func WithTranscript(w io.Writer) ClientOption { return func(c *clientConfig) { c.transcript = w } }

// WithEnv sets the engine's environment (as exec.Cmd.Env: nil inherits ours).
func WithEnv(env []string) ClientOption { return func(c *clientConfig) { c.env = env } }

// WithDir sets the engine's working directory.
func WithDir(dir string) ClientOption { return func(c *clientConfig) { c.dir = dir } }

// Start runs the engine argv[0] with arguments argv[1:]. The context bounds
// the life of the process: when it is done the engine is killed. Start does
// not talk to the engine; call Handshake next.
func Start(ctx context.Context, argv []string, opts ...ClientOption) (*Client, error) {
	if len(argv) == 0 || argv[0] == "" {
		panic("usi: Start needs a command")
	}
	cfg := clientConfig{
		name:            filepath.Base(argv[0]),
		startupTimeout:  DefaultStartupTimeout,
		responseTimeout: DefaultResponseTimeout,
		quitGrace:       DefaultQuitGrace,
	}
	for _, o := range opts {
		o(&cfg)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = cfg.env
	cmd.Dir = cfg.dir
	// A grandchild that inherited stderr must not keep Wait (and so Close)
	// waiting after the engine itself has gone.
	cmd.WaitDelay = cfg.quitGrace
	stderr := &tailBuffer{limit: stderrTailBytes}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("usi: %s: %w", cfg.name, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("usi: %s: %w", cfg.name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("usi: cannot start %s: %w", cfg.name, err)
	}
	c := &Client{
		name:            cfg.name,
		startupTimeout:  cfg.startupTimeout,
		responseTimeout: cfg.responseTimeout,
		quitGrace:       cfg.quitGrace,
		cmd:             cmd,
		lines:           make(chan string, 64),
		exited:          make(chan struct{}),
		closing:         make(chan struct{}),
		stdin:           stdin,
		transcript:      cfg.transcript,
		stderr:          stderr,
	}
	go c.readLoop(stdout)
	return c, nil
}

// StartVariant starts an engine of many variants, such as Fairy-Stockfish, set to play one:
// Start, Handshake, `setoption name UCI_Variant value VARIANT` (Fairy-Stockfish's extension)
// and the first isready (SetUpReady). On an error the engine is closed.
func StartVariant(ctx context.Context, argv []string, variant string, opts ...ClientOption) (*Client, error) {
	c, err := Start(ctx, argv, opts...)
	if err != nil {
		return nil, err
	}
	if _, err := c.Handshake(ctx); err != nil {
		c.Close()
		return nil, err
	}
	if err := c.SetOption("UCI_Variant", variant); err != nil {
		c.Close()
		return nil, err
	}
	if err := c.SetUpReady(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Name is the engine's name as used in error messages.
func (c *Client) Name() string { return c.name }

// readLoop forwards the engine's stdout line by line, then reaps the process.
// cmd.Wait must follow the last read from stdout (os/exec closes the pipe), so
// it runs here.
func (c *Client) readLoop(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20) // a long pv or option list fits
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		c.log("< ", line)
		select {
		case c.lines <- line:
		case <-c.closing:
		}
	}
	if err := sc.Err(); err != nil {
		// Unread output stays in the pipe; the process may block writing it,
		// so it is killed rather than waited for forever.
		_ = c.cmd.Process.Kill()
	}
	c.exitErr = c.cmd.Wait()
	close(c.exited)
	close(c.lines)
}

func (c *Client) log(prefix, line string) {
	if c.transcript == nil {
		return
	}
	c.transcriptMu.Lock()
	defer c.transcriptMu.Unlock()
	fmt.Fprintf(c.transcript, "%s%s\n", prefix, line)
}

// send writes one command line to the engine.
func (c *Client) send(line string) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.log("> ", line)
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		select {
		case <-c.exited:
			return c.exitError("before " + firstWord(line))
		default:
			return fmt.Errorf("usi: %s: sending %q: %w", c.name, firstWord(line), err)
		}
	}
	return nil
}

// exitError describes the engine's exit; doing says what the client was
// doing, for example "waiting for bestmove". Call it only after exited is
// closed.
func (c *Client) exitError(doing string) error {
	status := "exit status 0"
	if c.exitErr != nil {
		status = c.exitErr.Error()
	}
	if tail := c.stderr.String(); tail != "" {
		status += "; stderr: " + tail
	}
	return fmt.Errorf("usi: %s exited %s: %s", c.name, doing, status)
}

// ErrTimeout is wrapped by the errors of calls that gave up waiting for the
// engine because their response timeout passed.
var ErrTimeout = errors.New("no answer in time")

// waitLine waits for a line for which done returns true, handing every line
// (including that one) to handle first when handle is not nil. timeout of 0
// means no timeout beyond ctx. what names the awaited answer in errors.
func (c *Client) waitLine(ctx context.Context, timeout time.Duration, what string, handle func(string) (done bool, err error)) error {
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return c.exitError("while waiting for " + what)
			}
			done, err := handle(line)
			if err != nil {
				return fmt.Errorf("usi: %s: %w", c.name, err)
			}
			if done {
				return nil
			}
		case <-expire:
			return fmt.Errorf("usi: %s: waiting for %s: %w after %v", c.name, what, ErrTimeout, timeout)
		case <-ctx.Done():
			return fmt.Errorf("usi: %s: waiting for %s: %w", c.name, what, ctx.Err())
		case <-c.closing:
			return fmt.Errorf("usi: %s: closed while waiting for %s", c.name, what)
		}
	}
}

// EngineInfo is what an engine says about itself between `usi` and `usiok`.
type EngineInfo struct {
	Name    string   // from `id name`
	Author  string   // from `id author`
	Options []Option // from `option` lines, in the engine's order
}

// Option returns the option with the given name and whether it exists.
// USI option names are case-insensitive.
func (e EngineInfo) Option(name string) (Option, bool) {
	for _, o := range e.Options {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return Option{}, false
}

// Handshake sends `usi` and collects the engine's id and options until `usiok`.
func (c *Client) Handshake(ctx context.Context) (EngineInfo, error) {
	var info EngineInfo
	if err := c.send("usi"); err != nil {
		return info, err
	}
	err := c.waitLine(ctx, c.startupTimeout, "usiok", func(line string) (bool, error) {
		switch {
		case line == "usiok":
			return true, nil
		case strings.HasPrefix(line, "id name "):
			info.Name = strings.TrimSpace(strings.TrimPrefix(line, "id name "))
		case strings.HasPrefix(line, "id author "):
			info.Author = strings.TrimSpace(strings.TrimPrefix(line, "id author "))
		case strings.HasPrefix(line, "option "):
			// An option line we cannot read is the engine's business until
			// someone sets that option; skip it rather than fail the handshake.
			if opt, err := ParseOption(line); err == nil {
				info.Options = append(info.Options, opt)
			}
		}
		return false, nil
	})
	return info, err
}

// SetOption sends `setoption name NAME value VALUE`, or `setoption name NAME`
// when value is empty (a button). USI gives no answer; follow with IsReady to
// know the engine has applied it.
func (c *Client) SetOption(name, value string) error {
	return c.send(setOptionLine(name, value))
}

// IsReady sends `isready` and waits for `readyok`, discarding other lines
// (engines may print `info string` while loading).
func (c *Client) IsReady(ctx context.Context) error {
	if err := c.send("isready"); err != nil {
		return err
	}
	return c.waitLine(ctx, c.responseTimeout, "readyok", func(line string) (bool, error) {
		return line == "readyok", nil
	})
}

// SetUpReady is IsReady for the first `isready` after the handshake and the
// options, which belongs to the engine's start: setting options can allocate
// tables (a hash, a network) and the first `usinewgame` clears them, so the
// answer is bounded by the startup timeout, not the response timeout (on a
// loaded machine Fairy-Stockfish took over 10 s to answer it).
func (c *Client) SetUpReady(ctx context.Context) error {
	if err := c.send("isready"); err != nil {
		return err
	}
	return c.waitLine(ctx, c.startupTimeout, "readyok", func(line string) (bool, error) {
		return line == "readyok", nil
	})
}

// NewGame sends `usinewgame`.
func (c *Client) NewGame() error { return c.send("usinewgame") }

// Position sends `position startpos` (when sfen is empty or "startpos") or
// `position sfen SFEN`, followed by `moves ...` when moves is not empty.
func (c *Client) Position(sfen string, moves []string) error {
	return c.send(positionLine(sfen, moves))
}

// timeBudget is the longest a search within p's clock limits may take, or 0
// when p limits no time (depth, nodes, infinite, or nothing). An engine never
// thinks longer than its whole clock plus one increment, so the larger clock
// bounds either side.
func (p GoParams) timeBudget() time.Duration {
	if p.Infinite {
		return 0
	}
	return p.MoveTime + p.Byoyomi + max(p.BTime, p.WTime) + max(p.BInc, p.WInc)
}

// untilStop reports whether a search within p ends only on stop: `go infinite`, `go
// ponder` (until ponderhit), `go mate infinite`, or a `go` with neither a node count nor a
// time (a depth alone does not count: a tree search ignores it).
func (p GoParams) untilStop() bool {
	if p.Mate {
		return p.Infinite || p.MoveTime == 0
	}
	return p.Infinite || p.Ponder || p.Nodes == 0 && p.timeBudget() == 0
}

// Go starts a search and waits for `bestmove`. The wait is bounded by ctx
// and, when p limits time (movetime, byoyomi or clocks), also by that time
// plus the response timeout, so an engine that ignores its clock is caught.
// A search limited only by depth or nodes, or an infinite one, needs a ctx
// deadline or a Stop from another goroutine.
//
// When the wait ends without a bestmove the client sends `stop` and waits up
// to the response timeout for the bestmove so the engine is ready for the
// next command; the error says why the search was cut short. A mate search
// (p.Mate) is answered with `checkmate`, and a perft (p.Perft) with counts, not
// `bestmove`: both are refused (Perft counts).
//
// Every info line the engine sends before its bestmove goes to info, when not
// nil, as Engine.Go sends them to the server; a line that does not parse is
// skipped.
func (c *Client) Go(ctx context.Context, p GoParams, info func(SearchInfo)) (BestMove, error) {
	var res BestMove
	switch {
	case p.Mate:
		return res, fmt.Errorf("usi: %s: go mate is answered with checkmate, which Go does not read", c.name)
	case p.Perft > 0:
		return res, fmt.Errorf("usi: %s: go perft is answered with counts: call Perft", c.name)
	}
	if err := c.send(p.Format()); err != nil {
		return res, err
	}
	collect := func(line string) (bool, error) {
		switch firstWord(line) {
		case "bestmove":
			bm, err := parseBestMove(line)
			if err != nil {
				return false, err
			}
			res = bm
			return true, nil
		case "info":
			if in, err := ParseInfo(line); err == nil && info != nil {
				info(in)
			}
		}
		return false, nil
	}
	var timeout time.Duration
	if b := p.timeBudget(); b > 0 {
		timeout = b + c.responseTimeout
	}
	err := c.waitLine(ctx, timeout, "bestmove", collect)
	if err == nil {
		return res, nil
	}
	select {
	case <-c.exited:
		return res, err
	case <-c.closing:
		return res, err
	default:
	}
	// Ask the engine to finish, so that a later command is not mistaken for
	// part of this search; its answer is discarded with the search.
	if serr := c.send("stop"); serr == nil {
		if werr := c.waitLine(context.Background(), c.responseTimeout, "bestmove after stop", collect); werr != nil {
			return BestMove{}, fmt.Errorf("%w; then %w", err, werr)
		}
	}
	return BestMove{}, err
}

// Stop sends `stop`: the engine ends its search and answers the pending Go.
// It is safe to call while another goroutine waits in Go.
func (c *Client) Stop() error { return c.send("stop") }

// Score searches sfen to depth from a fresh hash (usinewgame) and returns the
// last info line with a score that is not a bound: the engine's verdict on the
// position, as the tactical suite asks Fairy-Stockfish for it (a USI `score
// mate` counts plies). A depth search has no clock to bound it: ctx should.
func (c *Client) Score(ctx context.Context, sfen string, depth int) (SearchInfo, error) {
	var last SearchInfo
	if err := c.NewGame(); err != nil {
		return last, err
	}
	if err := c.Position(sfen, nil); err != nil {
		return last, err
	}
	_, err := c.Go(ctx, GoParams{Depth: depth}, func(in SearchInfo) {
		if in.HasScore() && in.Bound == "" {
			last = in
		}
	})
	return last, err
}

// PerftResult is the answer to `go perft N`.
type PerftResult struct {
	Moves map[string]int64 // leaf count below each legal move (USI notation)
	Nodes int64            // "Nodes searched"
}

// Perft sends `go perft depth` and reads Fairy-Stockfish's answer: one
// `MOVE: COUNT` line per legal move, then `Nodes searched: N`. Our own engine
// (cmd/usi) answers in the same form. It fails when the counts do not add up
// to the total. The wait is bounded by ctx only: deep perfts take long.
func (c *Client) Perft(ctx context.Context, depth int) (PerftResult, error) {
	if depth < 1 {
		panic("usi: Perft depth must be at least 1")
	}
	if err := c.send(GoParams{Perft: depth}.Format()); err != nil {
		return PerftResult{}, err
	}
	return c.readPerft(ctx, depth)
}

// readPerft reads the answer to one `go perft depth` already sent.
func (c *Client) readPerft(ctx context.Context, depth int) (PerftResult, error) {
	res := PerftResult{Moves: make(map[string]int64)}
	var sum int64
	err := c.waitLine(ctx, 0, "perft result", func(line string) (bool, error) {
		if rest, ok := strings.CutPrefix(line, "Nodes searched:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
			if err != nil {
				return false, fmt.Errorf("perft total %q is not a number", line)
			}
			res.Nodes = n
			return true, nil
		}
		move, count, ok := strings.Cut(line, ":")
		if !ok || strings.ContainsAny(move, " \t") || move == "" {
			return false, nil // info or other chatter
		}
		n, err := strconv.ParseInt(strings.TrimSpace(count), 10, 64)
		if err != nil {
			return false, fmt.Errorf("perft line %q: count is not a number", line)
		}
		res.Moves[move] = n
		sum += n
		return false, nil
	})
	if err != nil {
		return res, err
	}
	if sum != res.Nodes {
		return res, fmt.Errorf("usi: %s: perft %d: move counts add up to %d but the total is %d", c.name, depth, sum, res.Nodes)
	}
	return res, nil
}

// Close sends `quit`, waits up to the quit grace for the engine to exit, then
// kills it. It returns an error when the engine had to be killed or had
// already failed; calling it again returns the same result.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		close(c.closing)
		_ = c.send("quit")
		_ = c.stdin.Close() // an engine that ignores quit may still stop at EOF
		t := time.NewTimer(c.quitGrace)
		defer t.Stop()
		select {
		case <-c.exited:
			if c.exitErr != nil {
				c.closeErr = c.exitError("on quit")
			}
		case <-t.C:
			_ = c.cmd.Process.Kill()
			<-c.exited
			c.closeErr = fmt.Errorf("usi: %s did not quit within %v; killed", c.name, c.quitGrace)
		}
	})
	return c.closeErr
}

func firstWord(line string) string {
	w, _, _ := strings.Cut(line, " ")
	return w
}

// tailBuffer keeps the last limit bytes written to it. os/exec copies the
// engine's stderr into it from its own goroutine, hence the mutex.
type tailBuffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.limit; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
