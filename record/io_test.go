package record

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testGame is a valid game whose fields vary with id: a draw at the play
// limit after id%5 plies from the start, with search statistics.
func testGame(id int) *Game {
	opening := []string{"2e3d", "4a3b", "3e2d", "3a4b", "5d5c"}
	g := &Game{
		ID: id, Seed: uint64(id) * 0x9E3779B97F4A7C15, Variant: "minishogi",
		Start: "rbsgk/4p/5/P4/KGSBR b - 1", StartName: "startpos",
		Moves:  opening[:id%5],
		Result: Draw, Termination: MaxPlies, Plies: id % 5,
		Players: Players{
			Sente: Player{Name: "mcts", Kind: KindMCTS, Config: map[string]any{"playouts": 100.0}},
			Gote:  Player{Name: "random", Kind: KindRandom},
		},
		Rules:     Rules{Repetition: RepetitionFirstMoverLoses, MaxPlies: id % 5},
		Version:   "test",
		StartedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Seconds:   0.25,
	}
	for i := range g.Moves {
		g.Stats = append(g.Stats, MoveStats{Visits: 100, Value: 0.5, Top: []TopMove{{Move: g.Moves[i], Visits: 60}}, MS: 1.5})
	}
	return g
}

func writeFile(t *testing.T, path string, gz bool, ids ...int) {
	t.Helper()
	w, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if w.zw != nil != gz {
		t.Fatalf("Create(%s) chose gzip=%v", path, w.zw != nil)
	}
	for _, id := range ids {
		if err := w.Write(testGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func readAllIDs(t *testing.T, r *Reader) []int {
	t.Helper()
	var ids []int
	for {
		g, err := r.Read()
		if err == io.EOF {
			return ids
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
}

func TestWriteReadPlainAndGzip(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.jsonl")
	gz := filepath.Join(dir, "b.jsonl.gz")
	writeFile(t, plain, false, 0, 1, 2)
	writeFile(t, gz, true, 3, 4, 5, 6)

	// The gzip file is a standard multistream file: the standard library's
	// reader (like gzip -d) sees one text of four lines.
	f, err := os.Open(gz)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(text, []byte("\n")); n != 4 {
		t.Errorf("gzip file holds %d lines, want 4", n)
	}

	// gzip found by its magic bytes, not its name.
	renamed := filepath.Join(dir, "c.jsonl")
	if err := os.Rename(gz, renamed); err != nil {
		t.Fatal(err)
	}
	r := NewReader([]string{plain, renamed})
	defer r.Close()
	if got, want := fmt.Sprint(readAllIDs(t, r)), "[0 1 2 3 4 5 6]"; got != want {
		t.Errorf("ids %s, want %s", got, want)
	}

	// Games come back as written.
	r2 := NewReader([]string{plain})
	defer r2.Close()
	for id := 0; id < 3; id++ {
		g, err := r2.Read()
		if err != nil {
			t.Fatal(err)
		}
		want := testGame(id)
		if got, _ := MarshalLine(g); !bytes.Equal(got, mustMarshal(t, want)) {
			t.Errorf("game %d read back as %s", id, got)
		}
	}
}

func TestWriterOutputMatchesSchema(t *testing.T) {
	sch := compileSchema(t)
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for id := 0; id < 5; id++ {
		if err := w.Write(testGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5", len(lines))
	}
	for i, line := range lines {
		if err := schemaValid(t, sch, line); err != nil {
			t.Errorf("line %d: %v", i+1, err)
		}
	}
}

func TestWriterRefusesInvalid(t *testing.T) {
	var buf bytes.Buffer
	g := testGame(3)
	g.Plies = 2
	if err := NewWriter(&buf).Write(g); err == nil || buf.Len() != 0 {
		t.Errorf("wrote an invalid game: err %v, %d bytes", err, buf.Len())
	}
}

func TestReaderErrorNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.jsonl")
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for id := 0; id < 16; id++ {
		w.Write(testGame(id))
	}
	bad := mustMarshal(t, testGame(16))
	bad = bytes.Replace(bad, []byte(`"result":"draw"`), []byte(`"result":"black"`), 1)
	buf.Write(bad)
	w.Write(testGame(17))
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	r := NewReader([]string{path})
	defer r.Close()
	var n int
	var err error
	for ; ; n++ {
		if _, err = r.Read(); err != nil {
			break
		}
	}
	want := "record: " + path + `:17: result "black" is not sente, gote or draw`
	if n != 16 || err == nil || err.Error() != want {
		t.Errorf("after %d games: %v\nwant after 16: %s", n, err, want)
	}
	var lerr *LineError
	if !errors.As(err, &lerr) || lerr.Line != 17 {
		t.Errorf("error %v is not a *LineError at line 17", err)
	}

	// Skipping: the bad line is counted and reported, the rest is read.
	var reported []error
	r2 := NewReader([]string{path}, SkipInvalid(func(err error) { reported = append(reported, err) }))
	defer r2.Close()
	ids := readAllIDs(t, r2)
	if len(ids) != 17 || ids[16] != 17 || r2.Skipped() != 1 || len(reported) != 1 || reported[0].Error() != want {
		t.Errorf("skipping: ids %v, skipped %d, reported %v", ids, r2.Skipped(), reported)
	}
}

func TestReaderMissingFile(t *testing.T) {
	r := NewReader([]string{filepath.Join(t.TempDir(), "none.jsonl")})
	if _, err := r.Read(); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read of a missing file: %v", err)
	}
}

// cutFile writes ids whole, then the first half of game cut's bytes, as a
// killed writer leaves a file. It returns the length of the whole part.
func cutFile(t *testing.T, path string, gz bool, ids []int, cut int) int64 {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if gz {
		w = NewGzipWriter(&buf)
	}
	for _, id := range ids {
		if err := w.Write(testGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	whole := int64(buf.Len())
	var last bytes.Buffer
	lw := NewWriter(&last)
	if gz {
		lw = NewGzipWriter(&last)
	}
	lw.Write(testGame(cut))
	buf.Write(last.Bytes()[:last.Len()/2])
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return whole
}

func TestScanFileFindsPartialRecord(t *testing.T) {
	for _, gz := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "run.jsonl")
		whole := cutFile(t, path, gz, []int{0, 1, 2, 3}, 4)
		games, end, err := Recover(path)
		if err != nil {
			t.Fatalf("gzip=%v: %v", gz, err)
		}
		if len(games) != 4 || end != whole {
			t.Errorf("gzip=%v: %d games, end %d; want 4 games, end %d", gz, len(games), end, whole)
		}
		// A reader that skips sees the same four games and one bad record.
		r := NewReader([]string{path}, SkipInvalid(nil))
		if ids := readAllIDs(t, r); len(ids) != 4 || r.Skipped() != 1 {
			t.Errorf("gzip=%v: skipping reader read %v, skipped %d", gz, ids, r.Skipped())
		}
		r.Close()

		// Resume: truncate, append the rest, and the file is whole.
		if err := os.Truncate(path, end); err != nil {
			t.Fatal(err)
		}
		w, err := Append(path)
		if err != nil {
			t.Fatal(err)
		}
		if gz != (w.zw != nil) {
			// Append chooses by name; this file's name has no .gz.
			w = &Writer{w: w.file, file: w.file}
			if gz {
				w.zw = gzip.NewWriter(&w.frame)
			}
		}
		for id := 4; id < 6; id++ {
			if err := w.Write(testGame(id)); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		r = NewReader([]string{path})
		if got := fmt.Sprint(readAllIDs(t, r)); got != "[0 1 2 3 4 5]" {
			t.Errorf("gzip=%v: after resume ids %s", gz, got)
		}
		r.Close()
	}
}

func TestScanFileWholeAndDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "whole.jsonl")
	writeFile(t, path, false, 0, 1)
	info, _ := os.Stat(path)
	if _, end, err := Recover(path); err != nil || end != info.Size() {
		t.Errorf("whole file: end %d, err %v; want %d, nil", end, err, info.Size())
	}

	// A complete line that is bad is damage, not a crash: an error.
	data, _ := os.ReadFile(path)
	damaged := filepath.Join(dir, "damaged.jsonl")
	os.WriteFile(damaged, append([]byte("{\"id\":\n"), data...), 0o644)
	if _, _, err := Recover(damaged); err == nil {
		t.Error("Recover accepted a damaged complete line")
	}

	// A corrupt gzip member (not cut short) is an error too.
	gz := filepath.Join(dir, "whole.jsonl.gz")
	writeFile(t, gz, true, 0, 1)
	data, _ = os.ReadFile(gz)
	data[len(data)-5] ^= 0xff // inside the last member's CRC-32
	os.WriteFile(gz, data, 0o644)
	if _, _, err := Recover(gz); err == nil {
		t.Error("Recover accepted a gzip member with a bad checksum")
	}
}

// The SIGKILL test: the test binary started again with killWriterEnv set
// writes games to the named file as fast as it can until it is killed.
const killWriterEnv = "SHOGILAB_RECORD_KILL_WRITER"

func TestRecordKillWriterProcess(t *testing.T) {
	path := os.Getenv(killWriterEnv)
	if path == "" {
		t.Skip("runs only as the writer that TestKilledWriter kills")
	}
	w, err := Append(path)
	if err != nil {
		os.Exit(2)
	}
	for id := 0; ; id++ {
		if err := w.Write(testGame(id)); err != nil {
			os.Exit(3)
		}
	}
}

func TestKilledWriter(t *testing.T) {
	for _, name := range []string{"run.jsonl", "run.jsonl.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			cmd := exec.Command(os.Args[0], "-test.run=^TestRecordKillWriterProcess$")
			cmd.Env = append(os.Environ(), killWriterEnv+"="+path)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until the writer has written something, then kill it mid-run.
			deadline := time.Now().Add(10 * time.Second)
			for {
				if info, err := os.Stat(path); err == nil && info.Size() > 100_000 {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatal("the writer wrote nothing in 10s")
				}
				time.Sleep(5 * time.Millisecond)
			}
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()

			var ids []int
			end, err := ScanFile(path, func(g *Game) error { ids = append(ids, g.ID); return nil })
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			info, _ := os.Stat(path)
			if end > info.Size() || len(ids) == 0 {
				t.Fatalf("%s: end %d of %d bytes, %d games", name, end, info.Size(), len(ids))
			}
			for i, id := range ids {
				if id != i {
					t.Fatalf("%s: game %d has id %d: lost or duplicated", name, i, id)
				}
			}
			t.Logf("%s: %d whole games, %d bytes of partial record", name, len(ids), info.Size()-end)
		})
	}
}

func BenchmarkReader(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.jsonl")
	w, err := Create(path)
	if err != nil {
		b.Fatal(err)
	}
	const games = 1000
	for id := 0; id < games; id++ {
		w.Write(testGame(id))
	}
	w.Close()
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader([]string{path})
		n := 0
		for {
			if _, err := r.Read(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
			n++
		}
		r.Close()
		if n != games {
			b.Fatal("read " + strconv.Itoa(n))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*games), "ns/game")
}

// BenchmarkWriter reports the cost of a game written plain and as its own
// gzip member, and the bytes each takes.
func BenchmarkWriter(b *testing.B) {
	for _, gz := range []bool{false, true} {
		name := "plain"
		if gz {
			name = "gzip-member"
		}
		b.Run(name, func(b *testing.B) {
			var buf bytes.Buffer
			w := NewWriter(&buf)
			if gz {
				w = NewGzipWriter(&buf)
			}
			g := testGame(4)
			n := 0
			for b.Loop() {
				buf.Reset()
				if err := w.Write(g); err != nil {
					b.Fatal(err)
				}
				n = buf.Len()
			}
			b.ReportMetric(float64(n), "bytes/game")
		})
	}
}

// TestRequireNewlineAndPosition builds a file by hand: game 0, a blank line, game 1, and game 2
// without its final newline (what a killed writer can leave). Position names the lines 1, 3
// and 4; the default reader takes the last line, RequireNewline rejects it at line 4.
func TestRequireNewlineAndPosition(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cut.jsonl")
	var text []byte
	for i, id := range []int{0, 1, 2} {
		line, err := MarshalLine(testGame(id))
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			text = append(text, '\n') // a blank line before game 1
		}
		text = append(text, line...)
	}
	text = bytes.TrimSuffix(text, []byte("\n"))
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}

	r := NewReader([]string{path})
	defer r.Close()
	for _, wantLine := range []int{1, 3, 4} {
		if _, err := r.Read(); err != nil {
			t.Fatalf("line %d: %v", wantLine, err)
		}
		if file, line := r.Position(); file != path || line != wantLine {
			t.Errorf("Position() = %s:%d, want %s:%d", file, line, path, wantLine)
		}
	}

	strict := NewReader([]string{path}, RequireNewline())
	defer strict.Close()
	for range 2 {
		if _, err := strict.Read(); err != nil {
			t.Fatal(err)
		}
	}
	_, err := strict.Read()
	var le *LineError
	if !errors.As(err, &le) || le.File != path || le.Line != 4 || !strings.Contains(le.Err.Error(), "without a newline") {
		t.Errorf("RequireNewline on a cut last line: %v, want a LineError at %s:4", err, path)
	}
}
