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

// Location is where a record starts in its file, so that it can be read again alone
// (ReadAt): Line counts the lines of the text from 1 (of the decompressed text in a gzip
// file), and Offset is the byte offset of the record's line in a plain file or of its gzip
// member in a file written one member per game (Writer). Offset is -1 where no byte offset
// leads to the record alone: in a gzip file compressed whole, ReadAt reads up to the line.
type Location struct {
	Offset int64
	Line   int
}

// Locate reads the file at path once, in order, and calls fn with each record decoded for
// the fields f (all of them for 0) and its Location. A bad record (bad JSON, failed
// validation, a line over MaxLineBytes, a partial last line) reaches fn as a *LineError with
// a nil game, and fn decides whether to go on: an error from fn stops Locate and is
// returned. An error reading the file itself (a corrupt gzip member) ends Locate with it.
//
// Memory is one line at a time, so a viewer can index a file of any size and come back to
// each game with ReadAt.
func Locate(path string, f Fields, fn func(g *Game, at Location, err error) error) error {
	if f == 0 {
		f = AllFields
	}
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	defer file.Close()
	src := &countingReader{r: file}
	br := bufio.NewReaderSize(src, 64*1024)
	offset := func() int64 { return src.n - int64(br.Buffered()) }
	dec := newDecoder()
	line := 0
	emit := func(text []byte, at int64, partial bool) error {
		line++
		loc := Location{Offset: at, Line: line}
		if isBlank(text) {
			return nil
		}
		bad := func(err error) error { return fn(nil, loc, &LineError{path, line, err}) }
		switch {
		case len(text) > MaxLineBytes:
			return bad(errLineTooLong)
		case partial:
			return bad(errors.New("partial record without a newline (the file was cut off, as a killed run leaves it)"))
		}
		g := new(Game)
		if err := dec.decode(text, f, g); err != nil {
			return bad(err)
		}
		return fn(g, loc, nil)
	}
	if magic, _ := br.Peek(2); !bytes.Equal(magic, gzipMagic[:2]) {
		return locateLines(br, offset, emit)
	}
	// One member at a time, so that each member's start is known; gzip.Reader reads br
	// directly (an io.ByteReader) and takes no byte past a member's trailer.
	var zr *gzip.Reader
	for {
		start := offset()
		if _, err := br.Peek(1); err == io.EOF {
			return nil
		}
		if zr == nil {
			zr, err = gzip.NewReader(br)
		} else {
			err = zr.Reset(br)
		}
		if err != nil {
			return fmt.Errorf("record: %s: gzip member at byte %d: %w", path, start, err)
		}
		zr.Multistream(false)
		first := true
		err = locateLines(bufio.NewReaderSize(zr, 64*1024), nil, func(text []byte, _ int64, partial bool) error {
			at := int64(-1) // a later line of a member compressed whole
			if first {
				at = start
			}
			first = false
			return emit(text, at, partial)
		})
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("gzip member at byte %d is cut short (the file was cut off, as a killed run leaves it)", start)
			return fn(nil, Location{Offset: start, Line: line + 1}, &LineError{path, line + 1, err})
		}
		if err != nil {
			var le *LineError
			if errors.As(err, &le) {
				return err // fn's own
			}
			return fmt.Errorf("record: %s: gzip member at byte %d: %w", path, start, err)
		}
	}
}

// locateLines calls emit with each line of br (without its newline) and the offset where it
// starts (when offset is not nil). A line over MaxLineBytes is passed on as its first
// MaxLineBytes+1 bytes, the rest skipped.
func locateLines(br *bufio.Reader, offset func() int64, emit func(text []byte, at int64, partial bool) error) error {
	var text []byte
	for {
		at := int64(-1)
		if offset != nil {
			at = offset()
		}
		text = text[:0]
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if len(text) <= MaxLineBytes {
				text = append(text, chunk[:min(len(chunk), MaxLineBytes+1-len(text))]...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		switch {
		case err == io.EOF && len(text) == 0:
			return nil
		case err == io.EOF:
			return emit(text, at, true)
		case err != nil:
			return err
		}
		if err := emit(bytes.TrimSuffix(text, []byte{'\n'}), at, false); err != nil {
			return err
		}
	}
}

// ReadAt reads and validates the whole record at a Location that Locate gave for the file at
// path. With an Offset it reads that one line or gzip member; without one it reads the text
// from the start up to the line.
func ReadAt(path string, at Location) (*Game, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	defer file.Close()
	skip := at.Line - 1 // lines to pass before the record's
	if at.Offset >= 0 {
		if _, err := file.Seek(at.Offset, io.SeekStart); err != nil {
			return nil, fmt.Errorf("record: %s: %w", path, err)
		}
		skip = 0
	}
	br := bufio.NewReaderSize(file, 64*1024)
	var text io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, gzipMagic[:2]) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("record: %s: gzip member at byte %d: %w", path, at.Offset, err)
		}
		text = zr
	}
	lines := bufio.NewReaderSize(text, 64*1024)
	var found []byte
	n := 0
	err = locateLines(lines, nil, func(line []byte, _ int64, _ bool) error {
		if n < skip {
			n++
			return nil
		}
		found = line
		return io.EOF // the record is read: stop
	})
	switch {
	case err != nil && err != io.EOF:
		return nil, fmt.Errorf("record: %s:%d: %w", path, at.Line, err)
	case found == nil:
		return nil, &LineError{path, at.Line, errors.New("no record here: the file changed since it was read")}
	case len(found) > MaxLineBytes:
		return nil, &LineError{path, at.Line, errLineTooLong}
	}
	g := new(Game)
	if err := newDecoder().decode(found, AllFields, g); err != nil {
		return nil, &LineError{path, at.Line, err}
	}
	return g, nil
}
