package record

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// Writer appends games, one per line, with one Write call on the underlying
// writer per game and no buffering of its own: when the process is killed,
// the file holds every game written before and at most one partial line.
//
// With gzip each game is its own gzip member (RFC 1952 allows a file to be a
// series of members; gzip -d and Go's gzip.Reader read them as one text), so
// a killed run leaves every complete member readable and at most one cut
// member at the end. The cost is compression: each member starts a fresh
// dictionary, so a gzip record file is larger than one compressed whole
// (recompress it with `gzip -dc f.jsonl.gz | gzip -9` for shipping).
type Writer struct {
	w     io.Writer
	file  *os.File // closed by Close when the Writer opened it
	zw    *gzip.Writer
	frame bytes.Buffer // one compressed member
}

// NewWriter writes plain JSON Lines to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// NewGzipWriter writes each game as one gzip member to w.
func NewGzipWriter(w io.Writer) *Writer {
	wr := &Writer{w: w}
	wr.zw = gzip.NewWriter(&wr.frame)
	return wr
}

// Create creates (or truncates) path and writes to it, as gzip members when
// the name ends in ".gz".
func Create(path string) (*Writer, error) {
	return openWriter(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
}

// Append opens path for appending, creating it if needed; gzip members when
// the name ends in ".gz". To resume after a crash, first cut the partial
// record with ScanFile and os.Truncate.
func Append(path string) (*Writer, error) {
	return openWriter(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
}

func openWriter(path string, flag int) (*Writer, error) {
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	var w *Writer
	if strings.HasSuffix(path, ".gz") {
		w = NewGzipWriter(f)
	} else {
		w = NewWriter(f)
	}
	w.file = f
	return w, nil
}

// Write validates g and appends it.
func (w *Writer) Write(g *Game) error {
	line, err := MarshalLine(g)
	if err != nil {
		return err
	}
	if w.zw != nil {
		w.frame.Reset()
		w.zw.Reset(&w.frame)
		if _, err := w.zw.Write(line); err != nil {
			return fmt.Errorf("record: game %d: %w", g.ID, err)
		}
		if err := w.zw.Close(); err != nil {
			return fmt.Errorf("record: game %d: %w", g.ID, err)
		}
		line = w.frame.Bytes()
	}
	if _, err := w.w.Write(line); err != nil {
		return fmt.Errorf("record: writing game %d: %w", g.ID, err)
	}
	return nil
}

// Close closes the file if the Writer opened it (Create, Append). Every game
// is already written by then; Close adds nothing.
func (w *Writer) Close() error {
	if w.file == nil {
		return nil
	}
	err := w.file.Close()
	w.file = nil
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}
