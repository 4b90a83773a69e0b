package main

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/shogilab/shogilab/internal/cli"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/selfplay"
)

// progress shows a run's progress on stderr: a progress bar (games done of
// the shard's total, games per minute, ETA) on a terminal, or a plain line
// every interval otherwise (a batch job's log).
type progress struct {
	w        io.Writer
	unit     string // what is counted: "games", "openings"
	bar      *progressbar.ProgressBar
	interval time.Duration
	last     time.Time
	state    selfplay.Progress
	started  bool // update was called: there is something to show
}

func newProgress(w io.Writer, unit string, interval time.Duration) *progress {
	p := &progress{w: w, unit: unit, interval: interval}
	if cli.IsTerminal(w) {
		p.bar = progressbar.NewOptions(0,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetItsString(unit),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSetWidth(30),
			progressbar.OptionSetRenderBlankState(true),
		)
	}
	return p
}

// rate is the games per minute of this process (games kept by a resume
// took no time here).
func (p *progress) rate() float64 {
	played := p.state.Done - p.state.Kept
	if played == 0 || p.state.Elapsed <= 0 {
		return 0
	}
	return float64(played) / p.state.Elapsed.Minutes()
}

func (p *progress) update(s selfplay.Progress) {
	first := !p.started
	p.started = true
	p.state = s
	if g := s.Game; g != nil && (g.Termination == record.EngineError || g.Termination == record.IllegalMove) {
		// An engine's failure is logged as it happens (the record keeps it too).
		if p.bar != nil {
			p.bar.Clear()
		}
		fmt.Fprintf(p.w, "selfplay: game %d: %s, %s wins: %s\n", g.ID, g.Termination, g.Result, g.Detail)
	}
	if p.bar != nil {
		if first {
			p.bar.ChangeMax(s.Total)
		}
		p.bar.Describe(fmt.Sprintf("%.1f %s/min", p.rate(), p.unit))
		p.bar.Set(s.Done)
		return
	}
	if first || time.Since(p.last) >= p.interval {
		p.last = time.Now()
		p.line()
	}
}

func (p *progress) line() {
	eta := "unknown"
	if r := p.rate(); r > 0 {
		eta = (time.Duration(float64(p.state.Total-p.state.Done)/r*float64(time.Minute)) / time.Second * time.Second).String()
	}
	fmt.Fprintf(p.w, "selfplay: %d/%d %s, %.1f %s/min, ETA %s\n", p.state.Done, p.state.Total, p.unit, p.rate(), p.unit, eta)
}

func (p *progress) finish() {
	if !p.started {
		return
	}
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintln(p.w)
		return
	}
	p.line()
}
