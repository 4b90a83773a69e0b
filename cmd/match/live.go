package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/internal/cli"
)

// live is the match's live table on stderr: on a terminal a few lines redrawn in place
// after every game, otherwise one line per game (a batch job's log).
type live struct {
	w        io.Writer
	terminal bool
	o        *options
	lines    int     // lines drawn last time, to redraw over
	perMin   float64 // games per minute played by this run
}

func newLive(w io.Writer, o *options) *live {
	return &live{w: w, o: o, terminal: cli.IsTerminal(w)}
}

// rate takes the games this run played and the time it took.
func (l *live) rate(played int, elapsed time.Duration) {
	if played > 0 && elapsed > 0 {
		l.perMin = float64(played) / elapsed.Minutes()
	}
}

func (l *live) update(st *match.Standings) {
	e := st.Estimate()
	v := st.Verdict()
	played := st.Counted
	var b strings.Builder
	if !l.terminal {
		fmt.Fprintf(&b, "match: %d/%d games, A %s", played, l.o.games, st)
		if e.Games > 0 {
			fmt.Fprintf(&b, ", score %.3f [%.3f, %.3f], Elo %s [%s, %s], LOS %.1f%%",
				e.Score, e.ScoreLow, e.ScoreHigh, match.EloText(e.Elo), match.EloText(e.EloLow), match.EloText(e.EloHigh), 100*e.LOS)
		}
		if v != nil {
			fmt.Fprintf(&b, ", LLR %.2f (%.2f, %.2f)", v.LLR, v.Lower, v.Upper)
		}
		if st.ReplayedGames > 0 {
			fmt.Fprintf(&b, ", %d replays left out", st.ReplayedGames)
		}
		fmt.Fprintf(&b, ", %.1f games/min\n", l.perMin)
		fmt.Fprint(l.w, b.String())
		return
	}
	eta := "unknown"
	if l.perMin > 0 {
		eta = (time.Duration(float64(l.o.games-played) / l.perMin * float64(time.Minute))).Round(time.Second).String()
	}
	p := st.Pairs
	fmt.Fprintf(&b, "games   %d of %d, %d distinct pairs, %.1f games/min, at most %s to go\n", played, l.o.games, p.Pairs(), l.perMin, eta)
	fmt.Fprintf(&b, "A       %s; pairs by points 0..2: %d %d %d %d %d\n", st, p[0], p[1], p[2], p[3], p[4])
	if e.Games > 0 {
		fmt.Fprintf(&b, "score   %.3f [%.3f, %.3f]   LOS %.1f%%\n", e.Score, e.ScoreLow, e.ScoreHigh, 100*e.LOS)
		fmt.Fprintf(&b, "Elo     %s [%s, %s]   normalized %s\n", match.EloText(e.Elo), match.EloText(e.EloLow), match.EloText(e.EloHigh), match.EloText(e.NElo))
	}
	if v != nil {
		fmt.Fprintf(&b, "SPRT    LLR %.2f, bounds (%.2f, %.2f), %s\n", v.LLR, v.Lower, v.Upper, l.o.test)
	}
	l.draw(b.String())
}

// draw replaces the table drawn last with text.
func (l *live) draw(text string) {
	var b strings.Builder
	for range l.lines {
		b.WriteString("\x1b[1A\x1b[2K") // up one line, clear it
	}
	b.WriteString(text)
	l.lines = strings.Count(text, "\n")
	fmt.Fprint(l.w, b.String())
}
