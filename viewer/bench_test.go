package viewer

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The benchmarks measure what a reader waits for on a large file: indexing it (New) and
// serving the pages of the games list, a game and the explorer, for 100,000 games of random
// players (writeRandomRecords; made once and kept in the temporary directory), and the walk
// of the two-piece proof (59,633 positions).
//
//	go test ./viewer -run '^$' -bench . -benchtime 20x

const benchGames = 100_000

func benchFile(b *testing.B) string {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("shogilab-viewer-bench-%d.jsonl", benchGames))
	if _, err := os.Stat(path); err != nil {
		tmp := path + ".tmp"
		writeRandomRecords(b, tmp, benchGames, 1)
		if err := os.Rename(tmp, path); err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// heapMiB is the live heap after a collection: what the server keeps.
func heapMiB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

func BenchmarkNew100k(b *testing.B) {
	path := benchFile(b)
	before := heapMiB()
	var s *Server
	for b.Loop() {
		var err error
		if s, err = New([]string{path}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(heapMiB()-before, "heap-MiB")
	runtime.KeepAlive(s)
	if len(s.index.entries) != benchGames {
		b.Fatalf("%d games indexed", len(s.index.entries))
	}
}

func BenchmarkPages100k(b *testing.B) {
	path := benchFile(b)
	s, err := New([]string{path}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler("127.0.0.1:80")
	for _, c := range []struct{ name, path string }{
		{"games first page", "/games"},
		{"games last page", fmt.Sprintf("/games?page=%d", benchGames/pageSize)},
		{"games filtered", "/games?player=random-a&result=draw&min=40&page=3"},
		{"game in the middle", fmt.Sprintf("/game/%d", benchGames/2)},
		{"game at the end", fmt.Sprintf("/game/%d", benchGames-1)},
		{"openings root", "/openings"},
		{"openings line", "/openings?moves=2e3d,4a3b"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				serveOnce(b, h, c.path)
			}
		})
	}
	b.ReportMetric(heapMiB(), "heap-MiB")
	runtime.KeepAlive(s)
}

func BenchmarkTwoPieceProof(b *testing.B) {
	b.Run("read and check", func(b *testing.B) {
		before := heapMiB()
		var s *Server
		for b.Loop() {
			var err error
			if s, err = New([]string{twoPieceProof}, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(heapMiB()-before, "heap-MiB")
		runtime.KeepAlive(s)
	})
	s, err := New([]string{twoPieceProof}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if s.sources[0].Err != nil {
		b.Fatal(s.sources[0].Err)
	}
	// A line two plies deep: the first defence, and the proof's answer.
	w := s.sources[0].proof
	pos := w.root
	defence := pos.LegalMoves(nil)[0]
	pos.MakeMove(defence)
	answer := w.proof.Moves[pos.Code()]
	h := s.Handler("127.0.0.1:80")
	for _, c := range []struct{ name, path string }{
		{"root", "/proof/0"},
		{"two plies in", "/proof/0?line=" + url.QueryEscape(defence.String()+","+answer.String())},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				serveOnce(b, h, c.path)
			}
		})
	}
}

func serveOnce(b *testing.B, h http.Handler, path string) {
	req := httptest.NewRequest("GET", path, nil)
	req.Host = "127.0.0.1:80"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		b.Fatalf("GET %s: %d\n%.300s", path, w.Code, w.Body.String())
	}
}
