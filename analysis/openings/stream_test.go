package openings

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/shogilab/shogilab/analysis/internal/synthetic"
	"github.com/shogilab/shogilab/analysis/selection"
)

var (
	streamGames = flag.Int("stream.games", 100_000, "games in the generated file of TestStreamMemory")
	streamFile  = flag.String("stream.file", "", "keep TestStreamMemory's generated file at this path (for measuring the command on it)")
)

// TestStreamMemory streams a generated file of 100,000 games through the
// opening tree and measures the heap while it runs: the peak must stay far
// below what holding the games would take, since only the tree is kept.
// go test -run StreamMemory -args -stream.games=1000000 measures a million.
func TestStreamMemory(t *testing.T) {
	n := *streamGames
	path := *streamFile
	if path == "" {
		path = filepath.Join(t.TempDir(), "games.jsonl")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := synthetic.Write(f, n, 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	// The heap is sampled after a collection: what the stream holds, not
	// the garbage a collection would free.
	var peak uint64
	sample := func() {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
	}
	tree := NewTree(6)
	start := time.Now()
	counts, err := selection.Stream([]string{path}, selection.Filter{}, selection.Options{Progress: func(read int) {
		if read%10000 == 0 {
			sample()
		}
	}}, tree.Add)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	sample()
	if counts.Read != n || counts.Matched != n {
		t.Fatalf("counts %+v; want %d games", counts, n)
	}
	if s := tree.Starts(); len(s) != 1 || s[0].Games != n {
		t.Fatalf("starts %+v; want one start with %d games", s, n)
	}
	// Every first move's games add up to the games (no game of the pool
	// ends before its first move).
	sum := 0
	for _, l := range tree.Lines(0) {
		if len(l.Moves) == 1 {
			sum += l.Games
		}
	}
	if sum != n {
		t.Errorf("first moves cover %d games; want %d", sum, n)
	}
	lines, positions := tree.Size()
	growth := peak - min(peak, base)
	t.Logf("%d games, %.1f MB file: %.0f games/s read and aggregated; heap peak %.1f MB (%.1f MB above the start); tree %d lines, %d positions",
		n, float64(info.Size())/1e6, float64(n)/elapsed.Seconds(), float64(peak)/1e6, float64(growth)/1e6, lines, positions)
	// Holding the games would take more than the file's text; the tree of a
	// 4096-game pool to 6 plies is a few megabytes whatever n is.
	if limit := uint64(64 << 20); growth > limit || growth > uint64(info.Size())/4 {
		t.Errorf("heap grew by %d bytes while streaming a %d-byte file; want under %d and a quarter of the file", growth, info.Size(), limit)
	}
}
