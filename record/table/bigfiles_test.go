package table

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/shogilab/shogilab/record"
)

var (
	bigGames = flag.Int("big.games", 0, "TestWriteBigFiles: games to write (0 skips the test)")
	bigDir   = flag.String("big.dir", "", "TestWriteBigFiles: directory for games.jsonl, games.jsonl.gz, games.parquet and positions.parquet")
)

// shippedGames are the self-play records shipped in datasets/selfplay.
func shippedGames(t testing.TB) []*record.Game {
	paths, _ := filepath.Glob("../../datasets/selfplay/*/games-*.jsonl.gz")
	more, _ := filepath.Glob("../../datasets/selfplay/*/*/games-*.jsonl.gz")
	r := NewReader(append(paths, more...), Options{})
	defer r.Close()
	var games []*record.Game
	for {
		g, err := r.Read()
		if err != nil {
			if len(games) < 300 {
				t.Fatalf("%d shipped games: %v", len(games), err)
			}
			return games
		}
		games = append(games, g)
	}
}

// TestWriteBigFiles writes the files of the reading benchmarks: -big.games
// records of shipped-style games, game i being shipped game i mod 320 (the
// 200 games of datasets/selfplay/mcts400 and the 120 of the ladder, with
// their statistics) with id i, as plain JSON Lines, as gzip with a member
// per game (what selfplay --gzip writes) and as the two Parquet tables.
// Each shipped game is encoded once and only its id is rewritten; the gzip
// members are compressed on every core.
//
//	go test ./record/table -run WriteBigFiles -big.games 50000 -big.dir /tmp/big
func TestWriteBigFiles(t *testing.T) {
	if *bigGames == 0 {
		t.Skip("writes benchmark files only with -big.games N -big.dir DIR")
	}
	pool := shippedGames(t)
	var tails [][]byte // each game's line after its id
	for _, g := range pool {
		line, err := record.MarshalLine(g)
		if err != nil {
			t.Fatal(err)
		}
		prefix := fmt.Sprintf(`{"id":%d,`, g.ID)
		if !bytes.HasPrefix(line, []byte(prefix)) {
			t.Fatalf("a line starts %.20s", line)
		}
		tails = append(tails, line[len(prefix)-1:])
	}
	if err := os.MkdirAll(*bigDir, 0o755); err != nil {
		t.Fatal(err)
	}
	create := func(name string) (*os.File, *bufio.Writer) {
		f, err := os.Create(filepath.Join(*bigDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return f, bufio.NewWriterSize(f, 1<<20)
	}
	plainFile, plain := create("games.jsonl")
	gzFile, gz := create("games.jsonl.gz")
	pq, err := Create(filepath.Join(*bigDir, "games.parquet"), filepath.Join(*bigDir, "positions.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	line := func(id int) []byte {
		return append(fmt.Appendf(nil, `{"id":%d`, id), tails[id%len(tails)]...)
	}
	// Members compressed by the workers in blocks of ids, written in order.
	const block = 1000
	type result struct {
		data []byte
		done chan struct{}
	}
	order := make(chan *result, 2*runtime.NumCPU())
	jobs := make(chan func(), runtime.NumCPU())
	for range runtime.NumCPU() {
		go func() {
			for job := range jobs {
				job()
			}
		}()
	}
	go func() {
		for lo := 0; lo < *bigGames; lo += block {
			r := &result{done: make(chan struct{})}
			order <- r
			jobs <- func() {
				var buf bytes.Buffer
				zw := gzip.NewWriter(&buf)
				for id := lo; id < min(lo+block, *bigGames); id++ {
					zw.Reset(&buf)
					zw.Write(line(id))
					zw.Close()
				}
				r.data = buf.Bytes()
				close(r.done)
			}
		}
		close(order)
		close(jobs)
	}()
	id := 0
	for r := range order {
		for end := min(id+block, *bigGames); id < end; id++ {
			plain.Write(line(id))
			g := *pool[id%len(pool)]
			g.ID = id
			if err := pq.Write(&g); err != nil {
				t.Fatal(err)
			}
		}
		<-r.done
		gz.Write(r.data)
	}
	for _, f := range []struct {
		b *bufio.Writer
		f *os.File
	}{{plain, plainFile}, {gz, gzFile}} {
		if err := f.b.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pq.Close(); err != nil {
		t.Fatal(err)
	}
}
