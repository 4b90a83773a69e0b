package record

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongLineBounded: a line over MaxLineBytes (a damaged file, a binary file without
// newlines) is an error naming its line, in the streaming reader and in the resume scan,
// plain or gzip; the reader can skip it and go on.
func TestLongLineBounded(t *testing.T) {
	dir := t.TempDir()
	line := func(id int) []byte {
		b, err := MarshalLine(testGame(id))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	long := append(bytes.Repeat([]byte("x"), MaxLineBytes+10), '\n')
	plain := filepath.Join(dir, "long.jsonl")
	os.WriteFile(plain, bytes.Join([][]byte{line(1), long, line(3)}, nil), 0o644)
	var zbuf bytes.Buffer
	for _, part := range [][]byte{line(1), long, line(3)} {
		zw, _ := gzip.NewWriterLevel(&zbuf, gzip.BestSpeed)
		zw.Write(part)
		zw.Close()
	}
	gz := filepath.Join(dir, "long.jsonl.gz")
	os.WriteFile(gz, zbuf.Bytes(), 0o644)
	for _, path := range []string{plain, gz} {
		name := filepath.Base(path)
		r := NewReader([]string{path})
		if g, err := r.Read(); err != nil || g.ID != 1 {
			t.Fatalf("%s: first record: %v", name, err)
		}
		_, err := r.Read()
		var le *LineError
		if !errors.As(err, &le) || le.Line != 2 || !strings.Contains(err.Error(), "longer than 64 MiB") {
			t.Errorf("%s: the long line: %v", name, err)
		}
		r.Close()
		var skipped []error
		r = NewReader([]string{path}, SkipInvalid(func(err error) { skipped = append(skipped, err) }))
		if ids := readAllIDs(t, r); len(ids) != 2 || ids[1] != 3 || len(skipped) != 1 {
			t.Errorf("%s: skipping: ids %v, skipped %v", name, ids, skipped)
		}
		r.Close()
		n := 0
		_, err = ScanFile(path, func(*Game) error { n++; return nil })
		if !errors.As(err, &le) || le.Line != 2 || n != 1 || !strings.Contains(err.Error(), "longer than") {
			t.Errorf("%s: ScanFile: %d games, %v", name, n, err)
		}
	}
	// Without any newline at all, in a gzip stream too.
	var zb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&zb, gzip.BestSpeed)
	io.Copy(zw, io.LimitReader(zeros{}, MaxLineBytes+10))
	zw.Close()
	bin := filepath.Join(dir, "binary.jsonl.gz")
	os.WriteFile(bin, zb.Bytes(), 0o644)
	if _, err := NewReader([]string{bin}).Read(); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("a gzip file of zeros: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
