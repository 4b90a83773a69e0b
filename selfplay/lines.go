package selfplay

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"github.com/shogilab/shogilab/record"
)

// gzipMagic starts every gzip member (RFC 1952 section 2.3.1).
var gzipMagic = []byte{0x1f, 0x8b}

// eachRecord calls fn with every record of a finished record file, plain
// or gzip, and its 1-based line number (of the decompressed text). Unlike
// record.ScanFile, which forgives the partial last line a kill leaves so
// that a run can resume, a file given to merge or verify must be whole: a
// last line without its newline is an error. Errors are *record.LineError.
func eachRecord(path string, fn func(line int, g *record.Game) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64*1024)
	var src io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, gzipMagic) {
		zr, err := gzip.NewReader(br) // multistream: one member per game reads as one text
		if err != nil {
			return &record.LineError{File: path, Line: 1, Err: err}
		}
		defer zr.Close()
		src = zr
	}
	text := bufio.NewReaderSize(src, 64*1024)
	for line := 1; ; line++ {
		b, err := text.ReadBytes('\n')
		if err == io.EOF && len(b) == 0 {
			return nil
		}
		if err == io.EOF {
			return &record.LineError{File: path, Line: line, Err: fmt.Errorf("partial record without a newline (a killed run: run its command again to finish it)")}
		}
		if err != nil {
			return &record.LineError{File: path, Line: line, Err: err}
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		g, err := record.ParseLine(b)
		if err != nil {
			return &record.LineError{File: path, Line: line, Err: err}
		}
		if err := fn(line, g); err != nil {
			return &record.LineError{File: path, Line: line, Err: err}
		}
	}
}
