package engine

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPlayouts measures playouts per second of the whole engine (search, evaluator and
// mate search) from the start position, with one and two search goroutines. Each search
// starts a fresh tree of at most 20,000 playouts, a typical think at a short time control.
// Besides wall time it reports CPU time per playout, which other load on the machine does
// not distort: on idle cores threads=2 would run 2 × (cpu-ns of threads=1)/(cpu-ns of
// threads=2) times as fast as threads=1.
//
// threads=1 and threads=2 run the defaults, under which twins (mcts.Config.Twins) are on
// with two goroutines only. The last two cases swap that setting, so that the gain from
// the second goroutine can also be read at equal settings.
func BenchmarkPlayouts(b *testing.B) {
	for _, c := range []struct {
		threads int
		twins   mcts.Twins
	}{{1, mcts.TwinsAuto}, {2, mcts.TwinsAuto}, {1, mcts.TwinsOn}, {2, mcts.TwinsOff}} {
		name := fmt.Sprintf("threads=%d", c.threads)
		if c.twins != mcts.TwinsAuto {
			name += ",twins=" + c.twins.String()
		}
		b.Run(name, func(b *testing.B) {
			cfg := DefaultPlayerConfig()
			cfg.Search.Threads = c.threads
			cfg.Search.Twins = c.twins
			p, err := NewPlayer(cfg)
			if err != nil {
				b.Fatal(err)
			}
			start := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
			// Finish the garbage collection that allocating the node pool may
			// have started: its mark phase would otherwise take one of the two
			// cores from the timed two-goroutine search.
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
			var nodes int
			var collisions, twins int64
			playChunks(b, p, start, func(d Decision) {
				nodes += d.Nodes
				collisions += d.Collisions
				twins += d.Twins
			})
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/playout")
			b.ReportMetric(float64(collisions)/float64(b.N), "collisions/playout")
			b.ReportMetric(float64(twins)/float64(b.N), "twins/playout")
			b.ReportMetric(float64(nodes)*float64(mcts.NodeBytes)/float64(b.N), "B/playout")
		})
	}
}

// playChunks plays b.N playouts from start in searches of at most 20,000 from a fresh tree
// (so that the pool never fills), hands each search's decision to add, and reports the CPU
// time and the wall-clock rate per playout.
func playChunks(b *testing.B, p *Player, start *minishogi.Game, add func(Decision)) {
	b.Helper()
	const chunk = 20000
	cpu := cpuTime()
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
		add(d)
		done += n
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/playout")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}
