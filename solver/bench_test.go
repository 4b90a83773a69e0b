package solver

import (
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// BenchmarkEnumerate measures the bounded enumeration of the bare-king graph (6 plies,
// 15,246 positions) and its backward mate sweep, reported as positions per second.
func BenchmarkEnumerate(b *testing.B) {
	root, _ := minishogi.Handicap("bare-king")
	var gr *retro.Graph[minishogi.Code, minishogi.Code]
	for b.Loop() {
		gr = retro.Enumerate[minishogi.Code, minishogi.Code](codeRules{}, []minishogi.Code{root.Code()}, retro.Options{MaxPly: 6})
	}
	b.ReportMetric(float64(gr.Len())*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

func BenchmarkSweep(b *testing.B) {
	root, _ := minishogi.Handicap("bare-king")
	gr := retro.Enumerate[minishogi.Code, minishogi.Code](codeRules{}, []minishogi.Code{root.Code()}, retro.Options{MaxPly: 6})
	var sol *retro.MateSolution
	for b.Loop() {
		sol = gr.SolveMate(false, sol)
	}
	b.ReportMetric(float64(gr.Len())*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkDFPNBareKing solves the bare-king handicap (mate in 8) from an empty table.
func BenchmarkDFPNBareKing(b *testing.B) {
	root, _ := minishogi.Handicap("bare-king")
	for b.Loop() {
		if _, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 8, NoProof: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDFPNThreePiece is the real-sized search the solver's speed is judged by: the
// three-piece handicap, every length from 0 to 12 plies disproved from an empty table (the
// whole mate in 16 takes minutes; run it with -bench ThreePiece16 -benchtime 1x). Reported:
// nodes generated per search.
func BenchmarkDFPNThreePiece(b *testing.B) {
	benchThreePiece(b, 12, 1)
}

// BenchmarkDFPNThreePieceParallel is the same search on two goroutines (parallel df-pn).
func BenchmarkDFPNThreePieceParallel(b *testing.B) {
	benchThreePiece(b, 12, 2)
}

// BenchmarkDFPNThreePiece16 solves the three-piece handicap outright (mate in 16).
func BenchmarkDFPNThreePiece16(b *testing.B) {
	benchThreePiece(b, 16, 1)
}

func benchThreePiece(b *testing.B, plies, workers int) {
	if testing.Short() {
		b.Skip("a search of seconds to minutes")
	}
	root, _ := minishogi.Handicap("three-piece")
	var r *DFPN
	cpu := cpuSeconds()
	for b.Loop() {
		var err error
		if r, err = SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: plies, NoProof: true, MemoryBudget: 256 << 20, Workers: workers}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.Nodes), "nodes")
	b.ReportMetric((cpuSeconds()-cpu)/float64(b.N), "cpu-s/op")
}

// cpuSeconds returns the process's user and system CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkTwoCoresCeiling measures the most two goroutines can gain on this machine: the
// same work with nothing shared (move generation at the three-piece root, each goroutine
// on its own buffer) timed on one goroutine and then on two at once. Its speedup metric,
// twice the one's time over the two's, is the ceiling for BenchmarkDFPNThreePieceParallel
// against BenchmarkDFPNThreePiece: 2 on two free cores, less where a shared virtual machine's
// two CPUs are not two cores' worth (datasets/handicap/README.md, Two workers).
func BenchmarkTwoCoresCeiling(b *testing.B) {
	root, _ := minishogi.Handicap("three-piece")
	// work returns the number of moves, checked here on the benchmark's goroutine (b.Fatal
	// may not be called from the others) and keeping the loop from being optimised away.
	work := func() int {
		var moves []minishogi.Move
		for range 200_000 {
			moves = moveRules{}.Moves(root, moves[:0])
		}
		return len(moves)
	}
	var one, two time.Duration
	for b.Loop() {
		start := time.Now()
		n := work()
		one += time.Since(start)
		start = time.Now()
		var n1, n2 int
		var wg sync.WaitGroup
		wg.Go(func() { n1 = work() })
		wg.Go(func() { n2 = work() })
		wg.Wait()
		two += time.Since(start)
		if n == 0 || n1 != n || n2 != n {
			b.Fatalf("the three-piece root has %d, %d and %d moves; want the same, above 0", n, n1, n2)
		}
	}
	b.ReportMetric(2*one.Seconds()/two.Seconds(), "speedup")
}

// BenchmarkTwoCoresTableCeiling is BenchmarkTwoCoresCeiling for the other half of df-pn's
// work: probes of a table far larger than the caches (256 MiB, as the three-piece benchmarks'
// budget), each at a random place that depends on the last probe's value, as a search's
// lookups do. Its speedup metric is one goroutine's time for two chains of probes over two
// goroutines' time for one chain each: what two workers can gain where the memory, not the cores, is what
// they share.
func BenchmarkTwoCoresTableCeiling(b *testing.B) {
	table := make([]uint64, 32<<20)
	for i := range table {
		table[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	work := func(seed uint64) uint64 {
		x := seed
		for range 2_000_000 {
			x = x*6364136223846793005 + 1442695040888963407 + table[(x>>32)&uint64(len(table)-1)]
		}
		return x
	}
	// The two goroutines follow different chains (seeds 1 and 2), so that neither reads
	// what the other has just brought into the cache; one goroutine follows both in turn.
	var one, two time.Duration
	for b.Loop() {
		start := time.Now()
		a, c := work(1), work(2)
		one += time.Since(start)
		start = time.Now()
		var a2, c2 uint64
		var wg sync.WaitGroup
		wg.Go(func() { a2 = work(1) })
		wg.Go(func() { c2 = work(2) })
		wg.Wait()
		two += time.Since(start)
		if a2 != a || c2 != c {
			b.Fatalf("the same probes gave %d and %d alone, %d and %d at once", a, c, a2, c2)
		}
	}
	b.ReportMetric(one.Seconds()/two.Seconds(), "speedup")
}
