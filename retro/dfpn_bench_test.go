package retro

import (
	"testing"
	"unsafe"
)

// BenchmarkTableEntry reports the memory of one df-pn table entry for a 128-bit position
// code (Minishogi's): the table is one flat array of them, so this is all it costs.
func BenchmarkTableEntry(b *testing.B) {
	for b.Loop() {
	}
	b.ReportMetric(float64(unsafe.Sizeof(entry[[2]uint64]{})), "bytes/entry")
}

// TestHandCovers checks the packed comparison against counts compared one by one.
func TestHandCovers(t *testing.T) {
	pack := func(c [16]int) Hand {
		var h Hand
		for i, n := range c {
			h |= Hand(n) << (4 * i)
		}
		return h
	}
	cases := []struct {
		a, b [16]int
		want bool
	}{
		{[16]int{}, [16]int{}, true},
		{[16]int{1}, [16]int{}, true},
		{[16]int{}, [16]int{1}, false},
		{[16]int{7, 0, 2}, [16]int{6, 0, 2}, true},
		{[16]int{7, 0, 2}, [16]int{6, 1, 2}, false},
		{[16]int{15: 7}, [16]int{15: 7}, true},
		{[16]int{15: 6}, [16]int{15: 7}, false},
		{[16]int{0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}, [16]int{1, 0}, false},
	}
	for _, c := range cases {
		if got := pack(c.a).Covers(pack(c.b)); got != c.want {
			t.Errorf("%v covers %v: got %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
