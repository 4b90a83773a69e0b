package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressLines is how many plain lines report long work when stderr is not a terminal:
// one per tenth keeps a log readable.
const progressLines = 10

// NewProgress returns a function to call with the count of items done out of total: a
// progress bar when stderr is a terminal, else a plain line at every tenth.
func NewProgress(stderr io.Writer, total int, what string) (update func(done int), finish func()) {
	if f, ok := stderr.(*os.File); ok && IsTerminal(f) {
		bar := progressbar.NewOptions(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		return func(done int) { bar.Set(done) }, func() { bar.Finish() }
	}
	step := max(total/progressLines, 1)
	return func(done int) {
		if done%step == 0 || done == total {
			fmt.Fprintf(stderr, "%s: %d/%d\n", what, done, total)
		}
	}, func() {}
}

// IsTerminal reports whether f is a terminal (a character device), where a progress bar
// belongs; a log file or pipe gets plain lines instead.
func IsTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
