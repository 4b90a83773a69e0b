// Package boundedtest measures, for the tests of readers bound by package bounded, what a
// call allocates: a reader that refuses input before it allocates for it stays far below a
// ceiling that one holding the input whole would pass.
package boundedtest

import (
	"runtime"
	"testing"
)

// Allocated runs f and returns the bytes allocated on the heap meanwhile (runtime.MemStats
// TotalAlloc: every allocation counts, freed or not, so it bounds the peak from above). Other
// goroutines' allocations count too: a test that uses it must not run in parallel.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Within runs f and fails t if it allocates more than ceiling bytes, naming what.
func Within(t testing.TB, what string, ceiling uint64, f func()) {
	t.Helper()
	if n := Allocated(f); n > ceiling {
		t.Errorf("%s allocated %.1f MiB, more than the ceiling of %.1f MiB", what, float64(n)/(1<<20), float64(ceiling)/(1<<20))
	}
}
