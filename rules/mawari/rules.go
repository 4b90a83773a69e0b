package mawari

import (
	"fmt"
	"strings"
)

// Promotion says when a piece moves up the ladder.
type Promotion uint8

const (
	// ExactCorner promotes a piece each time a throw makes it stop exactly on a corner.
	ExactCorner Promotion = iota
	// PerLap promotes a piece each time it completes a full lap of the ring.
	PerLap
)

func (p Promotion) String() string {
	switch p {
	case ExactCorner:
		return "exact"
	case PerLap:
		return "lap"
	}
	return fmt.Sprintf("Promotion(%d)", uint8(p))
}

// ParsePromotion reads "exact" or "lap".
func ParsePromotion(s string) (Promotion, error) {
	switch s {
	case "exact":
		return ExactCorner, nil
	case "lap":
		return PerLap, nil
	}
	return 0, fmt.Errorf("mawari: unknown promotion rule %q (want exact or lap)", s)
}

// Rules are the house rules of a game: every option of docs/rules.md#mawari-options.
// The zero value is not valid; start from a preset.
//
// No option makes the players interact: pieces never block or capture one another, so
// each player's race is independent of the others' and only the turn order links them.
type Rules struct {
	// PointScore is what a piece standing on its tip scores: 20, or 30, 50 or 100.
	PointScore int
	// AllBacksScore is what four backs score: 8 or 20. Ignored with AllBacksJump.
	AllBacksScore int
	// AllBacksJump makes four backs send the piece to the next corner ahead instead,
	// which counts as stopping there.
	AllBacksJump bool
	// Spoil is the probability that a throw is spoiled (a piece leaves the board or lands
	// on another). A spoiled throw does not move the piece.
	Spoil float64
	// SpoilBack makes a spoiled throw move the piece back by the sum of its four pieces.
	// Moving back is never a stop and never undoes a promotion; with PerLap it cannot
	// take the piece behind the start of its current lap.
	SpoilBack bool
	// Promotion chooses exact corner stops or full laps.
	Promotion Promotion
	// CornerJump sends a piece that stops on a corner on to the next corner, where it
	// stops again (and so promotes twice under ExactCorner). A jump does not chain.
	CornerJump bool
	// GoldStep inserts a gold general between silver and bishop on the ladder.
	GoldStep bool
	// Players is the number of players, two to four, each starting on its own corner.
	Players int
}

// Validate reports whether r is a playable rule set.
func (r Rules) Validate() error {
	switch {
	case r.PointScore <= 0:
		return fmt.Errorf("mawari: point score %d; want a positive score (20, 30, 50 or 100)", r.PointScore)
	case !r.AllBacksJump && r.AllBacksScore <= 0:
		return fmt.Errorf("mawari: all-backs score %d; want a positive score (8 or 20) or the jump", r.AllBacksScore)
	case !(r.Spoil >= 0 && r.Spoil < 1):
		return fmt.Errorf("mawari: spoil probability %v; want a number in [0, 1)", r.Spoil)
	case r.Promotion > PerLap:
		return fmt.Errorf("mawari: unknown promotion rule %d", r.Promotion)
	case r.Players < MinPlayers || r.Players > MaxPlayers:
		return fmt.Errorf("mawari: %d players; want %d to %d", r.Players, MinPlayers, MaxPlayers)
	}
	return nil
}

// The number of players a game may have: one per corner, at least two.
const (
	MinPlayers = 2
	MaxPlayers = Corners
)

// String lists every option as name=value, in the spelling of the analyze command's flags.
func (r Rules) String() string {
	allBacks := fmt.Sprint(r.AllBacksScore)
	if r.AllBacksJump {
		allBacks = "jump"
	}
	spoil := "zero"
	if r.SpoilBack {
		spoil = "back"
	}
	return fmt.Sprintf("point=%d all-backs=%s spoil=%g spoil-effect=%s promotion=%s corner-jump=%t gold-step=%t players=%d",
		r.PointScore, allBacks, r.Spoil, spoil, r.Promotion, r.CornerJump, r.GoldStep, r.Players)
}

// Preset is a named rule set.
type Preset struct {
	Name        string
	Description string
	Rules       Rules
}

// standard is the main rule set of docs/rules.md#mawari: point 20, four backs 8, no spoiled throws, exact
// corner stops, no jumps, no gold step, two players.
var standard = Rules{PointScore: 20, AllBacksScore: 8, Promotion: ExactCorner, Players: 2}

// Presets returns the named rule sets, the standard one first. Each differs from the
// standard in the options its description names.
func Presets() []Preset {
	with := func(change func(*Rules)) Rules {
		r := standard
		change(&r)
		return r
	}
	return []Preset{
		{"standard", "the main rules (docs/rules.md): point 20, four backs 8, exact corner stops", standard},
		{"lap", "promote after each full lap instead of exact corner stops", with(func(r *Rules) { r.Promotion = PerLap })},
		{"jump", "four backs jump to the next corner; a corner stop jumps on to the next corner", with(func(r *Rules) {
			r.AllBacksJump = true
			r.CornerJump = true
		})},
		{"gold", "a gold step between silver and bishop", with(func(r *Rules) { r.GoldStep = true })},
		{"generous", "point 100, four backs 20", with(func(r *Rules) {
			r.PointScore = 100
			r.AllBacksScore = 20
		})},
		{"table", "5% of throws spoiled, moving the piece back", with(func(r *Rules) {
			r.Spoil = 0.05
			r.SpoilBack = true
		})},
	}
}

// LookupPreset returns the rules of the preset called name.
func LookupPreset(name string) (Rules, error) {
	for _, p := range Presets() {
		if p.Name == name {
			return p.Rules, nil
		}
	}
	return Rules{}, fmt.Errorf("mawari: unknown preset %q (want one of %s)", name, strings.Join(PresetNames(), ", "))
}

// PresetNames lists the preset names in the order of Presets.
func PresetNames() []string {
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	return names
}

// DefaultPreset is the name of the standard rules.
const DefaultPreset = "standard"

// Ladder is the sequence of ranks a piece climbs, pawn first, king last.
func (r Rules) Ladder() []Rank {
	ladder := []Rank{Pawn, Lance, Knight, Silver, Gold, Bishop, Rook, King}
	if !r.GoldStep {
		ladder = append(ladder[:4], ladder[5:]...)
	}
	return ladder
}

// StopsToWin is how many promotions (corner stops, or laps) take a pawn to a win: one per
// step of the ladder and one more for the king.
func (r Rules) StopsToWin() int { return len(r.Ladder()) }
