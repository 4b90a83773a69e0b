package bounded

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(small, 5); err != nil || string(b) != "12345" {
		t.Errorf("a file of exactly the limit: %q, %v", b, err)
	}
	if _, err := ReadFile(small, 4); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "5 bytes, more than the 4 bytes") {
		t.Errorf("a file over the limit: %v", err)
	}
	// A sparse file of a gigabyte is refused by its size, before a byte is read.
	sparse := filepath.Join(dir, "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadFile(sparse, 1<<20); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than the 1 MiB") {
		t.Errorf("a sparse gigabyte: %v", err)
	}
	if _, err := ReadFile(dir, 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file (a directory)") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := ReadFile("/dev/zero", 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file (a device)") {
		t.Errorf("/dev/zero: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Without a writer, opening the FIFO would wait for ever: it is refused before.
	if _, err := ReadFile(fifo, 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file (a FIFO)") {
		t.Errorf("a FIFO: %v", err)
	}
}

func TestReader(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    string
		limit int64
		fails bool
	}{
		{"shorter", "abc", 5, false},
		{"exactly the limit", "abcde", 5, false},
		{"one byte over", "abcdef", 5, true},
		{"empty", "", 0, false},
		{"anything over none", "a", 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := io.ReadAll(NewReader(strings.NewReader(c.in), c.limit, "input"))
			if c.fails {
				if !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), "input: more than") {
					t.Errorf("%q, %v; want an error", b, err)
				}
				if int64(len(b)) > c.limit {
					t.Errorf("passed on %d bytes, more than the limit %d", len(b), c.limit)
				}
				return
			}
			if err != nil || string(b) != c.in {
				t.Errorf("%q, %v; want %q", b, err, c.in)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"short", "short", `"short"`},
		{"100 MiB of NULs", strings.Repeat("\x00", 100<<20), `"` + strings.Repeat(`\x00`, QuoteBytes) + `"... (104857600 bytes)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Quote([]byte(c.in)); got != c.want {
				t.Errorf("Quote of %d bytes: %s, want %s", len(c.in), got, c.want)
			}
		})
	}
}

func TestPrefix(t *testing.T) {
	if got, want := Prefix([]byte(strings.Repeat("a", QuoteBytes+1))), `"`+strings.Repeat("a", QuoteBytes)+`"...`; got != want {
		t.Errorf("Prefix: %s, want %s", got, want)
	}
	if got := Prefix([]byte("ab")); got != `"ab"` {
		t.Errorf("Prefix: %s", got)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 30: "1 GiB", 64 << 20: "64 MiB", 1000: "1000 bytes", 3 << 10: "3 KiB", 0: "0 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
