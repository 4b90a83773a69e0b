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

// ScanFile reads a record file left by a run that may have been killed and
// calls fn with each complete game, in order. It returns end, the byte offset
// where the complete records end: the file's size when it is whole, or the
// start of the partial record a kill left behind. To resume, truncate the
// file to end (os.Truncate) and Append to it.
//
// A record is complete when its line ends in a newline (plain files) or its
// gzip member is whole (gzip files, one member per game as Writer writes
// them). A complete record that does not parse or validate is not a crash
// artefact but damage, and is an error; so is a gzip member that is corrupt
// rather than cut short. An error from fn stops the scan and is returned.
func ScanFile(path string, fn func(*Game) error) (end int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("record: %w", err)
	}
	defer f.Close()
	src := &countingReader{r: f}
	br := bufio.NewReaderSize(src, 64*1024)
	offset := func() int64 { return src.n - int64(br.Buffered()) }
	dec := newDecoder()
	parse := func(text []byte) (*Game, error) {
		g := new(Game)
		if err := dec.decode(text, AllFields, g); err != nil {
			return nil, err
		}
		return g, nil
	}
	if magic, _ := br.Peek(2); bytes.Equal(magic, gzipMagic[:2]) {
		return scanGzip(path, br, offset, parse, fn)
	}
	line := 0
	for {
		start := offset()
		text, rerr := readBoundedLine(br)
		if rerr == io.EOF {
			// Bytes without a newline are a partial record; none means a clean end.
			return start, nil
		}
		line++
		if rerr == errLineTooLong {
			return start, &LineError{path, line, rerr}
		}
		if rerr != nil {
			return start, fmt.Errorf("record: %s: %w", path, rerr)
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		g, perr := parse(text)
		if perr != nil {
			return start, &LineError{path, line, perr}
		}
		if err := fn(g); err != nil {
			return start, err
		}
	}
}

// scanGzip reads one member at a time, so that it knows where each ends.
// gzip.Reader reads br directly because it is an io.ByteReader, and then
// consumes no byte past a member's trailer: offset() is exact between members.
func scanGzip(path string, br *bufio.Reader, offset func() int64, parse func([]byte) (*Game, error), fn func(*Game) error) (int64, error) {
	var zr *gzip.Reader
	line := 0
	for {
		start := offset()
		if _, err := br.Peek(1); err == io.EOF {
			return start, nil
		}
		var err error
		if zr == nil {
			zr, err = gzip.NewReader(br)
		} else {
			err = zr.Reset(br)
		}
		var text []byte
		if err == nil {
			zr.Multistream(false)
			text, err = io.ReadAll(io.LimitReader(zr, MaxLineBytes+2))
			if err == nil && len(text) > MaxLineBytes+1 {
				return start, &LineError{path, line + 1, errLineTooLong}
			}
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return start, nil // the member a kill cut short
		}
		if err != nil {
			return start, fmt.Errorf("record: %s: gzip member at byte %d: %w", path, start, err)
		}
		// A member holds whole lines (Writer puts one game in each).
		for len(text) > 0 {
			lineText, rest, ok := bytes.Cut(text, []byte{'\n'})
			if !ok {
				return start, &LineError{path, line + 1, errors.New("gzip member ends without a newline")}
			}
			text = rest
			line++
			if len(bytes.TrimSpace(lineText)) == 0 {
				continue
			}
			g, perr := parse(lineText)
			if perr != nil {
				return start, &LineError{path, line, perr}
			}
			if err := fn(g); err != nil {
				return start, err
			}
		}
	}
}

// Recover is ScanFile collecting the games in a slice. It holds every game
// in memory; for large files use ScanFile and keep only what is needed (for
// a resume, the set of ids done).
func Recover(path string) (games []*Game, end int64, err error) {
	end, err = ScanFile(path, func(g *Game) error {
		games = append(games, g)
		return nil
	})
	return games, end, err
}

// readBoundedLine reads a line with its newline; a line over MaxLineBytes is
// errLineTooLong, and a last line without a newline is io.EOF (the partial
// record a kill leaves).
func readBoundedLine(br *bufio.Reader) ([]byte, error) {
	var text []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(text)+len(chunk) > MaxLineBytes+1 {
			return nil, errLineTooLong
		}
		text = append(text, chunk...)
		switch err {
		case nil:
			return text, nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
