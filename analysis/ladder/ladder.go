package ladder

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/shogilab/shogilab/analysis/ratings"
	"github.com/shogilab/shogilab/record"
)

// Ladder is the file datasets/ladder/ladder.json: the anchors and how their
// ratings were fixed.
type Ladder struct {
	Description string `json:"description"`
	// Command is what played the round robin; Records the files of its games,
	// relative to the ladder file.
	Command string   `json:"command"`
	Records []string `json:"records"`
	// Zero is the anchor rated 0.
	Zero string `json:"zero"`
	// DrawParameter is Davidson's ν of the round robin, which Rate uses.
	DrawParameter float64  `json:"draw_parameter"`
	Anchors       []Anchor `json:"anchors"`
}

// Anchor is one player of the ladder.
type Anchor struct {
	Name string `json:"name"` // the name in records
	// Spec is the player as match takes it; a frozen build of the toolkit's
	// engine is a usi spec whose command is shogilab-COMMIT, built by
	// datasets/ladder/build.sh from Commit.
	Spec   string     `json:"spec"`
	Commit string     `json:"commit,omitempty"`
	Elo    float64    `json:"elo"`
	Range  [2]float64 `json:"interval"` // 95%, from the round robin
	Games  int        `json:"games"`
	Score  float64    `json:"score"`
}

// ReadFile reads a ladder file.
func ReadFile(path string) (*Ladder, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	var l Ladder
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("ladder: %s: %w", path, err)
	}
	if err := l.validate(); err != nil {
		return nil, fmt.Errorf("ladder: %s: %w", path, err)
	}
	return &l, nil
}

func (l *Ladder) validate() error {
	if len(l.Anchors) < 2 {
		return fmt.Errorf("%d anchors; a ladder needs two or more", len(l.Anchors))
	}
	seen := map[string]bool{}
	for _, a := range l.Anchors {
		if a.Name == "" || seen[a.Name] {
			return fmt.Errorf("anchor name %q is empty or repeated", a.Name)
		}
		seen[a.Name] = true
		if math.IsNaN(a.Elo) || math.IsInf(a.Elo, 0) {
			return fmt.Errorf("anchor %s: rating %v", a.Name, a.Elo)
		}
	}
	if !(l.DrawParameter >= 0) || math.IsInf(l.DrawParameter, 0) {
		return fmt.Errorf("draw parameter %v", l.DrawParameter)
	}
	return nil
}

// Anchor returns the anchor of that name.
func (l *Ladder) Anchor(name string) (Anchor, bool) {
	i := slices.IndexFunc(l.Anchors, func(a Anchor) bool { return a.Name == name })
	if i < 0 {
		return Anchor{}, false
	}
	return l.Anchors[i], true
}

// Fit fixes the anchors' ratings from the records of a round robin between
// them (only games between two anchors count), with anchor zero rated 0.
// specs gives each anchor's spec and commit; the result keeps their order.
func Fit(games func(func(*record.Game) error) error, anchors []Anchor, zero string) (*Ladder, error) {
	names := map[string]bool{}
	for _, a := range anchors {
		names[a.Name] = true
	}
	if !names[zero] {
		return nil, fmt.Errorf("ladder: the anchor rated 0, %q, is not an anchor", zero)
	}
	c := ratings.NewCollector()
	err := games(func(g *record.Game) error {
		s, o := g.Players.Sente.Name, g.Players.Gote.Name
		if !names[s] || !names[o] {
			return fmt.Errorf("ladder: game %d is between %s and %s; a round robin of the anchors has only them", g.ID, s, o)
		}
		// The collector tells players apart by name, kind and config; an
		// anchor is its name.
		h := *g
		h.Players.Sente, h.Players.Gote = record.Player{Name: s}, record.Player{Name: o}
		c.Add(&h)
		return nil
	})
	if err != nil {
		return nil, err
	}
	res, err := c.Fit(ratings.Options{Model: ratings.Davidson, Anchor: zero})
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	l := &Ladder{Zero: zero, DrawParameter: res.DrawParameter}
	for _, a := range anchors {
		i := slices.IndexFunc(res.Players, func(r ratings.Rating) bool { return r.Name == a.Name })
		if i < 0 {
			return nil, fmt.Errorf("ladder: anchor %s played no game", a.Name)
		}
		r := res.Players[i]
		a.Elo, a.Range, a.Games, a.Score = r.Elo, r.Interval, r.Games, r.Score
		l.Anchors = append(l.Anchors, a)
	}
	return l, nil
}

// Rating is a player's place on the ladder.
type Rating struct {
	Name string  `json:"name"`
	Elo  float64 `json:"elo"`
	// Low and High bound the 95% likelihood interval; ±Inf (null in JSON)
	// where the results leave it open.
	Low  float64 `json:"-"`
	High float64 `json:"-"`
	// Games against each anchor, from the player's side.
	Results []AnchorScore `json:"results"`
}

// AnchorScore is a player's games against one anchor.
type AnchorScore struct {
	Anchor string  `json:"anchor"`
	Elo    float64 `json:"anchor_elo"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
}

// MarshalJSON writes the interval's open ends as null.
func (r Rating) MarshalJSON() ([]byte, error) {
	type plain Rating
	end := func(x float64) *float64 {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
		return &x
	}
	return json.Marshal(struct {
		plain
		Low  *float64 `json:"elo_low"`
		High *float64 `json:"elo_high"`
	}{plain(r), end(r.Low), end(r.High)})
}

// Gauntlet collects one player's games against the ladder's anchors.
type Gauntlet struct {
	ladder  *Ladder
	player  string
	results map[string]*AnchorScore
}

// NewGauntlet starts counting the games of the player named player.
func (l *Ladder) NewGauntlet(player string) *Gauntlet {
	return &Gauntlet{ladder: l, player: player, results: map[string]*AnchorScore{}}
}

// Add counts a game of the player against an anchor; other games are an
// error naming them.
func (g *Gauntlet) Add(r *record.Game) error {
	s, o := r.Players.Sente.Name, r.Players.Gote.Name
	sente := s == g.player
	anchor := o
	if !sente {
		anchor = s
		if o != g.player {
			return fmt.Errorf("ladder: game %d is between %s and %s, not %s", r.ID, s, o, g.player)
		}
	}
	a, ok := g.ladder.Anchor(anchor)
	if !ok {
		return fmt.Errorf("ladder: game %d: %s is not an anchor of the ladder", r.ID, anchor)
	}
	res := g.results[anchor]
	if res == nil {
		res = &AnchorScore{Anchor: anchor, Elo: a.Elo}
		g.results[anchor] = res
	}
	switch {
	case r.Result == record.Draw:
		res.Draws++
	case (r.Result == record.Sente) == sente:
		res.Wins++
	default:
		res.Losses++
	}
	return nil
}

// eloPerNat converts natural-log strengths to Elo (10^(r/400) = e^θ).
var eloPerNat = 400 / math.Ln10

// ErrNoGames is returned by Rate before any game.
var ErrNoGames = errors.New("ladder: no games against the anchors")

// Rate places the player on the ladder (see the package doc).
func (g *Gauntlet) Rate() (Rating, error) {
	out := Rating{Name: g.player}
	for _, a := range g.ladder.Anchors {
		if r := g.results[a.Name]; r != nil {
			out.Results = append(out.Results, *r)
		}
	}
	if len(out.Results) == 0 {
		return out, ErrNoGames
	}
	nu := g.ladder.DrawParameter
	// ℓ(r) and ℓ'(r) in Davidson's model, r in Elo; the factor
	// sqrt(π_i π_j) cancelled as in package ratings. A ladder whose round robin
	// had no draws has ν = 0, where the model gives a draw no chance; there a
	// draw counts as half a win and half a loss (Bradley-Terry's usual
	// convention, Ordo's default), which is the same ℓ without the draw's
	// ln ν term: ½(d/2 - ln c) + ½(-d/2 - ln c) = -ln c.
	ll := func(r float64) (l, dl float64) {
		for _, x := range out.Results {
			d := (r - x.Elo) / eloPerNat
			n := float64(x.Wins + x.Draws + x.Losses)
			c := 2*math.Cosh(d/2) + nu
			l += float64(x.Wins-x.Losses)*d/2 - n*math.Log(c)
			if x.Draws > 0 && nu > 0 {
				l += float64(x.Draws) * math.Log(nu)
			}
			dl += (float64(x.Wins-x.Losses)/2 - n*math.Sinh(d/2)/c) / eloPerNat
		}
		return l, dl
	}
	// ℓ is concave: its derivative falls from (W-L)/2+n/2 > 0 at -∞ (unless
	// every game was lost) to below 0 at +∞ (unless every game was won).
	const far = 5000.0 // Elo beyond every anchor: the search's open ends
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range out.Results {
		lo, hi = math.Min(lo, x.Elo-far), math.Max(hi, x.Elo+far)
	}
	best := bisect(lo, hi, func(r float64) bool { _, d := ll(r); return d > 0 })
	var won, lost, n int
	for _, x := range out.Results {
		won, lost, n = won+x.Wins, lost+x.Losses, n+x.Wins+x.Draws+x.Losses
	}
	switch n {
	case lost: // the likelihood rises without end as r falls
		out.Elo = math.Inf(-1)
	case won:
		out.Elo = math.Inf(1)
	default:
		out.Elo = best
	}
	top, _ := ll(best)
	const half95 = 1.920729410347062 // χ²₁'s 95% point / 2
	inside := func(r float64) bool { l, _ := ll(r); return top-l <= half95 }
	out.Low, out.High = math.Inf(-1), math.Inf(1)
	if !inside(lo) {
		out.Low = bisect(lo, best, func(r float64) bool { return !inside(r) })
	}
	if !inside(hi) {
		out.High = bisect(best, hi, func(r float64) bool { return inside(r) })
	}
	return out, nil
}

// bisect returns the point of [lo, hi] where below turns from true to false,
// to a thousandth of an Elo point.
func bisect(lo, hi float64, below func(float64) bool) float64 {
	for hi-lo > 1e-3 {
		mid := (lo + hi) / 2
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// String is the rating with its interval.
func (r Rating) String() string {
	f := func(x float64) string {
		switch {
		case math.IsInf(x, 1):
			return "+inf"
		case math.IsInf(x, -1):
			return "-inf"
		}
		return fmt.Sprintf("%.0f", x)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s, %s]", f(r.Elo), f(r.Low), f(r.High))
	return b.String()
}

// Anchors is the file datasets/ladder/anchors.json: the anchors before their
// ratings are fixed, and which of them is rated 0.
type Anchors struct {
	Description string   `json:"description"`
	Zero        string   `json:"zero"`
	Anchors     []Anchor `json:"anchors"`
}

// ReadAnchors reads an anchors file.
func ReadAnchors(path string) (*Anchors, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ladder: %w", err)
	}
	var a Anchors
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("ladder: %s: %w", path, err)
	}
	if len(a.Anchors) < 2 {
		return nil, fmt.Errorf("ladder: %s: %d anchors; a ladder needs two or more", path, len(a.Anchors))
	}
	return &a, nil
}

// Marshal writes the ladder as its file holds it: indented JSON.
func (l *Ladder) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
