package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// decoder turns record lines into Games, decoding only the fields asked for
// and skipping the others' bytes. It is the readers' hot path, written by
// hand because encoding/json decodes every value by reflection (about
// 60 MB/s on a self-play record) and a token-level streaming decoder still
// tokenises the skipped statistics (about 230 MB/s); skipping them as a
// balanced bracket run goes at memory speed. The grammar is JSON's (RFC
// 8259); a skipped value is checked for balance, not parsed.
//
// A decoder is used by one goroutine. It interns the short strings that
// repeat from game to game (moves, names, results, starts), so a game's
// moves cost no allocation each, and keeps the decoded player
// configurations by their text: games with the same configuration text share
// one map, which callers must not modify.
type decoder struct {
	strs    map[string]string
	configs map[string]map[string]any
	arena   []string // moves are cut from it
}

// Interning stops growing at these sizes, so that a file of odd records
// cannot grow a reader's memory without bound.
const (
	maxInterned    = 1 << 14
	maxInternedLen = 96
	maxConfigs     = 256
)

func newDecoder() *decoder {
	return &decoder{strs: map[string]string{}, configs: map[string]map[string]any{}}
}

// syntaxError is a line that is not JSON, or not a record's shape.
type syntaxError struct {
	at  int
	msg string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("not a JSON record: %s at byte %d", e.msg, e.at+1)
}

// lexer walks one line.
type lexer struct {
	s []byte
	i int
}

func (l *lexer) fail(format string, a ...any) error {
	return &syntaxError{l.i, fmt.Sprintf(format, a...)}
}

func (l *lexer) space() {
	for l.i < len(l.s) {
		switch l.s[l.i] {
		case ' ', '\t', '\n', '\r':
			l.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (l *lexer) peek() byte {
	l.space()
	if l.i < len(l.s) {
		return l.s[l.i]
	}
	return 0
}

func (l *lexer) expect(c byte) error {
	if l.peek() != c {
		if l.i >= len(l.s) {
			return l.fail("unexpected end, want %q", c)
		}
		return l.fail("found %q, want %q", l.s[l.i], c)
	}
	l.i++
	return nil
}

// null consumes a null literal, reporting whether there was one: JSON null
// for a key is the same as the key's absence.
func (l *lexer) null() bool {
	if l.peek() == 'n' && l.i+4 <= len(l.s) && string(l.s[l.i:l.i+4]) == "null" {
		l.i += 4
		return true
	}
	return false
}

// rawString reads a string and returns its bytes between the quotes, and
// whether they must be unescaped (an escape, or bytes that are not UTF-8).
func (l *lexer) rawString() (raw []byte, plain bool, err error) {
	if l.peek() != '"' {
		return nil, false, l.fail("want a string")
	}
	start := l.i + 1
	plain = true
	for i := start; i < len(l.s); i++ {
		switch c := l.s[i]; {
		case c == '"':
			l.i = i + 1
			raw = l.s[start:i]
			if plain && !isASCII(raw) && !utf8.Valid(raw) {
				plain = false // encoding/json replaces bad bytes with U+FFFD: let it
			}
			return raw, plain, nil
		case c == '\\':
			plain = false
			i++
		case c < 0x20:
			l.i = i
			return nil, false, l.fail("control character in a string")
		}
	}
	l.i = len(l.s)
	return nil, false, l.fail("unterminated string")
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// unquote decodes a string with escapes, the rare case, by encoding/json.
func unquote(raw []byte) (string, error) {
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return "", err
	}
	return s, nil
}

// str reads a string, interned when it is short.
func (d *decoder) str(l *lexer) (string, error) {
	raw, plain, err := l.rawString()
	if err != nil {
		return "", err
	}
	if !plain {
		s, err := unquote(raw)
		if err != nil {
			return "", l.fail("bad string: %v", err)
		}
		return s, nil
	}
	if s, ok := d.strs[string(raw)]; ok {
		return s, nil
	}
	s := string(raw)
	if len(d.strs) < maxInterned && len(s) <= maxInternedLen {
		d.strs[s] = s
	}
	return s, nil
}

// number returns the text of a JSON number.
func (l *lexer) number() ([]byte, error) {
	l.space()
	start := l.i
	s := l.s
	i := start
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() bool {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if !digits() {
		return nil, l.fail("want a number")
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			l.i = i
			return nil, l.fail("bad number")
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			l.i = i
			return nil, l.fail("bad number")
		}
	}
	l.i = i
	return s[start:i], nil
}

// int64 reads an integer (no fraction, no exponent: encoding/json refuses
// those for integer fields too).
func (l *lexer) int64(key string) (int64, error) {
	tok, err := l.number()
	if err != nil {
		return 0, err
	}
	neg := tok[0] == '-'
	digits := tok
	if neg {
		digits = tok[1:]
	}
	var v uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, l.fail("%s %s is not an integer", key, tok)
		}
		if v > (1<<63)/10 {
			return 0, l.fail("%s %s is out of range", key, tok)
		}
		v = v*10 + uint64(c-'0')
	}
	if neg {
		if v > 1<<63 {
			return 0, l.fail("%s %s is out of range", key, tok)
		}
		return -int64(v), nil
	}
	if v > 1<<63-1 {
		return 0, l.fail("%s %s is out of range", key, tok)
	}
	return int64(v), nil
}

func (l *lexer) int(key string) (int, error) {
	v, err := l.int64(key)
	if err != nil {
		return 0, err
	}
	if int64(int(v)) != v {
		return 0, l.fail("%s %d is out of range", key, v)
	}
	return int(v), nil
}

func (l *lexer) float(key string) (float64, error) {
	tok, err := l.number()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		return 0, l.fail("%s %s is out of range", key, tok)
	}
	return v, nil
}

func (l *lexer) bool(key string) (bool, error) {
	for _, lit := range []string{"true", "false"} {
		if l.i+len(lit) <= len(l.s) && string(l.s[l.i:l.i+len(lit)]) == lit {
			l.i += len(lit)
			return lit == "true", nil
		}
	}
	return false, l.fail("%s is not true or false", key)
}

// skipClass marks the bytes that matter when skipping a structured value.
var skipClass = [256]bool{'"': true, '[': true, ']': true, '{': true, '}': true}

// skip passes over one value without decoding it. Arrays and objects are
// checked for balanced brackets outside strings, and nothing more.
func (l *lexer) skip() error {
	switch c := l.peek(); c {
	case '"':
		_, _, err := l.rawString()
		return err
	case '[', '{':
		depth := 0
		s := l.s
		for i := l.i; i < len(s); i++ {
			if !skipClass[s[i]] {
				continue
			}
			switch s[i] {
			case '[', '{':
				depth++
			case ']', '}':
				depth--
				if depth == 0 {
					l.i = i + 1
					return nil
				}
			case '"':
				for i++; i < len(s) && s[i] != '"'; i++ {
					if s[i] == '\\' {
						i++
					}
				}
			}
		}
		l.i = len(s)
		return l.fail("unbalanced brackets")
	case 't', 'f', 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if l.i+len(lit) <= len(l.s) && string(l.s[l.i:l.i+len(lit)]) == lit {
				l.i += len(lit)
				return nil
			}
		}
		return l.fail("bad literal")
	default:
		_, err := l.number()
		return err
	}
}

// object calls fn with each key of an object; fn must consume the value.
func (l *lexer) object(fn func(key []byte) error) error {
	if err := l.expect('{'); err != nil {
		return err
	}
	if l.peek() == '}' {
		l.i++
		return nil
	}
	for {
		raw, plain, err := l.rawString()
		if err != nil {
			return err
		}
		key := raw
		if !plain {
			s, err := unquote(raw)
			if err != nil {
				return l.fail("bad key: %v", err)
			}
			key = []byte(s)
		}
		if err := l.expect(':'); err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
		switch l.peek() {
		case ',':
			l.i++
		case '}':
			l.i++
			return nil
		default:
			return l.fail("want , or } after a value")
		}
	}
}

// array calls fn for each element; fn must consume it.
func (l *lexer) array(fn func() error) error { return l.arrayOf("", 0, fn) }

// arrayOf is array for an array of at most most elements (0: any number), named what: it
// fails at the first element past the limit, before decoding it.
func (l *lexer) arrayOf(what string, most int, fn func() error) error {
	if err := l.expect('['); err != nil {
		return err
	}
	if l.peek() == ']' {
		l.i++
		return nil
	}
	for n := 1; ; n++ {
		if most > 0 && n > most {
			return l.fail("more than %d %s", most, what)
		}
		if err := fn(); err != nil {
			return err
		}
		switch l.peek() {
		case ',':
			l.i++
		case ']':
			l.i++
			return nil
		default:
			return l.fail("want , or ] after an element")
		}
	}
}

// decode decodes the fields f of one line into g (which must be zero) and
// validates them.
func (d *decoder) decode(line []byte, f Fields, g *Game) error {
	l := &lexer{s: line}
	var present Fields
	err := l.object(func(key []byte) error {
		field := fieldOf(key)
		if field == 0 || f&field == 0 {
			return l.skip()
		}
		if l.null() {
			return nil // as if absent
		}
		present |= field
		return d.field(l, field, g)
	})
	if err != nil {
		return err
	}
	if l.peek() != 0 {
		return l.fail("text after the record")
	}
	for _, req := range []Fields{FieldID, FieldSeed, FieldMoves, FieldPlies, FieldPlayers, FieldRules} {
		if f&req != 0 && present&req == 0 {
			return fmt.Errorf("%s is missing", req)
		}
	}
	return g.validateFields(f)
}

func (d *decoder) field(l *lexer, field Fields, g *Game) error {
	var err error
	switch field {
	case FieldID:
		g.ID, err = l.int("id")
	case FieldSeed:
		var tok []byte
		if tok, err = l.number(); err == nil {
			if g.Seed, err = strconv.ParseUint(string(tok), 10, 64); err != nil {
				err = l.fail("seed %s is not an integer in 0 … 2⁶⁴−1", tok)
			}
		}
	case FieldVariant:
		g.Variant, err = d.str(l)
	case FieldStart:
		g.Start, err = d.str(l)
	case FieldStartName:
		g.StartName, err = d.str(l)
	case FieldMoves:
		g.Moves, err = d.moves(l)
	case FieldResult:
		var s string
		s, err = d.str(l)
		g.Result = Result(s)
	case FieldTermination:
		var s string
		s, err = d.str(l)
		g.Termination = Termination(s)
	case FieldPlies:
		g.Plies, err = l.int("plies")
	case FieldPlayers:
		err = l.object(func(key []byte) error {
			switch string(key) {
			case "sente":
				return d.player(l, &g.Players.Sente)
			case "gote":
				return d.player(l, &g.Players.Gote)
			}
			return l.skip()
		})
	case FieldRules:
		err = l.object(func(key []byte) error {
			if l.null() {
				return nil
			}
			switch string(key) {
			case "repetition":
				var err error
				g.Rules.Repetition, err = d.str(l)
				return err
			case "max_plies":
				var err error
				g.Rules.MaxPlies, err = l.int("rules.max_plies")
				return err
			}
			return l.skip()
		})
	case FieldStats:
		err = l.arrayOf("stats entries", MaxGamePlies, func() error {
			g.Stats = append(g.Stats, MoveStats{})
			return d.moveStats(l, &g.Stats[len(g.Stats)-1])
		})
	case FieldVersion:
		g.Version, err = d.str(l)
	case FieldStartedAt:
		start := l.i
		if _, _, err = l.rawString(); err == nil {
			// time.Time's own decoding: RFC 3339, strictly.
			if terr := g.StartedAt.UnmarshalJSON(l.s[start:l.i]); terr != nil {
				err = fmt.Errorf("started_at: %v", terr)
			}
		}
	case FieldSeconds:
		g.Seconds, err = l.float("seconds")
	case FieldDetail:
		g.Detail, err = d.str(l)
	}
	return err
}

// moves reads an array of strings into a slice cut from the arena, so that
// a game's moves take no allocation of their own.
func (d *decoder) moves(l *lexer) ([]string, error) {
	const arenaSize = 4096
	start := len(d.arena)
	err := l.arrayOf("moves", MaxGamePlies, func() error {
		s, err := d.str(l)
		if err != nil {
			return err
		}
		if len(d.arena) == cap(d.arena) {
			// Move this game's moves so far to a fresh arena.
			fresh := make([]string, 0, max(arenaSize, 2*(len(d.arena)-start)))
			d.arena = append(fresh, d.arena[start:]...)
			start = 0
		}
		d.arena = append(d.arena, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	moves := d.arena[start:len(d.arena):len(d.arena)] // full: an append copies
	if len(moves) == 0 {
		moves = []string{}
	}
	return moves, nil
}

func (d *decoder) player(l *lexer, p *Player) error {
	if l.null() {
		return nil
	}
	return l.object(func(key []byte) error {
		if l.null() {
			return nil
		}
		var err error
		switch string(key) {
		case "name":
			p.Name, err = d.str(l)
		case "kind":
			p.Kind, err = d.str(l)
		case "config":
			p.Config, err = d.config(l)
		default:
			err = l.skip()
		}
		return err
	})
}

// config decodes a free-form configuration by encoding/json, once per
// distinct text.
func (d *decoder) config(l *lexer) (map[string]any, error) {
	start := l.i
	if l.peek() != '{' {
		return nil, l.fail("config is not an object")
	}
	if err := l.skip(); err != nil {
		return nil, err
	}
	raw := l.s[start:l.i]
	if len(raw) > MaxConfigBytes {
		return nil, fmt.Errorf("config: %d bytes, more than %d", len(raw), MaxConfigBytes)
	}
	if c, ok := d.configs[string(raw)]; ok {
		return c, nil
	}
	var c map[string]any
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("config: %v", err)
	}
	if len(d.configs) < maxConfigs {
		d.configs[string(raw)] = c
	}
	return c, nil
}

// moveEntry reads an entry of a list of moves, a top move or a policy move: an object of
// the move and one number under key, read by num; other keys are skipped.
func (d *decoder) moveEntry(l *lexer, move *string, key string, num func() error) error {
	return l.object(func(k []byte) error {
		if l.null() {
			return nil
		}
		switch string(k) {
		case "move":
			var err error
			*move, err = d.str(l)
			return err
		case key:
			return num()
		}
		return l.skip()
	})
}

func (d *decoder) moveStats(l *lexer, s *MoveStats) error {
	var visits, value bool
	err := l.object(func(key []byte) error {
		if l.null() {
			return nil
		}
		var err error
		switch string(key) {
		case "visits":
			s.Visits, err = l.int64("visits")
			visits = true
		case "value":
			s.Value, err = l.float("value")
			value = true
		case "top":
			err = l.arrayOf("top moves", MaxTopMoves, func() error {
				s.Top = append(s.Top, TopMove{})
				t := &s.Top[len(s.Top)-1]
				return d.moveEntry(l, &t.Move, "visits", func() (err error) {
					t.Visits, err = l.int64("top.visits")
					return err
				})
			})
		case "score_cp":
			var v int
			v, err = l.int("score_cp")
			s.ScoreCP = &v
		case "mate":
			var v int
			v, err = l.int("mate")
			s.Mate = &v
		case "ms":
			s.MS, err = l.float("ms")
		case "fast":
			s.Fast, err = l.bool("fast")
		case "policy":
			err = l.arrayOf("policy moves", MaxTopMoves, func() error {
				s.Policy = append(s.Policy, PolicyMove{})
				p := &s.Policy[len(s.Policy)-1]
				return d.moveEntry(l, &p.Move, "p", func() (err error) {
					p.P, err = l.float("policy.p")
					return err
				})
			})
		default:
			err = l.skip()
		}
		return err
	})
	switch {
	case err != nil:
		return err
	case !visits:
		return errors.New("stats: an entry lacks visits")
	case !value:
		return errors.New("stats: an entry lacks value")
	}
	return nil
}
