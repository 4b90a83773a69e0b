package usi

// This file is the USI message vocabulary: every message that both ends of the protocol
// speak, each with its parse and its format, so that the server, the client and every engine
// write a message in one place and read it in the same place. The server (server.go) and the
// client (client.go) keep the process, the transport and the order of the conversation.
//
// Protocol reference: the USI specification (Tord Romstad, 2007) as published with the
// Shogidokoro GUI, for `option`, `info`, `go`, `bestmove`, `setoption` and `position`, and
// Shogidokoro's extensions (`byoyomi`, `go mate`); Fairy-Stockfish's `go perft N`.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Option is an engine option: one `option name N type T [default D] [min m] [max M]
// [var V]...` line of the reply to `usi`. The server announces an Engine's Options with
// Format; the client reads an external engine's with ParseOption and checks a value against
// it with Check before it sends setoption (USI engines do not acknowledge setoption).
type Option struct {
	Name    string
	Type    string // "check", "spin", "combo", "string", "button" or "filename"
	Default string // "" is announced as `<empty>` (USI's word for an empty string)
	Min     int64  // for a spin
	Max     int64  // for a spin
	Vars    []string
}

// is reports whether the option has the type t; USI keywords are matched without regard to
// case by the engines we meet, so the type is too.
func (o Option) is(t string) bool { return strings.EqualFold(o.Type, t) }

// emptyDefault is how an option line says that its default is the empty string.
const emptyDefault = "<empty>"

// Format returns the `option` line announcing o: name, type, the default (left out only for
// a button without one), min and max for a spin, and each var.
func (o Option) Format() string {
	var b strings.Builder
	fmt.Fprintf(&b, "option name %s type %s", o.Name, o.Type)
	if !o.is("button") || o.Default != "" {
		def := o.Default
		if def == "" {
			def = emptyDefault
		}
		fmt.Fprintf(&b, " default %s", def)
	}
	if o.is("spin") {
		fmt.Fprintf(&b, " min %d max %d", o.Min, o.Max)
	}
	for _, v := range o.Vars {
		fmt.Fprintf(&b, " var %s", v)
	}
	return b.String()
}

// optionKeywords end the previous field of an option line.
var optionKeywords = map[string]bool{"type": true, "default": true, "min": true, "max": true, "var": true}

// ParseOption reads an `option` line. Names and values may contain spaces (a keyword ends
// the previous field); `default <empty>` is the empty default; a spin needs integer min and
// max; an empty var is no choice and is dropped.
func ParseOption(line string) (Option, error) {
	fields := strings.Fields(line)
	if len(fields) < 3 || fields[0] != "option" || fields[1] != "name" {
		return Option{}, fmt.Errorf("usi: option line %q does not start with \"option name\"", line)
	}
	var opt Option
	var minText, maxText *string
	field := "name"
	var words []string
	flush := func() {
		v := strings.Join(words, " ")
		words = words[:0]
		switch field {
		case "name":
			opt.Name = v
		case "type":
			opt.Type = v
		case "default":
			opt.Default = v
			if v == emptyDefault {
				opt.Default = ""
			}
		case "min":
			minText = &v
		case "max":
			maxText = &v
		case "var":
			if v != "" {
				opt.Vars = append(opt.Vars, v)
			}
		}
	}
	for _, f := range fields[2:] {
		if optionKeywords[f] {
			flush()
			field = f
		} else {
			words = append(words, f)
		}
	}
	flush()
	if opt.Name == "" || opt.Type == "" {
		return Option{}, fmt.Errorf("usi: option line %q lacks a name or a type", line)
	}
	if opt.is("spin") {
		for _, bound := range []struct {
			key  string
			text *string
			n    *int64
		}{{"min", minText, &opt.Min}, {"max", maxText, &opt.Max}} {
			if bound.text == nil {
				return Option{}, fmt.Errorf("usi: option %s: a spin needs a %s", opt.Name, bound.key)
			}
			n, err := strconv.ParseInt(*bound.text, 10, 64)
			if err != nil {
				return Option{}, fmt.Errorf("usi: option %s: %s %q is not an integer", opt.Name, bound.key, *bound.text)
			}
			*bound.n = n
		}
	}
	return opt, nil
}

// Check reports whether value is one the option takes, as its `option` line declares it: an
// integer within min and max for a spin, true or false for a check, one of the vars for a
// combo, nothing for a button; any text for a string or filename. USI engines do not
// acknowledge setoption, so this is how a caller learns that a value would be refused.
func (o Option) Check(value string) error {
	bad := func(want string) error {
		return fmt.Errorf("usi: option %s: %q is not %s", o.Name, value, want)
	}
	switch strings.ToLower(o.Type) {
	case "spin":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return bad("an integer")
		}
		if n < o.Min || n > o.Max {
			return bad(fmt.Sprintf("from %d to %d", o.Min, o.Max))
		}
	case "check":
		if !strings.EqualFold(value, "true") && !strings.EqualFold(value, "false") {
			return bad("true or false")
		}
	case "combo":
		for _, v := range o.Vars {
			if strings.EqualFold(v, value) {
				return nil
			}
		}
		return bad("one of " + strings.Join(o.Vars, ", "))
	case "button":
		if value != "" {
			return bad("empty (a button takes no value)")
		}
	}
	return nil
}

// ScoreKind says which score an info line carried.
type ScoreKind int

const (
	ScoreNone ScoreKind = iota // no score on the line
	ScoreCP                    // centipawns from the side to move's view
	ScoreMate                  // mate distance
)

// InfoKeys are the numeric keys an info line carried, one bit each: a key with the value 0
// (`time 0` at a search's start, `hashfull 0`) is still written, so SearchInfo says which
// of its numbers the line has.
type InfoKeys uint16

const (
	InfoDepth InfoKeys = 1 << iota
	InfoSelDepth
	InfoMultiPV
	InfoNodes
	InfoNPS
	InfoTime
	InfoHashFull
	InfoTBHits
	InfoCPULoad
	InfoCurrMoveNumber
)

// SearchInfo is one `info` line. Has says which numbers the line carries; the score is there
// unless Kind is ScoreNone, the current move, the pv and the string when not empty.
type SearchInfo struct {
	Has                      InfoKeys
	Depth, SelDepth, MultiPV int
	Nodes, NPS, TBHits       int64
	Time                     time.Duration // written in whole milliseconds
	HashFull                 int           // permille
	CPULoad                  int           // permille
	Kind                     ScoreKind
	CP                       int    // with ScoreCP
	Mate                     int    // with ScoreMate: plies as printed; negative when the engine is being mated
	MateLengthUnknown        bool   // `score mate +` or `score mate -`: Mate is +1 or -1
	Bound                    string // "lowerbound" or "upperbound" after the score, or ""
	CurrMove                 string
	CurrMoveNumber           int
	PV                       []string
	String                   string // the text after `string`, the rest of the line
}

// HasScore reports whether the line carried a score.
func (s SearchInfo) HasScore() bool { return s.Kind != ScoreNone }

// infoKeywords are the USI info keys; a pv ends at the next one.
var infoKeywords = map[string]bool{
	"depth": true, "seldepth": true, "time": true, "nodes": true, "pv": true, "multipv": true,
	"score": true, "currmove": true, "currmovenumber": true, "hashfull": true, "nps": true,
	"tbhits": true, "cpuload": true, "string": true, "refutation": true, "currline": true,
}

// infoNumbers are the numeric keys in the order Format writes them (our engine's order:
// depth seldepth nodes nps time hashfull, then the score and the pv).
var infoNumbers = []struct {
	key string
	bit InfoKeys
}{
	{"depth", InfoDepth}, {"seldepth", InfoSelDepth}, {"multipv", InfoMultiPV}, {"nodes", InfoNodes},
	{"nps", InfoNPS}, {"time", InfoTime}, {"hashfull", InfoHashFull}, {"tbhits", InfoTBHits},
	{"cpuload", InfoCPULoad},
}

// number is where s keeps the numeric key with bit b, as an int64.
func (s *SearchInfo) number(b InfoKeys) int64 {
	switch b {
	case InfoDepth:
		return int64(s.Depth)
	case InfoSelDepth:
		return int64(s.SelDepth)
	case InfoMultiPV:
		return int64(s.MultiPV)
	case InfoNodes:
		return s.Nodes
	case InfoNPS:
		return s.NPS
	case InfoTime:
		return s.Time.Milliseconds()
	case InfoHashFull:
		return int64(s.HashFull)
	case InfoTBHits:
		return s.TBHits
	case InfoCPULoad:
		return int64(s.CPULoad)
	case InfoCurrMoveNumber:
		return int64(s.CurrMoveNumber)
	}
	return 0
}

// setNumber stores n for the numeric key with bit b and marks it present.
func (s *SearchInfo) setNumber(b InfoKeys, n int64) {
	s.Has |= b
	switch b {
	case InfoDepth:
		s.Depth = int(n)
	case InfoSelDepth:
		s.SelDepth = int(n)
	case InfoMultiPV:
		s.MultiPV = int(n)
	case InfoNodes:
		s.Nodes = n
	case InfoNPS:
		s.NPS = n
	case InfoTime:
		s.Time = time.Duration(n) * time.Millisecond
	case InfoHashFull:
		s.HashFull = int(n)
	case InfoTBHits:
		s.TBHits = n
	case InfoCPULoad:
		s.CPULoad = int(n)
	case InfoCurrMoveNumber:
		s.CurrMoveNumber = int(n)
	}
}

// Format returns the `info` line for s: the numbers of Has (depth seldepth multipv nodes nps
// time hashfull tbhits cpuload), the score and its bound, currmove and currmovenumber, the
// pv, and last the string, which takes the rest of the line.
func (s SearchInfo) Format() string {
	var b strings.Builder
	b.WriteString("info")
	for _, k := range infoNumbers {
		if s.Has&k.bit != 0 {
			fmt.Fprintf(&b, " %s %d", k.key, s.number(k.bit))
		}
	}
	switch s.Kind {
	case ScoreCP:
		fmt.Fprintf(&b, " score cp %d", s.CP)
	case ScoreMate:
		switch {
		case s.MateLengthUnknown && s.Mate < 0:
			b.WriteString(" score mate -")
		case s.MateLengthUnknown:
			b.WriteString(" score mate +")
		default:
			fmt.Fprintf(&b, " score mate %d", s.Mate)
		}
	}
	if s.Kind != ScoreNone && s.Bound != "" {
		b.WriteString(" " + s.Bound)
	}
	if s.CurrMove != "" {
		b.WriteString(" currmove " + s.CurrMove)
	}
	if s.Has&InfoCurrMoveNumber != 0 {
		fmt.Fprintf(&b, " currmovenumber %d", s.CurrMoveNumber)
	}
	if len(s.PV) > 0 {
		b.WriteString(" pv " + strings.Join(s.PV, " "))
	}
	if s.String != "" {
		b.WriteString(" string " + s.String)
	}
	return b.String()
}

// maxInfoMillis is the longest time an info line may give: what a time.Duration holds.
const maxInfoMillis = int64(1<<63-1) / int64(time.Millisecond)

// ParseInfo parses an `info` line such as
// `info depth 5 seldepth 7 score cp 34 nodes 1234 nps 5000 pv 2e3d 1a2b`.
// Unknown keys are skipped; a key whose number does not parse is an error that names the
// key. The string is the rest of the line after `string`, trimmed.
func ParseInfo(line string) (SearchInfo, error) {
	var in SearchInfo
	f, at := fieldsAt(line)
	if len(f) == 0 || f[0] != "info" {
		return in, fmt.Errorf("usi: %q is not an info line", line)
	}
	bad := func(key string) error { return fmt.Errorf("usi: info line %q: bad value for %s", line, key) }
	integer := func(i int, key string) (int64, error) {
		if i+1 >= len(f) {
			return 0, bad(key)
		}
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return 0, bad(key)
		}
		return n, nil
	}
	for i := 1; i < len(f); {
		key := f[i]
		switch key {
		case "string":
			// The rest of the line, with its own spacing.
			in.String = strings.TrimSpace(line[at[i]+len(key):])
			return in, nil
		case "pv", "refutation", "currline":
			j := i + 1
			for j < len(f) && !infoKeywords[f[j]] {
				j++
			}
			if key == "pv" {
				in.PV = append([]string(nil), f[i+1:j]...)
			}
			i = j
			continue
		case "currmove":
			if i+1 >= len(f) {
				return in, bad(key)
			}
			in.CurrMove = f[i+1]
			i += 2
			continue
		case "score":
			if i+2 >= len(f) {
				return in, bad(key)
			}
			switch f[i+1] {
			case "cp":
				n, err := integer(i+1, "score cp")
				if err != nil {
					return in, err
				}
				in.Kind, in.CP, in.Mate, in.MateLengthUnknown = ScoreCP, int(n), 0, false
			case "mate":
				switch f[i+2] {
				case "+", "-":
					in.Kind, in.CP, in.MateLengthUnknown = ScoreMate, 0, true
					in.Mate = 1
					if f[i+2] == "-" {
						in.Mate = -1
					}
				default:
					n, err := integer(i+1, "score mate")
					if err != nil {
						return in, err
					}
					in.Kind, in.CP, in.Mate, in.MateLengthUnknown = ScoreMate, 0, int(n), false
				}
			default:
				return in, bad(key)
			}
			i += 3
			in.Bound = ""
			if i < len(f) && (f[i] == "lowerbound" || f[i] == "upperbound") {
				in.Bound = f[i]
				i++
			}
			continue
		}
		if bit, ok := infoNumber(key); ok {
			n, err := integer(i, key)
			if err != nil {
				return in, err
			}
			if bit == InfoTime && (n > maxInfoMillis || n < -maxInfoMillis) {
				return in, bad(key)
			}
			in.setNumber(bit, n)
			i += 2
			continue
		}
		i++ // an unknown key: skip it alone, its value (if any) is skipped next
	}
	return in, nil
}

// infoNumber returns the bit of a numeric info key.
func infoNumber(key string) (InfoKeys, bool) {
	if key == "currmovenumber" {
		return InfoCurrMoveNumber, true
	}
	for _, k := range infoNumbers {
		if k.key == key {
			return k.bit, true
		}
	}
	return 0, false
}

// fieldsAt is strings.Fields with the byte offset of each field in s.
func fieldsAt(s string) (fields []string, at []int) {
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				fields, at = append(fields, s[start:i]), append(at, start)
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		fields, at = append(fields, s[start:]), append(at, start)
	}
	return fields, at
}

// GoParams are the parameters of one `go`: the limits of a search, or a perft or a tsume
// search. Zero fields are left out of the line; an all-zero GoParams is a bare `go`.
type GoParams struct {
	Nodes    int64
	Depth    int
	MoveTime time.Duration
	Byoyomi  time.Duration
	BTime    time.Duration // Sente's (black's) remaining time
	WTime    time.Duration // Gote's (white's) remaining time
	BInc     time.Duration
	WInc     time.Duration
	Infinite bool // search until Stop
	// Ponder is `go ponder`: the search goes on until ponderhit or stop.
	Ponder bool
	// Mate is `go mate`: a tsume search answered with `checkmate`, for MoveTime (or until
	// stop, with Infinite). The client's Go does not send it: it reads only bestmove.
	Mate bool
	// Perft is `go perft N` (Fairy-Stockfish's extension): count the leaves N plies deep,
	// from 1 to MaxPerftDepth. It takes no other parameter.
	Perft int
	// Start is when the clock of this search started: the server sets it to the moment it
	// read the `go` (or, for a ponder search, the `ponderhit`), so that the engine charges
	// its own delays to the search's time. The zero value means when the engine's Go is
	// called. It is not part of the line.
	Start time.Time
}

// MaxPerftDepth bounds `go perft`: beyond it the count could overflow 64 bits (perft grows
// about sixteenfold a ply from the start position, whose perft 7 is 132,680,617).
const MaxPerftDepth = 15

// maxGoMillis caps the times of a `go` command: about 35 years, far beyond any clock, and
// small enough that sums of times cannot overflow.
const maxGoMillis = 1 << 40

// Format returns the `go` line for p: the times in milliseconds (btime wtime binc winc
// byoyomi movetime), depth, nodes, infinite, ponder; `go mate MS` or `go mate infinite`;
// or `go perft N` alone.
func (p GoParams) Format() string {
	if p.Perft > 0 {
		return fmt.Sprintf("go perft %d", p.Perft)
	}
	var b strings.Builder
	b.WriteString("go")
	ms := func(key string, d time.Duration) {
		if d > 0 {
			fmt.Fprintf(&b, " %s %d", key, d.Milliseconds())
		}
	}
	ms("btime", p.BTime)
	ms("wtime", p.WTime)
	ms("binc", p.BInc)
	ms("winc", p.WInc)
	ms("byoyomi", p.Byoyomi)
	if !p.Mate || p.Infinite {
		// `go mate MS` carries a mate search's time itself.
		ms("movetime", p.MoveTime)
	}
	if p.Depth > 0 {
		fmt.Fprintf(&b, " depth %d", p.Depth)
	}
	if p.Nodes > 0 {
		fmt.Fprintf(&b, " nodes %d", p.Nodes)
	}
	if p.Infinite && !p.Mate {
		b.WriteString(" infinite")
	}
	if p.Ponder {
		b.WriteString(" ponder")
	}
	switch {
	case p.Mate && p.Infinite:
		b.WriteString(" mate infinite")
	case p.Mate:
		fmt.Fprintf(&b, " mate %d", max(p.MoveTime, 0).Milliseconds())
	}
	return b.String()
}

// ParseGo reads a `go` line (times in milliseconds, capped at about 35 years): the limits,
// `infinite`, `ponder`, `mate T` or `mate infinite`, or `perft N` alone.
func ParseGo(line string) (GoParams, error) {
	p, err := parseGo(strings.Fields(line))
	if err != nil {
		return p, fmt.Errorf("usi: %w", err)
	}
	return p, nil
}

// parseGo reads the words of a `go` line. Its errors, without the package's prefix, are what
// the server answers a bad go with.
func parseGo(f []string) (GoParams, error) {
	var p GoParams
	if len(f) == 0 || f[0] != "go" {
		return p, fmt.Errorf("%q is not a go command", truncate(strings.Join(f, " ")))
	}
	args := f[1:]
	if len(args) >= 1 && args[0] == "perft" {
		if len(args) != 2 {
			return p, errors.New("go perft wants one depth")
		}
		depth, err := strconv.Atoi(args[1])
		if err != nil || depth < 1 || depth > MaxPerftDepth {
			return p, fmt.Errorf("go perft: depth %q is not an integer from 1 to %d", truncate(args[1]), MaxPerftDepth)
		}
		p.Perft = depth
		return p, nil
	}
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
			p.Ponder = true
			continue
		case "mate":
			// `go mate T` or `go mate infinite` (Shogidokoro): a tsume search for T ms.
			p.Mate = true
			if i+1 < len(args) && args[i+1] == "infinite" {
				p.Infinite = true
				i++
				continue
			}
		}
		if i+1 >= len(args) {
			return p, fmt.Errorf("go: %s needs a value", key)
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil || n < 0 {
			return p, fmt.Errorf("go: %s %q is not a non-negative integer", truncate(key), truncate(args[i+1]))
		}
		i++
		switch {
		case ms[key] != nil:
			*ms[key] = time.Duration(min(n, maxGoMillis)) * time.Millisecond
		case key == "nodes":
			p.Nodes = n
		case key == "depth":
			p.Depth = int(n)
		case key == "mate":
			p.MoveTime = time.Duration(min(n, maxGoMillis)) * time.Millisecond
		default:
			return p, fmt.Errorf("go: unknown parameter %q", truncate(key))
		}
	}
	return p, nil
}

// BestMove is the answer to `go`: `bestmove MOVE [ponder MOVE]`.
type BestMove struct {
	Move   string // the move, or "resign" or "win" as USI allows
	Ponder string // the expected reply, if the engine gave one
}

// Format returns the `bestmove` line for b.
func (b BestMove) Format() string {
	if b.Ponder != "" {
		return "bestmove " + b.Move + " ponder " + b.Ponder
	}
	return "bestmove " + b.Move
}

// ParseBestMove reads a `bestmove` line; words after the ponder move are ignored.
func ParseBestMove(line string) (BestMove, error) {
	b, err := parseBestMove(line)
	if err != nil {
		return b, fmt.Errorf("usi: %w", err)
	}
	return b, nil
}

func parseBestMove(line string) (BestMove, error) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "bestmove" {
		return BestMove{}, fmt.Errorf("%q is not a bestmove line", line)
	}
	if len(f) < 2 {
		return BestMove{}, fmt.Errorf("bestmove line %q has no move", line)
	}
	b := BestMove{Move: f[1]}
	if len(f) >= 4 && f[2] == "ponder" {
		b.Ponder = f[3]
	}
	return b, nil
}

// setOptionLine is the `setoption` command for an option's value: `setoption name NAME
// value VALUE`, or `setoption name NAME` for an empty value (a button).
func setOptionLine(name, value string) string {
	if value == "" {
		return "setoption name " + name
	}
	return "setoption name " + name + " value " + value
}

// parseSetOption reads the words after `setoption`: `name <name...> [value <value...>]`.
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

// positionLine is the `position` command: `position startpos` (when sfen is empty or
// "startpos") or `position sfen SFEN`, then `moves ...` when there are moves.
func positionLine(sfen string, moves []string) string {
	var b strings.Builder
	if sfen == "" || sfen == "startpos" {
		b.WriteString("position startpos")
	} else {
		b.WriteString("position sfen ")
		b.WriteString(sfen)
	}
	if len(moves) > 0 {
		b.WriteString(" moves ")
		b.WriteString(strings.Join(moves, " "))
	}
	return b.String()
}

// parsePosition reads the words after `position`: `startpos [moves ...]` or `sfen <board>
// <side> <hands> [<n>] [moves ...]`.
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

// truncate shortens a word from the input for an error message.
func truncate(w string) string {
	if len(w) > 40 {
		return w[:40] + "..."
	}
	return w
}
