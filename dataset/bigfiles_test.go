package dataset

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/shogilab/shogilab/record"
)

var (
	bigGames = flag.Int("big.games", 0, "TestWriteBigFiles: games to write (0 skips the test)")
	bigDir   = flag.String("big.dir", "", "TestWriteBigFiles: directory for games.jsonl, games.jsonl.gz, games.parquet and positions.parquet")
)

// shippedGames are the self-play records shipped in datasets/selfplay.
func shippedGames(t testing.TB) []*record.Game {
	paths, _ := filepath.Glob("../datasets/selfplay/*/games-*.jsonl.gz")
	more, _ := filepath.Glob("../datasets/selfplay/*/*/games-*.jsonl.gz")
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
//
//	go test ./dataset -run WriteBigFiles -big.games 50000 -big.dir /tmp/big
func TestWriteBigFiles(t *testing.T) {
	if *bigGames == 0 {
		t.Skip("writes benchmark files only with -big.games N -big.dir DIR")
	}
	pool := shippedGames(t)
	if err := os.MkdirAll(*bigDir, 0o755); err != nil {
		t.Fatal(err)
	}
	plainFile, err := os.Create(filepath.Join(*bigDir, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	plainBuf := bufio.NewWriterSize(plainFile, 1<<20)
	plain := record.NewWriter(plainBuf)
	gzFile, err := os.Create(filepath.Join(*bigDir, "games.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	gzBuf := bufio.NewWriterSize(gzFile, 1<<20)
	gz := record.NewGzipWriter(gzBuf)
	pq, err := Create(filepath.Join(*bigDir, "games.parquet"), filepath.Join(*bigDir, "positions.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for id := range *bigGames {
		g := *pool[id%len(pool)]
		g.ID = id
		for _, w := range []interface{ Write(*record.Game) error }{plain, gz, pq} {
			if err := w.Write(&g); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range []struct {
		b *bufio.Writer
		f *os.File
	}{{plainBuf, plainFile}, {gzBuf, gzFile}} {
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
