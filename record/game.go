package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/shogilab/shogilab/internal/bounded"
)

// Result is who won: the side, not the player, so that it reads the same
// whichever engine played which side.
type Result string

const (
	Sente Result = "sente" // the side that moves first in the normal start (uppercase pieces)
	Gote  Result = "gote"
	Draw  Result = "draw"
)

// Termination is how a game ended.
//
// There is no "interrupted": a game cut short by a kill is not recorded at
// all; the runner plays it again from its seed on resume.
type Termination string

const (
	Checkmate      Termination = "checkmate"       // the side to move is in check with no legal move
	Stalemate      Termination = "stalemate"       // the side to move has no legal move and is not in check: it loses, as in shogi
	Repetition     Termination = "repetition"      // fourfold repetition without perpetual check; the result follows rules.repetition
	PerpetualCheck Termination = "perpetual_check" // fourfold repetition where one side checked every move: it loses
	MaxPlies       Termination = "max_plies"       // the play limit rules.max_plies was reached: a draw
	Resignation    Termination = "resignation"     // an engine answered `bestmove resign` or a player resigned
	IllegalMove    Termination = "illegal_move"    // a player (an external engine) gave an illegal move: it loses
	EngineError    Termination = "engine_error"    // a player's engine died, timed out or answered nonsense: it loses
	TimeForfeit    Termination = "time_forfeit"    // a player on a clock used more time than it had: it loses
)

var terminations = []Termination{Checkmate, Stalemate, Repetition, PerpetualCheck, MaxPlies, Resignation, IllegalMove, EngineError, TimeForfeit}

// Terminations returns every termination, in the order of the format's table.
func Terminations() []Termination { return append([]Termination(nil), terminations...) }

// Player kinds.
const (
	KindMCTS   = "mcts"   // the toolkit's MCTS engine
	KindUSI    = "usi"    // an external USI engine
	KindRandom = "random" // uniformly random legal moves
)

// ConfigResign is the key of the toolkit engine's config that says when it resigned, with
// the values of the engine's setting Resign (datasets/README.md, Player). A record written
// before the setting lacks the key; its engine resigned as ResignProven says.
const (
	ConfigResign = "resign"
	ResignProven = "proven" // when every move is proven lost
	ResignNever  = "never"  // never: a lost game is played to its end
)

// Resign is when p resigned: its config's resign for the toolkit's engine (ResignProven
// when the config does not say, as in records from before the setting), "" for any other
// player, whose rule the record does not know.
func (p Player) Resign() string {
	if p.Kind != KindMCTS {
		return ""
	}
	if r, ok := p.Config[ConfigResign].(string); ok {
		return r
	}
	return ResignProven
}

// Repetition rules (docs/rules.md#repetition-options): who loses a non-check fourfold repetition.
const (
	RepetitionFirstMoverLoses = "first-mover-loses" // the player who made the game's first move loses (seed 001)
	RepetitionGoteWins        = "gote-wins"         // UEC Cup and pychess
	RepetitionDraw            = "draw"              // standard shogi
)

// Game is one game record: one line of a .jsonl file. datasets/README.md is
// the specification of every field.
type Game struct {
	ID          int         `json:"id"`   // global game index, 0-based
	Seed        uint64      `json:"seed"` // the game's own seed
	Variant     string      `json:"variant"`
	Start       string      `json:"start"`                // SFEN of the start position
	StartName   string      `json:"start_name,omitempty"` // "startpos", a handicap name or "opening:<n>"
	Moves       []string    `json:"moves"`                // USI moves
	Result      Result      `json:"result"`
	Termination Termination `json:"termination"`
	Plies       int         `json:"plies"` // len(Moves)
	Players     Players     `json:"players"`
	Rules       Rules       `json:"rules"`
	Stats       []MoveStats `json:"stats,omitempty"` // per move, in move order; may be shorter than Moves
	Version     string      `json:"version"`         // the toolkit version that wrote the record
	// Detail says what ended a game by illegal_move or engine_error: the
	// player's answer or how its engine failed.
	Detail string `json:"detail,omitempty"`

	// Timing fields: they differ between runs of the same seed.
	StartedAt time.Time `json:"started_at,omitzero"` // RFC 3339, UTC
	Seconds   float64   `json:"seconds,omitempty"`   // wall time of the game
}

// Players are the two sides' players.
type Players struct {
	Sente Player `json:"sente"`
	Gote  Player `json:"gote"`
}

// Player describes who played a side and how it was configured.
type Player struct {
	Name   string         `json:"name"`
	Kind   string         `json:"kind"`             // KindMCTS, KindUSI or KindRandom
	Config map[string]any `json:"config,omitempty"` // free-form: playouts, threads, c_puct, argv...
}

// Rules are the game-end options the game was played under.
type Rules struct {
	Repetition string `json:"repetition"` // RepetitionFirstMoverLoses, RepetitionGoteWins or RepetitionDraw
	MaxPlies   int    `json:"max_plies"`  // the play limit; 0 means none
}

// MoveStats is what the mover's search saw before one move.
type MoveStats struct {
	Visits  int64     `json:"visits"`             // root visits (MCTS) or nodes (an external engine)
	Value   float64   `json:"value"`              // the side to move's expected outcome in [-1, 1]
	Top     []TopMove `json:"top,omitempty"`      // the most visited moves, most visited first
	ScoreCP *int      `json:"score_cp,omitempty"` // an external engine's score in centipawns
	Mate    *int      `json:"mate,omitempty"`     // an external engine's mate distance as it printed it
	MS      float64   `json:"ms,omitempty"`       // timing field: milliseconds spent on the move
	// Fast marks a move of a playout cap's fast search: played, but not a policy target.
	// A record without the key (all records before the playout cap) has only targets.
	Fast bool `json:"fast,omitempty"`
	// Policy is the search's policy target, most probable first: the Gumbel root's
	// improved policy or the (pruned) visit distribution. Absent on fast moves and in
	// records from before it (a trainer falls back to Top's visits there).
	Policy []PolicyMove `json:"policy,omitempty"`
}

// Target reports whether the move's search is a policy target: any move that was not a
// playout cap's fast search.
func (s MoveStats) Target() bool { return !s.Fast }

// PolicyMove is one move of a policy target and its probability.
type PolicyMove struct {
	Move string  `json:"move"`
	P    float64 `json:"p"`
}

// TopMove is one candidate move of a search with its visit count.
type TopMove struct {
	Move   string `json:"move"`
	Visits int64  `json:"visits"`
}

// StripTiming zeroes the timing fields (started_at, seconds and every
// stats[].ms), so that two runs of the same seed compare equal.
func (g *Game) StripTiming() {
	g.StartedAt = time.Time{}
	g.Seconds = 0
	for i := range g.Stats {
		g.Stats[i].MS = 0
	}
}

// Validate checks the record's invariants: required fields, enumerations,
// plies == len(moves), at most one stats entry per move, and that the result
// agrees with the termination. Errors name the field.
func (g *Game) Validate() error {
	if err := g.validate(); err != nil {
		return fmt.Errorf("record: game %d: %w", g.ID, err)
	}
	return nil
}

func (g *Game) validate() error { return g.validateFields(AllFields) }

// ValidateFields is Validate for a game of which only the fields f were
// read: it makes the checks whose inputs are all among f.
func (g *Game) ValidateFields(f Fields) error {
	if err := g.validateFields(f); err != nil {
		return fmt.Errorf("record: game %d: %w", g.ID, err)
	}
	return nil
}

func (g *Game) validateFields(f Fields) error {
	if f.Has(FieldID) && g.ID < 0 {
		return fmt.Errorf("id %d is negative", g.ID)
	}
	if f.Has(FieldVariant) && g.Variant == "" {
		return errors.New("variant is empty")
	}
	var startSide Result
	if f.Has(FieldStart) {
		var err error
		if startSide, err = sfenSide(g.Start); err != nil {
			return err
		}
	}
	if f.Has(FieldMoves) {
		if len(g.Moves) > MaxGamePlies {
			return fmt.Errorf("%d moves, more than %d", len(g.Moves), MaxGamePlies)
		}
		for i, m := range g.Moves {
			if !IsUSIMove(m) {
				return fmt.Errorf("moves[%d] %s is not a USI move", i, quote(m))
			}
		}
	}
	if f.Has(FieldPlies|FieldMoves) && g.Plies != len(g.Moves) {
		return fmt.Errorf("plies is %d but there are %d moves", g.Plies, len(g.Moves))
	}
	if f.Has(FieldPlies) && (g.Plies < 0 || g.Plies > MaxGamePlies) {
		return fmt.Errorf("plies %d is not from 0 to %d", g.Plies, MaxGamePlies)
	}
	if f.Has(FieldStats) && len(g.Stats) > MaxGamePlies {
		return fmt.Errorf("%d stats entries, more than %d", len(g.Stats), MaxGamePlies)
	}
	if f.Has(FieldStats|FieldPlies) && len(g.Stats) > g.Plies {
		return fmt.Errorf("%d stats entries for %d plies", len(g.Stats), g.Plies)
	}
	if f.Has(FieldStats) {
		for i, s := range g.Stats {
			if err := s.validate(); err != nil {
				return fmt.Errorf("stats[%d]: %w", i, err)
			}
		}
	}
	if f.Has(FieldPlayers) {
		if err := g.Players.Sente.validate(); err != nil {
			return fmt.Errorf("players.sente: %w", err)
		}
		if err := g.Players.Gote.validate(); err != nil {
			return fmt.Errorf("players.gote: %w", err)
		}
	}
	if f.Has(FieldRules) {
		plies := -1 // unknown: the play limit cannot be checked
		if f.Has(FieldPlies) {
			plies = g.Plies
		}
		if err := g.Rules.validate(plies); err != nil {
			return err
		}
	}
	if f.Has(FieldVersion) && g.Version == "" {
		return errors.New("version is empty")
	}
	if f.Has(FieldStartedAt) && !g.StartedAt.IsZero() && g.StartedAt.Location() != time.UTC {
		return fmt.Errorf("started_at %s is not in UTC", g.StartedAt.Format(time.RFC3339))
	}
	if f.Has(FieldSeconds) && (g.Seconds < 0 || math.IsNaN(g.Seconds) || math.IsInf(g.Seconds, 0)) {
		return fmt.Errorf("seconds %v is not a duration", g.Seconds)
	}
	return g.validateOutcome(startSide, f)
}

// validateOutcome checks that the result follows from the termination, which
// catches a runner that credits the wrong side.
//
// With some of its inputs not among the fields f (a projected read), it checks
// what they allow: each value on its own, and the pair when the termination's
// rule needs nothing missing.
func (g *Game) validateOutcome(startSide Result, f Fields) error {
	if f.Has(FieldResult) {
		switch g.Result {
		case Sente, Gote, Draw:
		default:
			return fmt.Errorf("result %s is not sente, gote or draw", quote(string(g.Result)))
		}
	}
	if !f.Has(FieldTermination) {
		return nil
	}
	var want Result // the only result the termination allows; "" when it allows either side
	switch g.Termination {
	case Checkmate, Stalemate:
		// The side to move after the last move has no move and loses.
		if f.Has(FieldStart | FieldPlies) {
			want = opponent(sideAfter(startSide, g.Plies))
		}
	case Repetition:
		if !f.Has(FieldStart | FieldRules) {
			break
		}
		switch g.Rules.Repetition {
		case RepetitionDraw:
			want = Draw
		case RepetitionGoteWins:
			want = Gote
		case RepetitionFirstMoverLoses:
			want = opponent(startSide)
		}
	case MaxPlies:
		want = Draw
	case PerpetualCheck, Resignation, IllegalMove, EngineError, TimeForfeit:
		if f.Has(FieldResult) && g.Result == Draw {
			return fmt.Errorf("result is draw but termination %s has a loser", g.Termination)
		}
	default:
		return fmt.Errorf("termination %s is not one of %s", quote(string(g.Termination)), joinTerminations())
	}
	if want != "" && f.Has(FieldResult) && g.Result != want {
		return fmt.Errorf("result is %s but termination %s after %d plies from %s means %s", g.Result, g.Termination, g.Plies, quote(g.Start), want)
	}
	return nil
}

func joinTerminations() string {
	names := make([]string, len(terminations))
	for i, t := range terminations {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

func opponent(side Result) Result {
	if side == Sente {
		return Gote
	}
	return Sente
}

// sideAfter is the side to move after plies moves from a start where side moves.
func sideAfter(side Result, plies int) Result {
	if plies%2 == 1 {
		return opponent(side)
	}
	return side
}

// sfenSide checks the SFEN's shape (board, side, hands, move number) and
// returns its side to move. The board itself is the rules package's business.
func sfenSide(sfen string) (Result, error) {
	f := strings.Split(sfen, " ")
	if len(f) != 4 || f[0] == "" || f[2] == "" || !isDigits(f[3]) {
		return "", fmt.Errorf("start %s is not an SFEN (board side hands move-number)", quote(sfen))
	}
	switch f[1] {
	case "b":
		return Sente, nil
	case "w":
		return Gote, nil
	}
	return "", fmt.Errorf("start %s: side to move %s is not b or w", quote(sfen), quote(f[1]))
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// IsUSIMove reports whether m has the shape of a USI move on a board of up to
// 9x9: `5d5c`, `2b1a+` or `P*3c`. Legality is the rules package's business.
func IsUSIMove(m string) bool {
	square := func(s string) bool { return s[0] >= '1' && s[0] <= '9' && s[1] >= 'a' && s[1] <= 'i' }
	switch {
	case len(m) == 4 && m[1] == '*':
		return strings.IndexByte("PLNSGBR", m[0]) >= 0 && square(m[2:])
	case len(m) == 4:
		return square(m[:2]) && square(m[2:])
	case len(m) == 5 && m[4] == '+':
		return square(m[:2]) && square(m[2:4])
	}
	return false
}

// quote quotes a value of a record for an error, by a short prefix when it is long.
func quote(s string) string { return bounded.Quote([]byte(s)) }

func (p Player) validate() error {
	if p.Name == "" {
		return errors.New("name is empty")
	}
	switch p.Kind {
	case KindMCTS, KindUSI, KindRandom:
		return nil
	}
	return fmt.Errorf("kind %s is not mcts, usi or random", quote(p.Kind))
}

// validate checks the rules and, when plies is not negative, that a game of
// plies moves kept to the play limit.
func (r Rules) validate(plies int) error {
	switch r.Repetition {
	case RepetitionFirstMoverLoses, RepetitionGoteWins, RepetitionDraw:
	default:
		return fmt.Errorf("rules.repetition %s is not first-mover-loses, gote-wins or draw", quote(r.Repetition))
	}
	if r.MaxPlies < 0 {
		return fmt.Errorf("rules.max_plies %d is negative", r.MaxPlies)
	}
	if r.MaxPlies > 0 && plies > r.MaxPlies { // plies is -1 when unknown
		return fmt.Errorf("%d plies exceed rules.max_plies %d", plies, r.MaxPlies)
	}
	return nil
}

func (s MoveStats) validate() error {
	if s.Visits < 0 {
		return fmt.Errorf("visits %d is negative", s.Visits)
	}
	if !(s.Value >= -1 && s.Value <= 1) { // also rejects NaN
		return fmt.Errorf("value %v is outside [-1, 1]", s.Value)
	}
	if len(s.Top) > MaxTopMoves {
		return fmt.Errorf("%d top moves, more than %d", len(s.Top), MaxTopMoves)
	}
	for i, t := range s.Top {
		if !IsUSIMove(t.Move) {
			return fmt.Errorf("top[%d].move %s is not a USI move", i, quote(t.Move))
		}
		if t.Visits < 0 {
			return fmt.Errorf("top[%d].visits %d is negative", i, t.Visits)
		}
	}
	if len(s.Policy) > MaxTopMoves {
		return fmt.Errorf("%d policy moves, more than %d", len(s.Policy), MaxTopMoves)
	}
	sum := 0.0
	for i, p := range s.Policy {
		if !IsUSIMove(p.Move) {
			return fmt.Errorf("policy[%d].move %s is not a USI move", i, quote(p.Move))
		}
		if !(p.P >= 0 && p.P <= 1) {
			return fmt.Errorf("policy[%d].p %v is outside [0, 1]", i, p.P)
		}
		sum += p.P
	}
	if sum > 1+PolicySlack {
		return fmt.Errorf("policy sums to %v, more than 1", sum)
	}
	if s.MS < 0 || math.IsNaN(s.MS) || math.IsInf(s.MS, 0) {
		return fmt.Errorf("ms %v is not a duration", s.MS)
	}
	return nil
}

// ParseLine decodes and validates one record (one line, without or with its
// newline). Fields that must be present even when zero (id, seed, moves,
// plies, players, rules) are checked for presence; unknown fields are
// ignored so that older readers accept newer additive versions.
func ParseLine(line []byte) (*Game, error) {
	g := new(Game)
	if err := newDecoder().decode(line, AllFields, g); err != nil {
		return nil, err
	}
	return g, nil
}

// MarshalLine validates g and encodes it as one line, newline included.
func MarshalLine(g *Game) ([]byte, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	out := *g
	if out.Moves == nil {
		out.Moves = []string{} // "moves" is required: never null
	}
	b, err := json.Marshal(&out)
	if err != nil {
		return nil, fmt.Errorf("record: game %d: %w", g.ID, err)
	}
	return append(b, '\n'), nil
}
