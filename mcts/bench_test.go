//go:build unix

package mcts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// hashEvaluator is a cheap stand-in for a real evaluator: priors and value
// are drawn from the position's hash, so the benchmark measures the search
// itself.
type hashEvaluator struct{}

func (hashEvaluator) Evaluate(g Game, moves []Move, priors []float32, rng *rand.Rand) Evaluation {
	h := g.Hash()
	for i := range priors {
		h = h*6364136223846793005 + 1442695040888963407 // Knuth's MMIX LCG
		priors[i] = float32(h>>40) + 1
	}
	return Evaluation{Value: float32(h>>40)/(1<<23) - 1}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPlayout measures one playout (descent, expansion with 20 moves,
// backup) on a game that never ends. Searches of at most 100,000 playouts
// keep the pool at 2M nodes; each starts a fresh tree. Besides wall time it
// reports CPU time per playout, which a loaded machine does not distort: on
// idle cores, threads=2 runs 2 × (cpu-ns of threads=1)/(cpu-ns of threads=2)
// times as fast as threads=1.
func BenchmarkPlayout(b *testing.B) {
	const chunk = 100000
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Threads = threads
			cfg.MaxNodes = chunk * 22 // 20 per playout, and room for the workers' partly used chunks
			s := newSearcher(b, cfg, func() Evaluator { return hashEvaluator{} })
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			var collisions int64
			for done := 0; done < b.N; {
				n := min(b.N-done, chunk)
				s.Reset()
				res, err := s.Search(context.Background(), &endless{width: 20}, Limits{Playouts: int64(n)})
				if err != nil || res.Playouts != int64(n) {
					b.Fatalf("%d of %d playouts, stop %v, error %v", res.Playouts, n, res.Stop, err)
				}
				collisions += res.Collisions
				done += n
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/playout")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(float64(collisions)/float64(b.N), "collisions/playout")
		})
	}
}
