package retro

import (
	"runtime"
	"testing"
)

// BenchmarkTableEntry measures the memory of one df-pn table entry for a 128-bit position
// code (Minishogi's), as a Go map holds it: reported as bytes/entry, averaged over a million
// entries so that the map's growth by doubling is included.
func BenchmarkTableEntry(b *testing.B) {
	const n = 1 << 20
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		tt := make(map[ttKey[[2]uint64]]ttEntry)
		for i := range uint64(n) {
			tt[ttKey[[2]uint64]{code: [2]uint64{i * 0x9E3779B97F4A7C15, i}, plies: int16(i % 9)}] = ttEntry{1, 1}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "bytes/entry")
		runtime.KeepAlive(tt)
	}
}
