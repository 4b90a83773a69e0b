package usi

// This file is the server side of USI: it reads commands from a GUI or a match runner and
// drives an Engine. The protocol follows the USI specification (Tord Romstad, 2007) with the
// Fairy-Stockfish extensions `go perft N` and `d`.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Option is an engine option as announced in the reply to `usi`.
type Option struct {
	Name    string
	Type    string // "check", "spin", "combo", "string", "button" or "filename"
	Default string
	Min     int64 // for spin
	Max     int64 // for spin
	Vars    []string
}

// String returns the `option` line announcing o.
func (o Option) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "option name %s type %s", o.Name, o.Type)
	if o.Type != "button" {
		def := o.Default
		if def == "" && o.Type == "string" {
			def = "<empty>"
		}
		fmt.Fprintf(&b, " default %s", def)
	}
	if o.Type == "spin" {
		fmt.Fprintf(&b, " min %d max %d", o.Min, o.Max)
	}
	for _, v := range o.Vars {
		fmt.Fprintf(&b, " var %s", v)
	}
	return b.String()
}

// Engine is what a Server drives. The server calls it from one goroutine at a time, except
// that a search started by Go runs while the server goes on reading commands; during a
// search the server calls no other method but cancels the search's context on `stop`.
type Engine interface {
	Name() string
	Author() string
	Options() []Option
	// SetOption sets a declared option; an unknown name or a bad value is an error.
	SetOption(name, value string) error
	NewGame()
	// SetPosition sets the position from an SFEN (or the start position when sfen is "")
	// and the moves played from it; on error the previous position stays.
	SetPosition(sfen string, moves []string) error
	// Perft writes one `MOVE: COUNT` line per legal move, a blank line, and
	// `Nodes searched: N`, as Fairy-Stockfish does.
	Perft(depth int, w io.Writer) error
	// Display returns a picture of the position with its SFEN, for the `d` command.
	Display() string
	// Go searches the current position within the limits until done or ctx is cancelled,
	// sending `info` lines (without the leading "info ") through info, and returns the
	// best move in USI notation, or "resign".
	Go(ctx context.Context, limits GoParams, info func(string)) (string, error)
}

// Server runs the USI protocol for an Engine.
type Server struct {
	engine Engine
	out    io.Writer
	mu     sync.Mutex // serialises writes to out between the reader and a running search

	cancel context.CancelFunc // cancels the running search, nil when idle
	done   chan struct{}      // closed when the running search has printed its bestmove
}

// NewServer returns a server that reads commands from a reader passed to Serve and writes
// replies to out.
func NewServer(e Engine, out io.Writer) *Server { return &Server{engine: e, out: out} }

func (s *Server) println(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", args...)
}

func (s *Server) errorf(format string, args ...any) {
	s.println("info string error: "+format, args...)
}

// Serve reads commands until `quit` or the end of input, then stops any search and returns.
func (s *Server) Serve(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		if !s.handle(strings.TrimSpace(sc.Text())) {
			break
		}
	}
	s.stopSearch()
	return sc.Err()
}

// handle runs one command and reports whether to go on.
func (s *Server) handle(line string) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return true
	}
	cmd, args := fields[0], fields[1:]
	if s.searching() && cmd != "stop" && cmd != "isready" && cmd != "quit" && cmd != "ponderhit" {
		// Only these are meaningful during a search; anything else waits for it to end.
		s.waitSearch()
	}
	switch cmd {
	case "usi":
		s.println("id name %s", s.engine.Name())
		s.println("id author %s", s.engine.Author())
		for _, o := range s.engine.Options() {
			s.println("%s", o)
		}
		s.println("usiok")
	case "isready":
		s.println("readyok")
	case "setoption":
		name, value, err := parseSetOption(args)
		if err == nil {
			err = s.engine.SetOption(name, value)
		}
		if err != nil {
			s.errorf("%v", err)
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
		s.goCommand(args)
	case "stop":
		s.stopSearch()
	case "ponderhit", "gameover":
		// Pondering is not supported; a game's end needs no action.
	case "d":
		s.println("%s", s.engine.Display())
	case "quit":
		return false
	default:
		s.errorf("unknown command %q", cmd)
	}
	return true
}

func (s *Server) searching() bool { return s.cancel != nil }

func (s *Server) waitSearch() {
	if s.done != nil {
		<-s.done
		s.cancel, s.done = nil, nil
	}
}

func (s *Server) stopSearch() {
	if s.cancel != nil {
		s.cancel()
		s.waitSearch()
	}
}

func (s *Server) goCommand(args []string) {
	if len(args) >= 1 && args[0] == "perft" {
		if len(args) != 2 {
			s.errorf("go perft wants one depth")
			return
		}
		depth, err := strconv.Atoi(args[1])
		if err != nil || depth < 1 || depth > 20 {
			s.errorf("go perft: depth %q is not an integer from 1 to 20", args[1])
			return
		}
		s.mu.Lock()
		err = s.engine.Perft(depth, s.out)
		s.mu.Unlock()
		if err != nil {
			s.errorf("%v", err)
		}
		return
	}
	limits, err := ParseGo(args)
	if err != nil {
		s.errorf("%v", err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan struct{})
	done := s.done
	go func() {
		defer close(done)
		defer cancel()
		best, err := s.engine.Go(ctx, limits, func(info string) { s.println("info %s", info) })
		if err != nil {
			s.errorf("%v", err)
			best = "resign"
		}
		s.println("bestmove %s", best)
	}()
}

// ParseGo reads the arguments of a `go` command (times in milliseconds).
func ParseGo(args []string) (GoParams, error) {
	var p GoParams
	ms := map[string]*time.Duration{
		"btime": &p.BTime, "wtime": &p.WTime, "binc": &p.BInc, "winc": &p.WInc,
		"byoyomi": &p.Byoyomi, "movetime": &p.MoveTime,
	}
	for i := 0; i < len(args); i++ {
		key := args[i]
		switch key {
		case "infinite":
			p.Infinite = true
			continue
		case "ponder":
			continue // searched as a normal search
		}
		if i+1 >= len(args) {
			return p, fmt.Errorf("go: %s needs a value", key)
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil || n < 0 {
			return p, fmt.Errorf("go: %s %q is not a non-negative integer", key, args[i+1])
		}
		i++
		switch {
		case ms[key] != nil:
			*ms[key] = time.Duration(n) * time.Millisecond
		case key == "nodes":
			p.Nodes = n
		case key == "depth":
			p.Depth = int(n)
		case key == "mate":
			p.MoveTime = time.Duration(n) * time.Millisecond // `go mate T`: a time limit for a mate search
		default:
			return p, fmt.Errorf("go: unknown parameter %q", key)
		}
	}
	return p, nil
}

// parseSetOption reads `name <name...> [value <value...>]`.
func parseSetOption(args []string) (name, value string, err error) {
	if len(args) < 2 || args[0] != "name" {
		return "", "", fmt.Errorf("setoption wants: setoption name <name> [value <value>]")
	}
	rest := strings.Join(args[1:], " ")
	name, value, _ = strings.Cut(rest, " value ")
	if strings.HasSuffix(name, " value") {
		name = strings.TrimSuffix(name, " value")
	}
	return strings.TrimSpace(name), strings.TrimSpace(value), nil
}

// parsePosition reads `startpos [moves ...]` or `sfen <board> <side> <hands> [<n>] [moves ...]`.
func parsePosition(args []string) (sfen string, moves []string, err error) {
	if len(args) == 0 {
		return "", nil, fmt.Errorf("position wants startpos or sfen")
	}
	rest := args[1:]
	switch args[0] {
	case "startpos":
	case "sfen":
		i := 0
		for i < len(rest) && rest[i] != "moves" {
			i++
		}
		if i < 3 || i > 4 {
			return "", nil, fmt.Errorf("position sfen wants 3 or 4 SFEN fields, got %d", i)
		}
		sfen, rest = strings.Join(rest[:i], " "), rest[i:]
	default:
		return "", nil, fmt.Errorf("position wants startpos or sfen, got %q", args[0])
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return "", nil, fmt.Errorf("position: expected moves, got %q", rest[0])
		}
		moves = rest[1:]
	}
	return sfen, moves, nil
}
