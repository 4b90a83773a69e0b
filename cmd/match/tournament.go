package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/shogilab/shogilab/analysis/ladder"
	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/analysis/ratings"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
)

// tournament is a match of more than two players: a round robin, where every pair of
// players plays a match, or a gauntlet, where the first player plays each of the others.
type tournament struct {
	gauntlet bool
	players  []selfplay.PlayerSpec // the gauntlet's player first
	ladder   *ladder.Ladder        // a gauntlet against a ladder's anchors, or nil
}

// parseTournament reads the players of -a, -b, -p and -ladder.
func parseTournament(kind, a, b string, others []string, ladderFile string, defaults selfplay.PlayerSpec) (*tournament, error) {
	t := &tournament{}
	switch kind {
	case "":
		t.gauntlet = a != ""
	case "gauntlet":
		t.gauntlet = true
	case "round-robin":
	default:
		return nil, cli.Usagef("-tournament %q: want round-robin or gauntlet", kind)
	}
	if t.gauntlet && a == "" {
		return nil, cli.Usagef("a gauntlet needs its player as -a")
	}
	if ladderFile != "" {
		if !t.gauntlet || b != "" || len(others) > 0 {
			return nil, cli.Usagef("-ladder plays -a against the ladder's anchors: give -a alone")
		}
		l, err := ladder.ReadFile(ladderFile)
		if err != nil {
			return nil, cli.Usagef("-ladder %q: %v", ladderFile, strings.TrimPrefix(err.Error(), "ladder: "))
		}
		t.ladder = l
		for _, an := range l.Anchors {
			others = append(others, an.Spec)
		}
	}
	texts := others
	if b != "" {
		texts = append([]string{b}, texts...)
	}
	if a != "" {
		texts = append([]string{a}, texts...)
	}
	names := map[string]int{}
	for i, text := range texts {
		d := defaults
		if t.ladder != nil && i > 0 {
			d = selfplay.PlayerSpec{} // an anchor is its spec alone
		}
		s, err := selfplay.ParsePlayerSpec(text, d)
		if err != nil {
			return nil, flagError("p", text, err)
		}
		if t.ladder != nil && i > 0 {
			s.Name = t.ladder.Anchors[i-1].Name
		}
		if j, ok := names[s.DisplayName()]; ok {
			return nil, cli.Usagef("players %d and %d are both named %q: give one a name= in its spec", j+1, i+1, s.DisplayName())
		}
		names[s.DisplayName()] = i
		t.players = append(t.players, s)
	}
	if len(t.players) < 2 || (!t.gauntlet && len(t.players) < 3 && b == "") {
		return nil, cli.Usagef("a tournament needs more players (%d given)", len(t.players))
	}
	if t.ladder != nil {
		if _, ok := t.ladder.Anchor(t.players[0].DisplayName()); ok {
			return nil, cli.Usagef("-a is named %q, as an anchor of the ladder: give it another name=", t.players[0].DisplayName())
		}
	}
	return t, nil
}

// pairings are the tournament's matches, in the order they are played.
func (t *tournament) pairings(openings []selfplay.Opening, rules minishogi.GameOptions, seed uint64, margin time.Duration) []selfplay.Match {
	var out []selfplay.Match
	add := func(a, b selfplay.PlayerSpec) {
		out = append(out, selfplay.Match{A: a, B: b, Pairs: true, Openings: openings, Rules: rules,
			Seed: seed, Version: selfplay.Version(), TimeMargin: margin})
	}
	if t.gauntlet {
		for _, b := range t.players[1:] {
			add(t.players[0], b)
		}
		return out
	}
	for i := range t.players {
		for j := i + 1; j < len(t.players); j++ {
			add(t.players[i], t.players[j])
		}
	}
	return out
}

// pairingDir is the directory of a pairing's records under the tournament's.
func pairingDir(m selfplay.Match) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '/' || r == os.PathSeparator || r < ' ' {
				return '_'
			}
			return r
		}, s)
	}
	return clean(m.A.DisplayName()) + "-vs-" + clean(m.B.DisplayName())
}

// tournamentReport is what a tournament found.
type tournamentReport struct {
	Kind     string          `json:"kind"` // round-robin or gauntlet
	Pairings []*match.Report `json:"pairings"`
	Records  []string        `json:"records"`
	Ratings  *ratings.Fit    `json:"ratings,omitempty"`
	Ladder   *ladder.Rating  `json:"ladder_rating,omitempty"`
	Seconds  float64         `json:"seconds"`
	Played   int             `json:"played"`
	Errors   []string        `json:"errors,omitempty"`
	ladder   *ladder.Ladder
}

// run plays every pairing in turn (each resumable like a two-player match), then rates.
func (t *tournament) run(ctx context.Context, o *options, stdout, stderr io.Writer) int {
	began := time.Now()
	kind := "round-robin"
	if t.gauntlet {
		kind = "gauntlet"
	}
	rep := &tournamentReport{Kind: kind, ladder: t.ladder}
	for _, s := range t.players {
		if err := s.CheckEngine(ctx); err != nil {
			fmt.Fprintf(stderr, "match: %v\n", message(err))
			return cli.ExitFailure
		}
	}
	all := t.pairings(o.match.Openings, o.match.Rules, o.match.Seed, o.match.TimeMargin)
	for i, m := range all {
		st := match.NewStandings(true)
		live := newLive(stderr, o)
		r := &selfplay.Run{Match: m, Games: o.games, Parallel: o.parallel, OutDir: filepath.Join(o.out, pairingDir(m))}
		r.Progress = func(p selfplay.Progress) { live.rate(p.Done-p.Kept, p.Elapsed) }
		fmt.Fprintf(stderr, "match: pairing %d of %d: %s vs %s\n", i+1, len(all), m.A.DisplayName(), m.B.DisplayName())
		sum, err := selfplay.PlayMatch(ctx, r, st, func() { live.update(st) })
		if err != nil {
			fmt.Fprintf(stderr, "match: %v\n", message(err))
			if errors.Is(err, selfplay.ErrInterrupted) || ctx.Err() != nil {
				return exitInterrupted
			}
			return cli.ExitFailure
		}
		rep.Pairings = append(rep.Pairings, st.Report())
		rep.Records = append(rep.Records, sum.Path)
		rep.Played += sum.Played
	}
	rep.Seconds = time.Since(began).Seconds()
	if err := rep.rate(t); err != nil {
		rep.Errors = append(rep.Errors, err.Error())
	}
	if err := rep.write(stdout, o.asJSON); err != nil {
		fmt.Fprintf(stderr, "match: %v\n", err)
		return cli.ExitFailure
	}
	return 0
}

// rate fits the players' ratings from every pairing's records, and with a ladder places
// the gauntlet's player on it.
func (rep *tournamentReport) rate(t *tournament) error {
	c := ratings.NewCollector()
	var g *ladder.Gauntlet
	if t.ladder != nil {
		g = t.ladder.NewGauntlet(t.players[0].DisplayName())
	}
	_, err := selection.Stream(rep.Records, selection.Filter{}, selection.Options{Fields: record.FieldID | ratings.Fields},
		func(r *record.Game) error {
			// A player is its name here: specs differ in paths and defaults, not identity.
			h := *r
			h.Players.Sente, h.Players.Gote = record.Player{Name: r.Players.Sente.Name}, record.Player{Name: r.Players.Gote.Name}
			c.Add(&h)
			if g != nil {
				return g.Add(r)
			}
			return nil
		})
	if err != nil {
		return err
	}
	res, err := c.Fit(ratings.Options{Anchor: t.players[0].DisplayName()})
	if err == nil {
		rep.Ratings = res
	}
	if g != nil {
		lr, lerr := g.Rate()
		if lerr != nil {
			return lerr
		}
		rep.Ladder = &lr
	}
	return err
}

func (rep *tournamentReport) write(w io.Writer, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(rep)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s of %d pairings, %d games played in %.0f s\n", rep.Kind, len(rep.Pairings), rep.Played, rep.Seconds)
	fmt.Fprintln(tw, "A\tB\tgames\tW-D-L\tscore\tElo [95%]\t")
	for _, p := range rep.Pairings {
		e := p.Estimate.Result
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d-%d-%d\t%.3f\t%s [%s, %s]\t\n", p.A, p.B, p.Distinct, p.Wins, p.Draws, p.Losses,
			e.Score, match.EloText(e.Elo), match.EloText(e.EloLow), match.EloText(e.EloHigh))
	}
	if r := rep.Ratings; r != nil {
		fmt.Fprintf(tw, "\nratings (maximum likelihood, %s rated 0)\n", r.Anchor)
		for _, p := range r.Players {
			fmt.Fprintf(tw, "%s\t%+.0f\t[%+.0f, %+.0f]\t%d games\t\n", p.Name, p.Elo, p.Interval[0], p.Interval[1], p.Games)
		}
	}
	if l := rep.Ladder; l != nil {
		fmt.Fprintf(tw, "\non the ladder (%s rated 0): %s %s\n", rep.ladder.Zero, l.Name, l)
		for _, x := range l.Results {
			fmt.Fprintf(tw, "  against %s (%+.0f)\t%d-%d-%d\t\n", x.Anchor, x.Elo, x.Wins, x.Draws, x.Losses)
		}
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(tw, "\nnote: %s\n", e)
	}
	return tw.Flush()
}
