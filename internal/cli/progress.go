package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressLines is how many plain lines report long work when stderr is not a terminal:
// one per tenth keeps a log readable.
const progressLines = 10

// newBar is the terminal's progress bar of the reporters below: to size items (-1: a
// spinner), described by what, with the count and rate, redrawn at most every 100 ms and
// cleared at the end; more adds options.
func newBar(stderr io.Writer, size int, what string, more ...progressbar.Option) *progressbar.ProgressBar {
	return progressbar.NewOptions(size, append([]progressbar.Option{
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
	}, more...)...)
}

// NewProgress is the commands' one progress reporter for work of a known size: it returns
// a function to call with the count of items done out of total, and one to call when the
// work ends. On a terminal it draws a progress bar; otherwise (a log, a pipe) it writes a
// plain line "what: done/total, N s" each time the count passes a tenth of total, and at
// total. The count may jump (work reported in batches) but never goes back.
func NewProgress(stderr io.Writer, total int, what string) (update func(done int), finish func()) {
	if IsTerminal(stderr) {
		bar := newBar(stderr, total, what, progressbar.OptionSetPredictTime(true))
		return func(done int) { bar.Set(done) }, func() { bar.Finish() }
	}
	start := time.Now()
	step := max(total/progressLines, 1)
	next := step
	return func(done int) {
		if done >= next || done == total {
			fmt.Fprintf(stderr, "%s: %d/%d, %.0f s\n", what, done, total, time.Since(start).Seconds())
			next = (done/step + 1) * step
		}
	}, func() {}
}

// NewGrowingProgress is NewProgress for work whose total grows as it is found (a breadth-first
// walk learns each ply's positions when it reaches them): update takes the count done and the
// total known so far, which never goes back either. The bar's end moves out as the total grows;
// a log gets a line each time the count passes a tenth of the total known then, at most one
// every 5 s.
func NewGrowingProgress(stderr io.Writer, what string) (update func(done, total int), finish func()) {
	if IsTerminal(stderr) {
		bar := newBar(stderr, 1, what)
		return func(done, total int) {
			if total > bar.GetMax() {
				bar.ChangeMax(total)
			}
			bar.Set(done)
		}, func() { bar.Finish() }
	}
	start := time.Now()
	next, last := 0, time.Time{}
	return func(done, total int) {
		// A total that grows makes the tenths small at first: a line at most every
		// growingEvery keeps the log short.
		if done >= next && time.Since(last) >= growingEvery {
			fmt.Fprintf(stderr, "%s: %d/%d, %.0f s\n", what, done, total, time.Since(start).Seconds())
			next, last = done+max(total/progressLines, 1), time.Now()
		}
	}, func() {}
}

// growingEvery is the least time between two lines of NewGrowingProgress in a log.
const growingEvery = 5 * time.Second

// NewCounter is NewProgress for work whose size is not known until it ends (records read
// from files): a spinner with the count and rate on a terminal; otherwise a plain line
// "what: done (R/s)" every every items, or none if every is 0.
func NewCounter(stderr io.Writer, what string, every int) (update func(done int), finish func()) {
	if IsTerminal(stderr) {
		bar := newBar(stderr, -1, what)
		// A call costs the bar's lock, not a redraw (the throttle): little beside reading
		// a record.
		return func(done int) { bar.Set(done) }, func() { bar.Finish() }
	}
	start := time.Now()
	next := every
	return func(done int) {
		if every > 0 && done >= next {
			fmt.Fprintf(stderr, "%s: %d (%.0f/s)\n", what, done, float64(done)/time.Since(start).Seconds())
			next = (done/every + 1) * every
		}
	}, func() {}
}

// IsTerminal reports whether w is a terminal, where a progress bar or a status redrawn in
// place belongs; a log file, a pipe or /dev/null gets plain lines instead. It is the
// commands' one terminal check.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
