package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// gzipMagic starts every gzip member (RFC 1952 section 2.3.1). Files are
// recognised by it, not by their name, so a renamed file still reads.
var gzipMagic = []byte{0x1f, 0x8b}

// LineError is a bad record, located by file and line (1-based; lines of the
// decompressed text for gzip files).
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("record: %s:%d: %v", e.File, e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Reader streams games from a sequence of files, plain or gzip, one game at a
// time; memory does not grow with the number of games.
type Reader struct {
	paths          []string
	onSkip         func(error) // nil: stop at the first bad record
	skip           bool
	requireNewline bool

	next    int           // index in paths of the next file to open
	file    io.Closer     // the open file, nil between files
	gz      *gzip.Reader  // set while reading a gzip file
	lines   *bufio.Reader // the current file's text
	name    string
	line    int
	buf     []byte // the current line, reused
	partial bool   // the current line had no newline: the file ends in it
	skipped int
	err     error // sticky
}

// ReaderOption configures NewReader.
type ReaderOption func(*Reader)

// SkipInvalid makes the reader skip bad records (bad JSON, failed
// validation, a truncated last record) instead of stopping; report, if not
// nil, receives each one's *LineError. Errors opening or decompressing a file
// still stop the reader.
func SkipInvalid(report func(error)) ReaderOption {
	return func(r *Reader) { r.skip, r.onSkip = true, report }
}

// RequireNewline makes a last line without its newline a bad record. A
// writer ends every record with a newline, so such a line is what a killed
// run leaves; a file that must be finished (to merge or verify it) may not
// have one. Without this option the line is read like any other.
func RequireNewline() ReaderOption {
	return func(r *Reader) { r.requireNewline = true }
}

// NewReader reads the files in order. Files are opened as they are reached.
func NewReader(paths []string, opts ...ReaderOption) *Reader {
	r := &Reader{paths: paths}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Read returns the next game, or io.EOF after the last file.
func (r *Reader) Read() (*Game, error) {
	for r.err == nil {
		if r.lines == nil {
			if r.next == len(r.paths) {
				r.err = io.EOF
				break
			}
			r.err = r.open(r.paths[r.next])
			r.next++
			continue
		}
		line, err := r.readLine()
		if err == io.EOF {
			r.err = r.closeFile()
			continue
		}
		if err == errLineTooLong {
			r.line++
			lerr := &LineError{r.name, r.line, err}
			if !r.skip {
				r.err = lerr
				break
			}
			r.skipBad(lerr)
			continue
		}
		if err != nil {
			if r.skip && errors.Is(err, io.ErrUnexpectedEOF) {
				// A gzip member cut short by a crash: the last record is lost.
				r.skipBad(&LineError{r.name, r.line + 1, errors.New("gzip data ends mid-record")})
				r.gz = nil // its Close would report the same truncation again
				r.err = r.closeFile()
				continue
			}
			r.err = fmt.Errorf("record: %s: after line %d: %w", r.name, r.line, err)
			break
		}
		r.line++
		if len(bytes.TrimSpace(line)) == 0 {
			continue // blank lines separate nothing; tolerate them
		}
		g, perr := ParseLine(line)
		if r.partial && r.requireNewline {
			g, perr = nil, errors.New("partial record without a newline (the file was cut off, as a killed run leaves it)")
		}
		if perr == nil {
			return g, nil
		}
		lerr := &LineError{r.name, r.line, perr}
		if !r.skip {
			r.err = lerr
			break
		}
		r.skipBad(lerr)
	}
	return nil, r.err
}

func (r *Reader) skipBad(err error) {
	r.skipped++
	if r.onSkip != nil {
		r.onSkip(err)
	}
}

// Position returns the file and the 1-based line of the record Read returned
// last, for messages about it.
func (r *Reader) Position() (file string, line int) { return r.name, r.line }

// Skipped is the number of bad records skipped so far (with SkipInvalid).
func (r *Reader) Skipped() int { return r.skipped }

// Close closes the current file, if any.
func (r *Reader) Close() error {
	if r.err == nil {
		r.err = errors.New("record: reader closed")
	}
	return r.closeFile()
}

func (r *Reader) open(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	r.file, r.name, r.line = f, path, 0
	br := bufio.NewReaderSize(f, 64*1024)
	if magic, _ := br.Peek(len(gzipMagic)); bytes.Equal(magic, gzipMagic) {
		// gzip.Reader reads every member of a multistream file in turn, so
		// files written one member per game read as one text.
		if r.gz, err = gzip.NewReader(br); err != nil {
			f.Close()
			r.file = nil
			return fmt.Errorf("record: %s: %w", path, err)
		}
		br = bufio.NewReaderSize(r.gz, 64*1024)
	}
	r.lines = br
	return nil
}

func (r *Reader) closeFile() error {
	r.lines = nil
	var err error
	if r.gz != nil {
		err = r.gz.Close()
		r.gz = nil
	}
	if r.file != nil {
		if cerr := r.file.Close(); err == nil {
			err = cerr
		}
		r.file = nil
	}
	if err != nil {
		return fmt.Errorf("record: %s: %w", r.name, err)
	}
	return nil
}

// MaxLineBytes bounds a record line, so that a damaged or foreign file (a
// binary file has no newlines) cannot make a reader hold it all in memory. A
// record is a few kilobytes; a game of 10,000 plies with statistics is about
// 3 MiB.
const MaxLineBytes = 64 << 20

// errLineTooLong is the error of a line over MaxLineBytes.
var errLineTooLong = fmt.Errorf("line longer than %d MiB: not a record (a damaged or binary file?)", MaxLineBytes>>20)

// readLine returns the next line without its newline, valid until the next
// call. A last line without a newline is returned as it is; io.EOF means
// nothing is left. A line over MaxLineBytes is read to its end, not kept, and
// returned as errLineTooLong.
func (r *Reader) readLine() ([]byte, error) {
	r.buf = r.buf[:0]
	r.partial = false
	tooLong := false
	for {
		chunk, err := r.lines.ReadSlice('\n')
		if !tooLong && len(r.buf)+len(chunk) > MaxLineBytes+1 {
			tooLong, r.buf = true, r.buf[:0]
		}
		if !tooLong {
			r.buf = append(r.buf, chunk...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue // a long line: keep reading
		case tooLong && (err == nil || err == io.EOF):
			r.partial = err == io.EOF
			return nil, errLineTooLong
		case err == nil:
			return r.buf[:len(r.buf)-1], nil
		case err == io.EOF:
			if len(r.buf) > 0 {
				r.partial = true
				return r.buf, nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}
