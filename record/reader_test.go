package record

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readIDs reads every game and returns the ids, failing t on an error.
func readIDs(t *testing.T, paths []string, opts ...ReaderOption) []int {
	t.Helper()
	r := NewReader(paths, opts...)
	defer r.Close()
	return readAllIDs(t, r)
}

func seq(lo, hi int) []int {
	var ids []int
	for id := lo; id < hi; id++ {
		ids = append(ids, id)
	}
	return ids
}

func sameIDs(t *testing.T, what string, got, want []int) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: read %d ids (first %v); want %d", what, len(got), got[:min(len(got), 5)], len(want))
	}
}

// TestReaderManyChunks reads files of several chunks, plain, gzip one member
// per game and gzip in one member, with one and two workers: every game
// comes back in file order, and a bad line deep in the file is reported
// at its line.
func TestReaderManyChunks(t *testing.T) {
	dir := t.TempDir()
	n := 6000 // some 2 MB of text: several chunks
	if testing.Short() {
		n = 2500 // two text chunks, and gzip chunks of a few hundred members
	}
	plain := filepath.Join(dir, "a.jsonl")
	members := filepath.Join(dir, "b.jsonl.gz")
	writeFile(t, plain, false, seq(0, n)...)
	writeFile(t, members, true, seq(n, 2*n)...)
	// One member: what gzip -9 of a finished file gives.
	text, _ := os.ReadFile(plain)
	var one bytes.Buffer
	zw := gzip.NewWriter(&one)
	zw.Write(text)
	zw.Close()
	single := filepath.Join(dir, "c.jsonl.gz")
	os.WriteFile(single, one.Bytes(), 0o644)

	for _, workers := range []int{1, 3} {
		got := readIDs(t, []string{plain, members, single}, Workers(workers))
		sameIDs(t, fmt.Sprintf("%d workers", workers), got, append(seq(0, 2*n), seq(0, n)...))
	}

	// A bad record at line 2001 of each kind of file.
	lines := bytes.SplitAfter(text, []byte("\n"))
	lines[2000] = []byte("{\"id\":\n")
	bad := bytes.Join(lines, nil)
	var badMembers bytes.Buffer
	for _, l := range lines {
		zw := gzip.NewWriter(&badMembers)
		zw.Write(l)
		zw.Close()
	}
	one.Reset()
	zw = gzip.NewWriter(&one)
	zw.Write(bad)
	zw.Close()
	for name, data := range map[string][]byte{"bad.jsonl": bad, "bad-members.jsonl.gz": badMembers.Bytes(), "bad-one.jsonl.gz": one.Bytes()} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		r := NewReader([]string{path})
		ids := []int{}
		var err error
		for {
			var g *Game
			if g, err = r.Read(); err != nil {
				break
			}
			ids = append(ids, g.ID)
		}
		r.Close()
		var le *LineError
		if !errors.As(err, &le) || le.File != path || le.Line != 2001 || len(ids) != 2000 {
			t.Errorf("%s: %d games, then %v; want 2000, then an error at line 2001", name, len(ids), err)
		}
		sameIDs(t, name+" skipping", readIDs(t, []string{path}, SkipInvalid(nil)), append(seq(0, 2000), seq(2001, n)...))
	}
}

// TestReaderFalseMemberStart makes the reader cut its first chunk inside a
// member. A gzip member ends with ISIZE, the text's length mod 2³² (RFC 1952
// section 2.3.1), little-endian: a member of 0x00088b1f bytes of text ends
// in 1f 8b 08 00, which look like the start of the next member. Stored
// without compression, that member spans the first chunk's end, so the
// reader cuts at those bytes; the first chunk runs on, and the reader joins
// the two chunks. Every game is read once, in order.
func TestReaderFalseMemberStart(t *testing.T) {
	const size = 0x00088b1f
	g := testGame(0)
	line, _ := MarshalLine(g)
	g.Players.Gote.Name = strings.Repeat("x", size-len(line)+len(g.Players.Gote.Name))
	line, err := MarshalLine(g)
	if err != nil || len(line) != size {
		t.Fatalf("line of %d bytes (%v)", len(line), err)
	}
	var file bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&file, gzip.NoCompression)
	zw.Write(line)
	zw.Close()
	end := file.Len()
	w := NewGzipWriter(&file)
	for id := 1; id < 300; id++ {
		w.Write(testGame(id))
	}
	if c := bytes.Index(file.Bytes()[gzipChunk:], gzipMagic); c+gzipChunk != end-4 {
		t.Fatalf("the first cut is at %d, not in the big member's trailer (%d)", c+gzipChunk, end-4)
	}
	path := filepath.Join(t.TempDir(), "false.jsonl.gz")
	os.WriteFile(path, file.Bytes(), 0o644)
	for _, w := range []int{1, 2} {
		sameIDs(t, fmt.Sprintf("%d workers", w), readIDs(t, []string{path}, Workers(w)), seq(0, 300))
	}
}

// TestReaderCutGzip: a file of one gzip member cut short reads its whole
// lines, then fails, or skips the cut record with SkipInvalid.
func TestReaderCutGzip(t *testing.T) {
	var text bytes.Buffer
	w := NewWriter(&text)
	for id := range 3000 {
		w.Write(testGame(id))
	}
	var one bytes.Buffer
	zw := gzip.NewWriter(&one)
	zw.Write(text.Bytes())
	zw.Close()
	path := filepath.Join(t.TempDir(), "cut.jsonl.gz")
	os.WriteFile(path, one.Bytes()[:one.Len()*2/3], 0o644)
	r := NewReader([]string{path})
	n := 0
	var err error
	for ; ; n++ {
		if _, err = r.Read(); err != nil {
			break
		}
	}
	r.Close()
	if n < 1000 || n > 2500 || !errors.Is(err, io.ErrUnexpectedEOF) || !strings.HasPrefix(err.Error(), "record: "+path) {
		t.Errorf("%d games, then %v", n, err)
	}
	r = NewReader([]string{path}, SkipInvalid(nil))
	ids := readAllIDs(t, r)
	if len(ids) != n || r.Skipped() != 1 {
		t.Errorf("skipping: %d games, %d skipped; want %d and 1", len(ids), r.Skipped(), n)
	}
	r.Close()
}

// TestReaderCloseEarly stops reading a long file after one game: Close
// ends the reading ahead.
func TestReaderCloseEarly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	writeFile(t, path, false, seq(0, 5000)...)
	r := NewReader([]string{path})
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if _, err := r.Read(); err == nil {
		t.Error("Read after Close gave a game")
	}
}

// TestReaderSelectCheck reads ten games, plain and gzip, keeping the even ids (Select) and
// rejecting id 4 (Check): ids 0, 2, 4, 6 and 8 come back in order, 4 with the check's error
// and reading going on after it, and the five odd ids are counted as dropped.
func TestReaderSelectCheck(t *testing.T) {
	dir := t.TempDir()
	errFour := errors.New("four")
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			path := filepath.Join(dir, "g.jsonl")
			if gz {
				path += ".gz"
			}
			writeFile(t, path, gz, seq(0, 10)...)
			r := NewReader([]string{path}, Workers(2),
				Select(func(g *Game) bool { return g.ID%2 == 0 }),
				Check(func(g *Game) error {
					if g.ID == 4 {
						return errFour
					}
					return nil
				}))
			defer r.Close()
			var ids []int
			for {
				g, err := r.Read()
				if err == io.EOF {
					break
				}
				if g == nil {
					t.Fatal(err)
				}
				if (g.ID == 4) != (err == errFour) {
					t.Errorf("game %d came with error %v", g.ID, err)
				}
				ids = append(ids, g.ID)
			}
			sameIDs(t, "kept", ids, []int{0, 2, 4, 6, 8})
			if r.Dropped() != 5 {
				t.Errorf("Dropped %d, want the 5 odd ids", r.Dropped())
			}
		})
	}
}
