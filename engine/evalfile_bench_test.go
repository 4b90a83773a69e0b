package engine

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// shippedNet is the evaluation file shipped in the repository (datasets/README.md).
var shippedNet = filepath.Join("..", "datasets", "evaluation", "fsf5000-64x16.nnue")

// BenchmarkPlayoutsEvalFile compares the whole engine's playouts, one search goroutine,
// with the hand-set value and with the shipped network's (EvalFile), back to back in one
// run so that the machine's load is alike for both: searches of 20,000 playouts from the
// start position, as in BenchmarkPlayouts.
func BenchmarkPlayoutsEvalFile(b *testing.B) {
	for _, c := range []struct{ name, file string }{{"hand-set", HandSetEval}, {"network", shippedNet}} {
		b.Run(c.name, func(b *testing.B) {
			st := DefaultSettings()
			s, _ := FindSetting("EvalFile")
			if err := s.Set(&st, c.file); err != nil {
				b.Fatal(err)
			}
			cfg := st.Player
			cfg.Search.MaxNodes = 1 << 20
			p, err := NewPlayer(cfg)
			if err != nil {
				b.Fatal(err)
			}
			start := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
			runtime.GC()
			b.ResetTimer()
			cpu := cpuTime()
			const chunk = 20000
			for done := 0; done < b.N; {
				n := min(b.N-done, chunk)
				p.searcher.Reset()
				d, err := p.Think(context.Background(), start, mcts.Limits{Playouts: int64(n)})
				if err != nil {
					b.Fatal(err)
				}
				if d.Playouts != int64(n) && d.Stop != mcts.StopProven {
					b.Fatalf("%d of %d playouts, stop %v", d.Playouts, n, d.Stop)
				}
				done += n
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/playout")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}
