package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/bounded/boundedtest"
	"github.com/shogilab/shogilab/solver"
	"github.com/ulikunitz/xz"
)

// TestVerifyBoundedInput runs solve verify on issue 33's hostile files and others that break a
// stated limit (solver.MaxEntries, MaxLineBytes): each must end in a one-line error, short
// whatever the input, having allocated at most 16 MiB (the xz reader's dictionary is 8 MiB).
// Before, a 100 MB file of zero bytes took 1.7 GB and printed a 419 MB error line, and a
// gzip of 1 GiB of zeros 14.6 GB.
func TestVerifyBoundedInput(t *testing.T) {
	const ceiling = 16 << 20
	dir := t.TempDir()
	sparse := func(name string, size int64) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(size); err != nil { // a sparse file: zeros that take no disk
			t.Fatal(err)
		}
		return path
	}
	compressed := func(name string, newWriter func(io.Writer) io.WriteCloser, zeros int) string {
		var b bytes.Buffer
		w := newWriter(&b)
		chunk := make([]byte, 1<<20)
		for range zeros >> 20 {
			w.Write(chunk)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	file := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	header := solver.ProofFormat + "\nroot 4k/5/5/P4/KGSBR w - 1\nattacker b\nplies 8\n"
	for _, c := range []struct {
		name, path, want string
	}{
		{"100 MB of zeros", sparse("zeros", 100e6), `the first line is "\x00\x00`},
		{"a sparse 3 GiB file", sparse("sparse", 3<<30), `the first line is "\x00\x00`},
		{"gzip of 256 MiB of zeros", compressed("zeros.gz", func(w io.Writer) io.WriteCloser {
			zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
			return zw
		}, 256<<20), `the first line is "\x00\x00`},
		{"xz of 32 MiB of zeros", compressed("zeros.xz", func(w io.Writer) io.WriteCloser {
			xw, err := xz.NewWriter(w)
			if err != nil {
				t.Fatal(err)
			}
			return xw
		}, 32<<20), `the first line is "\x00\x00`},
		{"more entries than the limit", file("many", header+"entries 67108865\n"), "entries \"67108865\" is not a count from 0 to 67108864"},
		{"more entries than declared", file("more", header+"entries 0\n4k/5/5/P4/KGSBR b - 1e1a+\n"), "more entries than the 0 the header declares"},
		{"a long line", file("long", header+"entries 1\n"+strings.Repeat("x", 10<<20)+"\n"), "proof line 6: longer than 4 KiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var code int
			var stderr string
			boundedtest.Within(t, "solve verify", ceiling, func() { code, _, stderr = runSolve("verify", c.path) })
			if code != 1 || strings.Count(stderr, "\n") != 1 || len(stderr) > 400 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want exit 1 and one short line with %q", code, stderr[:min(len(stderr), 500)], c.want)
			}
		})
	}
}

// TestSplitFileBounded: solve shard reads a split file (gzip over gob) within maxGobBytes a
// message: issue 33's file of a megabyte that took 2 GB before "not a split file" is a gob
// count of 4 GiB followed by a gigabyte of zeros, which gob reads into its buffer (64 MiB
// here). It is refused by its count, before gob reads a byte of the message, in one error
// line, having allocated at most 16 MiB.
func TestSplitFileBounded(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte{0xfb, 1, 0, 0, 0, 0}) // gob's count 1<<32: -5, then five big-endian bytes
	zeros := make([]byte, 1<<20)
	for range 64 { // 64 MiB that gob would read into its buffer, in a file of 64 KB
		zw.Write(zeros)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "hostile.split")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var code int
	var stderr string
	boundedtest.Within(t, "solve shard", 16<<20, func() { code, _, stderr = runSolve("shard", "--shard", "0/1", path) })
	want := "not a split or result file (a message of 4294967296 bytes, more than 256 MiB)"
	if code != 1 || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want exit 1 and one line with %q", code, stderr, want)
	}
}
