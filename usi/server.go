package usi

// This file is the server side of USI: it reads commands from a GUI or a match runner and
// drives an Engine. The protocol follows the USI specification (Tord Romstad, 2007) with the
// Fairy-Stockfish extensions `go perft N` and `d`.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Engine is what a Server drives. The server calls it from one goroutine at a time, except
// that a search started by Go, Perft or Mate runs while the server goes on reading commands;
// during a search the server calls no other method but cancels the search's context on
// `stop`, `quit`, `gameover` and the end of input.
type Engine interface {
	Name() string
	Author() string
	Options() []Option
	// SetOption sets a declared option; an unknown name or a bad value is an error, and
	// leaves the option as it was.
	SetOption(name, value string) error
	NewGame()
	// SetPosition sets the position from an SFEN (or the start position when sfen is "")
	// and the moves played from it; on error the previous position stays.
	SetPosition(sfen string, moves []string) error
	// Perft writes one `MOVE: COUNT` line per legal move, a blank line, and
	// `Nodes searched: N`, as Fairy-Stockfish does, or stops with ctx's error when ctx is
	// done first.
	Perft(ctx context.Context, depth int, w io.Writer) error
	// Display returns a picture of the position with its SFEN, for the `d` command.
	Display() string
	// Go searches the current position within the limits until done or ctx is cancelled,
	// sending what the server prints as `info` lines through info, and returns the best
	// move in USI notation (or "resign") and, optionally, the reply to ponder on. With
	// limits.Infinite it returns only once ctx is cancelled. The server handles Ponder,
	// Mate and Perft itself: Go never sees them.
	Go(ctx context.Context, limits GoParams, info func(SearchInfo)) (BestMove, error)
}

// Readier is an Engine with work to do before its next search, such as allocating what the
// options set since the last search call for. The server calls Ready on `isready` when no
// search runs (USI: the engine answers readyok once it is ready to search), so that the
// first `go` after an option does not spend its clock on the work.
type Readier interface {
	Ready() error
}

// Reporter is an Engine that says what a setoption did where a GUI could not see it
// otherwise, such as what an evaluation file held: after a setoption that succeeded the
// server sends Report's answer for the option, unless empty, as an info string.
type Reporter interface {
	Report(option string) string
}

// Mater is an Engine that answers `go mate` (Shogidokoro's extension of USI): a tsume search,
// for a forced mate in which every move of the side to move gives check. The server answers
// `checkmate notimplemented` for an engine that is not a Mater.
type Mater interface {
	// Mate searches the current position until it finds a mate, proves that there is none
	// or ctx is done. It returns the mate's moves in USI notation; or none and nomate true
	// when no mate exists; or none and false when ctx ended the search first.
	Mate(ctx context.Context, info func(SearchInfo)) (moves []string, nomate bool, err error)
}

// MaxLineBytes is the longest command line a Server reads. A longer line is dropped with an
// `info string error` that does not repeat it, and the server reads on.
const MaxLineBytes = 1 << 20

// maxQueued bounds the commands that wait for a running search to end, so that a flood of
// them cannot grow memory; beyond it a command is dropped with an info string.
const maxQueued = 256

// Server runs the USI protocol for an Engine.
//
// The server reads commands in a goroutine of its own, so that it always reads (USI: "the
// engine must always be able to process input from stdin, even while thinking"). During a
// search it answers `isready` at once, acts on `stop`, `ponderhit`, `quit` and `gameover`
// (which ends the search: the game is over), ignores `debug`, and holds every other command
// until the search ends, then runs them in order. A `stop` or `ponderhit` that follows a held
// `go` is held too, so that it acts on that go's search: a GUI that answers a bestmove at
// once may be read while the search that printed it is still ending. That waits only for a
// search that ends by itself: one that ends only on `stop` (`go infinite`, a ponder search
// before its ponderhit, a `go` without limits, `go mate infinite`) takes the stop or
// ponderhit itself, and the held go runs after it.
//
// The clock of a search starts when its `go` (or `ponderhit`) is read, and the engine is
// told so (GoParams.Start); a go held behind a search starts its clock when it runs.
type Server struct {
	engine Engine
	out    io.Writer
	mu     sync.Mutex // serialises writes to out between the reader and a running search

	// The fields below belong to the goroutine running Serve.
	search *search  // the running search, nil when idle
	queue  []string // commands received during the search, run after it
}

// search is one running `go`.
type search struct {
	cancel    context.CancelFunc
	done      chan struct{} // closed when the search has printed its answer
	answered  chan struct{} // closed just before the search prints its answer
	ponderhit chan struct{} // closed by `ponderhit`; nil unless the search is `go ponder`
	hitAt     *time.Time    // when ponderhit was read, written before ponderhit is closed
	// untilStop says that the search ends only on stop (or ponderhit), not by itself;
	// afterHit, whether it still does after a ponderhit.
	untilStop, afterHit bool
}

// over reports whether the search has begun to print its answer: a command that arrives then
// was sent by a GUI that may have seen the answer, and must not wait for the search.
func (sr *search) over() bool {
	select {
	case <-sr.answered:
		return true
	default:
		return false
	}
}

// NewServer returns a server that reads commands from a reader passed to Serve and writes
// replies to out.
func NewServer(e Engine, out io.Writer) *Server { return &Server{engine: e, out: out} }

// send writes one line to the GUI.
func (s *Server) send(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	io.WriteString(s.out, line+"\n")
}

// errorf tells the GUI what was wrong with a command, in an `info string error: ...`.
func (s *Server) errorf(format string, args ...any) {
	s.send(SearchInfo{String: "error: " + fmt.Sprintf(format, args...)}.Format())
}

// serverWriter writes to the server's output under its lock, so that the lines of a perft
// never mix with a `readyok`.
type serverWriter struct{ s *Server }

func (w serverWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.out.Write(p)
}

// Serve reads commands until `quit` or the end of input and returns after stopping the
// search. The commands that were waiting for the search still run first, in order, each
// search they start stopped at once, so that a script piped in runs whole. A goroutine
// reading in may outlive Serve until in returns from its current Read.
func (s *Server) Serve(in io.Reader) error {
	lines := make(chan inputLine)
	quit := make(chan struct{})
	defer close(quit)
	go readLines(in, lines, quit)
	defer s.finish()
	for {
		var searchDone chan struct{}
		if s.search != nil {
			searchDone = s.search.done
		}
		select {
		case <-searchDone:
			s.search = nil
		case l := <-lines:
			if s.search != nil && s.search.over() {
				// The answer is being printed: the search is over for this command.
				<-s.search.done
				s.search = nil
			}
			if !s.runQueued() {
				return nil
			}
			switch {
			case l.err == errLineTooLong:
				s.errorf("line %d is longer than %d bytes; ignored", l.n, MaxLineBytes)
			case l.err == io.EOF:
				return nil
			case l.err != nil:
				return fmt.Errorf("usi: reading commands: %w", l.err)
			case !s.handle(l.text, l.at):
				return nil
			}
		}
		if !s.runQueued() {
			return nil
		}
	}
}

// goHeld reports whether a held command is a go.
func (s *Server) goHeld() bool {
	for _, q := range s.queue {
		if strings.Fields(q)[0] == "go" {
			return true
		}
	}
	return false
}

// runQueued runs the held commands that can run now: all of them while no search runs, and
// those that act on a running search (a ponderhit or stop held after the go that started
// it). It reports whether to go on.
func (s *Server) runQueued() bool {
	for len(s.queue) > 0 && (s.search == nil || duringSearch[strings.Fields(s.queue[0])[0]]) {
		cmd := s.queue[0]
		s.queue = s.queue[1:]
		if !s.handle(cmd, time.Now()) {
			return false
		}
	}
	return true
}

// finish stops the search and runs the waiting commands, stopping every search they start.
func (s *Server) finish() {
	for {
		s.stopSearch()
		if len(s.queue) == 0 {
			return
		}
		cmd := s.queue[0]
		s.queue = s.queue[1:]
		s.handle(cmd, time.Now())
	}
}

// always are the commands run the moment they are read, searching or not; duringSearch are
// those that act on a running search.
var (
	always       = map[string]bool{"isready": true, "quit": true, "debug": true}
	duringSearch = map[string]bool{"stop": true, "ponderhit": true, "gameover": true}
)

// commands are the commands the server knows.
var commands = map[string]bool{"usi": true, "isready": true, "setoption": true, "usinewgame": true,
	"position": true, "go": true, "stop": true, "ponderhit": true, "gameover": true, "d": true,
	"quit": true, "debug": true}

// handle runs one command, read at the time at, or holds it until the running search ends,
// and reports whether to go on.
func (s *Server) handle(line string, at time.Time) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return true
	}
	cmd, args := fields[0], fields[1:]
	if !commands[cmd] {
		s.errorf("unknown command %q", truncate(cmd))
		return true
	}
	// During a search a command waits its turn unless it is answered at once (isready,
	// quit, debug) or acts on the running search; a stop or ponderhit behind a held go waits
	// for the search that go starts, unless the running search would never end without it.
	if s.search != nil && !(always[cmd] || duringSearch[cmd] && (s.search.untilStop || !s.goHeld())) {
		if len(s.queue) >= maxQueued {
			s.errorf("%d commands wait for the search to end; %q dropped", len(s.queue), truncate(cmd))
		} else {
			s.queue = append(s.queue, line)
		}
		return true
	}
	if cmd == "gameover" {
		s.stopSearch()
	}
	switch cmd {
	case "usi":
		s.send("id name " + s.engine.Name())
		s.send("id author " + s.engine.Author())
		for _, o := range s.engine.Options() {
			s.send(o.Format())
		}
		s.send("usiok")
	case "isready":
		if r, ok := s.engine.(Readier); ok && s.search == nil {
			if err := r.Ready(); err != nil {
				s.errorf("%v", err)
			}
		}
		s.send("readyok")
	case "setoption":
		name, value, err := parseSetOption(args)
		if err == nil {
			err = s.engine.SetOption(name, value)
		}
		if err != nil {
			s.errorf("%v", err)
		} else if r, ok := s.engine.(Reporter); ok {
			if report := r.Report(name); report != "" {
				s.send(SearchInfo{String: report}.Format())
			}
		}
	case "usinewgame":
		s.engine.NewGame()
	case "position":
		sfen, moves, err := parsePosition(args)
		if err == nil {
			err = s.engine.SetPosition(sfen, moves)
		}
		if err != nil {
			s.errorf("%v", err)
		}
	case "go":
		s.goCommand(fields, at)
	case "stop":
		s.stopSearch()
	case "ponderhit":
		if s.search != nil && s.search.ponderhit != nil {
			*s.search.hitAt = at
			close(s.search.ponderhit)
			s.search.ponderhit = nil
			s.search.untilStop = s.search.afterHit
		}
	case "gameover", "debug":
		// A game's end needs no action once the search is stopped; debug output is not
		// implemented.
	case "d":
		s.send(s.engine.Display())
	case "quit":
		return false
	}
	return true
}

// stopSearch cancels the running search, if any, and waits for its answer.
func (s *Server) stopSearch() {
	if s.search != nil {
		s.search.cancel()
		<-s.search.done
		s.search = nil
	}
}

// start runs a search in a goroutine of its own; run prints its answer, calling answering
// just before the line that ends the search. A search that untilStop ends only on stop; a
// ponder search (ponder set) also on ponderhit, after which it ends on stop alone when
// afterHit. run gets the ponderhit channel and, once it is closed, the time ponderhit was
// read.
func (s *Server) start(untilStop, ponder, afterHit bool, run func(ctx context.Context, ponderhit <-chan struct{}, hitAt *time.Time, answering func())) {
	ctx, cancel := context.WithCancel(context.Background())
	sr := &search{cancel: cancel, done: make(chan struct{}), answered: make(chan struct{}), hitAt: new(time.Time),
		untilStop: untilStop || ponder, afterHit: afterHit}
	if ponder {
		sr.ponderhit = make(chan struct{})
	}
	hit, hitAt := sr.ponderhit, sr.hitAt
	s.search = sr
	go func() {
		defer close(sr.done)
		defer cancel()
		var once sync.Once
		run(ctx, hit, hitAt, func() { once.Do(func() { close(sr.answered) }) })
	}()
}

// goCommand runs `go`, given as its words, read at the time at: the search's clock starts
// then.
func (s *Server) goCommand(words []string, at time.Time) {
	limits, err := parseGo(words)
	if err != nil {
		s.errorf("%v", err)
		return
	}
	if limits.Perft > 0 {
		s.start(false, false, false, func(ctx context.Context, _ <-chan struct{}, _ *time.Time, _ func()) {
			if err := s.engine.Perft(ctx, limits.Perft, serverWriter{s}); err != nil {
				s.errorf("%v", err)
			}
		})
		return
	}
	if limits.Mate {
		s.goMate(limits, at)
		return
	}
	limits.Start = at
	after := limits
	after.Ponder = false
	s.start(limits.untilStop(), limits.Ponder, after.untilStop(), func(ctx context.Context, ponderhit <-chan struct{}, hitAt *time.Time, answering func()) {
		info := func(in SearchInfo) { s.send(in.Format()) }
		if limits.Ponder {
			// USI: a ponder search runs until ponderhit or stop, even when it is done
			// early. An infinite search until ponderhit, then the search within the
			// limits, which keeps the tree (the engine reuses it for the same position)
			// and starts the clock at ponderhit, as the GUI's clock does.
			pctx, stopPonder := context.WithCancel(ctx)
			go func() {
				select {
				case <-ponderhit:
					stopPonder()
				case <-pctx.Done():
				}
			}()
			best, err := s.engine.Go(pctx, GoParams{Infinite: true, Start: at}, info)
			stopPonder()
			if ctx.Err() != nil || err != nil {
				s.answer(answering, best, err)
				return
			}
			limits = after
			select {
			case <-ponderhit:
				limits.Start = *hitAt
			default: // the engine ended an infinite search by itself
				limits.Start = time.Now()
			}
		}
		best, err := s.engine.Go(ctx, limits, info)
		s.answer(answering, best, err)
	})
}

// answer prints the bestmove of a search, calling answering first.
func (s *Server) answer(answering func(), best BestMove, err error) {
	answering()
	if err != nil {
		s.errorf("%v", err)
		best = BestMove{Move: "resign"}
	}
	s.send(best.Format())
}

// goMate runs `go mate`: a tsume search bounded by limits.MoveTime (0: until stop),
// answered with `checkmate` and the moves, `checkmate nomate`, or `checkmate timeout` when
// time or stop ended it first.
func (s *Server) goMate(limits GoParams, at time.Time) {
	m, ok := s.engine.(Mater)
	if !ok {
		s.send("checkmate notimplemented")
		return
	}
	s.start(limits.untilStop(), false, false, func(ctx context.Context, _ <-chan struct{}, _ *time.Time, answering func()) {
		if limits.MoveTime > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, at.Add(limits.MoveTime))
			defer cancel()
		}
		moves, nomate, err := m.Mate(ctx, func(in SearchInfo) { s.send(in.Format()) })
		answering()
		switch {
		case err != nil:
			s.errorf("%v", err)
			s.send("checkmate timeout")
		case len(moves) > 0:
			s.send("checkmate " + strings.Join(moves, " "))
		case nomate:
			s.send("checkmate nomate")
		default:
			s.send("checkmate timeout")
		}
	})
}

// inputLine is one line read by readLines: its text, or errLineTooLong, or the error that
// ended the input (io.EOF at its end). n counts the lines from 1; at is when the line was
// read, where the clock of a `go` starts.
type inputLine struct {
	text string
	n    int
	at   time.Time
	err  error
}

var errLineTooLong = errors.New("line too long")

// readLines sends the lines of in, without their line ends, until in ends or quit is
// closed. A line longer than MaxLineBytes is read to its end and sent as errLineTooLong, so
// that its memory stays bounded.
func readLines(in io.Reader, lines chan<- inputLine, quit <-chan struct{}) {
	br := bufio.NewReaderSize(in, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		buf = buf[:0]
		var err error
		tooLong := false
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !tooLong && len(buf)+len(chunk) > MaxLineBytes+2 { // +2: the line end
				tooLong, buf = true, buf[:0]
			}
			if !tooLong {
				buf = append(buf, chunk...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		l := inputLine{text: strings.TrimRight(string(buf), "\r\n"), n: n, at: time.Now()}
		switch {
		case tooLong:
			l.err = errLineTooLong
		case err != nil && len(buf) == 0:
			l.err = err
		}
		select {
		case lines <- l:
		case <-quit:
			return
		}
		if err != nil {
			if l.err == nil || l.err == errLineTooLong {
				// The last line had no line end: the input's end comes next.
				select {
				case lines <- inputLine{n: n + 1, err: err}:
				case <-quit:
				}
			}
			return
		}
	}
}
