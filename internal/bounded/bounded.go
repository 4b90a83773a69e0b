package bounded

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// ErrTooLarge is wrapped by the errors of input beyond its limit.
var ErrTooLarge = errors.New("beyond the limit")

// ReadFile reads a regular file of at most limit bytes. It checks the size before reading,
// and refuses what is not a regular file (a device such as /dev/zero, a FIFO, a directory),
// which has no size to check and may never end. Its errors name the path.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(NewReader(f, limit, path))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Open opens a regular file of at most limit bytes for reading, refusing anything else as
// ReadFile does; the caller closes it.
func Open(path string, limit int64) (*os.File, error) {
	// Stat first: opening a FIFO for reading waits for a writer.
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, info, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	// The file may have been replaced or grown since Stat: check what was opened.
	if info, err = f.Stat(); err == nil {
		err = check(path, info, limit)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func check(path string, info os.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s)", path, kind(info.Mode()))
	}
	if info.Size() > limit {
		return fmt.Errorf("%s: %d bytes, more than the %s this reader takes: %w", path, info.Size(), Size(limit), ErrTooLarge)
	}
	return nil
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// NewReader returns a reader of r that fails with an error wrapping ErrTooLarge, naming
// what, once more than limit bytes would have been read: unlike io.LimitReader it does not
// pass a cut stream off as a whole one.
func NewReader(r io.Reader, limit int64, what string) io.Reader {
	return &reader{r: r, left: limit, limit: limit, what: what}
}

type reader struct {
	r     io.Reader
	left  int64
	limit int64
	what  string
}

func (l *reader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err()
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1] // one byte past the limit tells a longer stream from one of exactly limit
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n + int(l.left), l.err()
	}
	return n, err
}

func (l *reader) err() error {
	return fmt.Errorf("%s: more than %s: %w", l.what, Size(l.limit), ErrTooLarge)
}

// Size writes a byte count in the largest binary unit that divides it ("64 MiB", "1 GiB",
// "1000 bytes").
func Size(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n > 0 && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// QuoteBytes is how many bytes of bad input an error message quotes.
const QuoteBytes = 40

// Prefix quotes the first QuoteBytes bytes of b, Go-escaped, followed by "..." when b goes
// on: for input whose whole length is not known.
func Prefix(b []byte) string {
	if len(b) <= QuoteBytes {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(string(b[:QuoteBytes])) + "..."
}

// Quote quotes at most QuoteBytes bytes of b, Go-escaped, and says how long b is when it is
// longer: an error that quotes bad input stays one short line however long the input.
func Quote(b []byte) string {
	if len(b) <= QuoteBytes {
		return strconv.Quote(string(b))
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(string(b[:QuoteBytes])), len(b))
}
