package selection

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// Filter chooses games. The zero Filter keeps every game.
type Filter struct {
	// Player keeps games where either side's player has this name.
	Player string
	// Since and Until keep games whose started_at lies in [Since, Until);
	// a game without started_at is dropped when either is set, since its
	// date is unknown.
	Since, Until time.Time

	start string // the start position's board, side and hands; "" for any
}

// SetStart keeps only games from one start position, given as an SFEN or as
// a name minishogi.NamedStart knows ("startpos", "bare-king", ...). Positions
// are compared by board, side to move and hands: the move number is ignored.
func (f *Filter) SetStart(sfenOrName string) error {
	pos, err := minishogi.NamedStart(sfenOrName)
	if err != nil {
		var serr error
		if pos, serr = minishogi.ParseSFEN(sfenOrName); serr != nil {
			return fmt.Errorf("selection: start %q is neither a start name (%s) nor an SFEN: %v",
				sfenOrName, strings.Join(append([]string{"startpos"}, minishogi.HandicapNames()...), ", "), serr)
		}
	}
	f.start = PositionKey(pos.SFEN())
	return nil
}

// Start is the start position the filter keeps, as board, side and hands, or
// "" for any.
func (f Filter) Start() string { return f.start }

// PositionKey is an SFEN without its move number: two SFENs of one position
// reached after different numbers of moves have the same key.
func PositionKey(sfen string) string {
	if i := strings.LastIndexByte(sfen, ' '); i >= 0 && strings.Count(sfen, " ") == 3 {
		return sfen[:i]
	}
	return sfen
}

// ParseDate reads a date as YYYY-MM-DD (midnight UTC) or as RFC 3339.
func ParseDate(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("selection: date %q is not YYYY-MM-DD or RFC 3339", s)
	}
	return t, nil
}

// Match reports whether the filter keeps g.
func (f Filter) Match(g *record.Game) bool {
	if f.Player != "" && g.Players.Sente.Name != f.Player && g.Players.Gote.Name != f.Player {
		return false
	}
	if !f.Since.IsZero() || !f.Until.IsZero() {
		if g.StartedAt.IsZero() ||
			(!f.Since.IsZero() && g.StartedAt.Before(f.Since)) ||
			(!f.Until.IsZero() && !g.StartedAt.Before(f.Until)) {
			return false
		}
	}
	// Records written by this toolkit carry canonical SFENs, so comparing
	// text is enough; a hand-written start with another spelling of the same
	// position would not match, and the rules package could canonicalise it
	// at the cost of a parse per game.
	return f.start == "" || PositionKey(g.Start) == f.start
}

// ErrBadGame marks an error of Stream's fn that condemns the game, not the
// run: with Options.SkipBad the game is skipped and counted.
var ErrBadGame = errors.New("bad game")

// CoreFields are the fields Stream reads whatever fn needs: the small ones
// that say what a game is and how it ended, so that the record's checks of
// its result against its termination still run on a projected read.
const CoreFields = record.FieldID | record.FieldVariant | record.FieldStart | record.FieldResult |
	record.FieldTermination | record.FieldPlies | record.FieldRules

// fields are the fields the filter looks at.
func (f Filter) fields() record.Fields {
	var need record.Fields
	if f.Player != "" {
		need |= record.FieldPlayers
	}
	if !f.Since.IsZero() || !f.Until.IsZero() {
		need |= record.FieldStartedAt
	}
	return need
}

// Options tune Stream.
type Options struct {
	// Fields are the fields fn reads besides CoreFields (say
	// record.FieldMoves); the others are left zero, which saves most of the
	// reading (the statistics are most of a record). Zero reads every
	// field.
	Fields record.Fields
	// SkipBad skips records that do not parse or validate, and games fn
	// rejects with an error wrapping ErrBadGame (an illegal move, say),
	// counting them, instead of stopping at the first.
	SkipBad bool
	// OnSkip, if not nil, receives each skipped record's *record.LineError
	// (from the reading goroutine) and each rejected game's error.
	OnSkip func(error)
	// Check, if not nil, judges the moves of each game the filter keeps
	// before fn sees it, on the reader's decoding goroutines (so it must be
	// safe to call from several at once; table.Options.Check): an error
	// wrapping ErrBadGame rejects the game as fn's would, any other stops the
	// stream. CheckMoves is the check. Games from a games table are not
	// checked again: its writer replayed every game with the rules
	// (table.Create).
	Check func(*record.Game) error
	// Progress, if not nil, is called after each game read with the number
	// read so far, for a progress display.
	Progress func(read int)
}

// Counts say how many records Stream saw.
type Counts struct {
	Read     int `json:"read"`     // valid records read
	Matched  int `json:"matched"`  // of those, games the filter kept
	Skipped  int `json:"skipped"`  // bad records skipped (with SkipBad)
	Rejected int `json:"rejected"` // games fn rejected with ErrBadGame (with SkipBad)
}

// Stream reads the files in order and calls fn with every game f keeps. An
// error from fn stops the stream and is returned, wrapped with the file and
// line of the game when it is not already located.
//
// The files are record files (JSON Lines, plain or gzip) or games tables
// (.parquet), read by table.NewReader, whose decoding goroutines run the
// filter and Options.Check on every core; fn sees the games in file order on
// the goroutine that called Stream.
func Stream(paths []string, f Filter, opts Options, fn func(*record.Game) error) (Counts, error) {
	fields := record.AllFields
	if opts.Fields != 0 {
		fields = opts.Fields | CoreFields | f.fields()
	}
	var sel func(*record.Game) bool
	if f != (Filter{}) {
		sel = f.Match
	}
	r := table.NewReader(paths, table.Options{Fields: fields, SkipInvalid: opts.SkipBad, OnSkip: opts.OnSkip, Select: sel, Check: opts.Check})
	defer r.Close()
	var c Counts
	count := func() {
		c.Skipped, c.Read = r.Skipped(), c.Matched+r.Dropped()
	}
	for {
		g, err := r.Read()
		if g == nil {
			count()
			if err == io.EOF {
				return c, nil
			}
			return c, err
		}
		c.Matched++
		count()
		if opts.Progress != nil {
			opts.Progress(c.Read)
		}
		if err == nil {
			err = fn(g)
		}
		if err != nil {
			if opts.SkipBad && errors.Is(err, ErrBadGame) {
				c.Rejected++
				if opts.OnSkip != nil {
					opts.OnSkip(err)
				}
				continue
			}
			return c, fmt.Errorf("%w (game id %d, the %s record read)", err, g.ID, ordinal(c.Read))
		}
	}
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprint(n, suffix)
}

// CheckMovesFields are the record fields CheckMoves reads.
const CheckMovesFields = record.FieldID | record.FieldVariant | record.FieldStart | record.FieldMoves

// CheckMoves replays g's moves from its start with the rules and returns an error wrapping
// ErrBadGame at the first illegal one, so that every analysis rejects (or, with
// Options.SkipBad, skips and counts) the same games. It does not judge how the game ended.
func CheckMoves(g *record.Game) error {
	bad := func(err error) error { return fmt.Errorf("selection: game %d: %w (%w)", g.ID, err, ErrBadGame) }
	if g.Variant != "minishogi" {
		return bad(fmt.Errorf("variant %q: only minishogi games can be replayed", g.Variant))
	}
	pos, err := minishogi.ParseSFEN(g.Start)
	if err != nil {
		return bad(err)
	}
	for i, s := range g.Moves {
		m, err := pos.ParseMove(s)
		if err != nil {
			return bad(fmt.Errorf("moves[%d]: %w", i, err))
		}
		pos.MakeMove(m)
	}
	return nil
}
