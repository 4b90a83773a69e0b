package figuretest

import (
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestMeets checks the segment test on hand-drawn cases around the rectangle 0..10 × 0..10.
func TestMeets(t *testing.T) {
	r := vg.Rectangle{Max: vg.Point{X: 10, Y: 10}}
	p := func(x, y vg.Length) vg.Point { return vg.Point{X: x, Y: y} }
	for _, tc := range []struct {
		name string
		s    segment
		want bool
	}{
		{"inside", segment{p(2, 2), p(3, 3)}, true},
		{"one end inside", segment{p(5, 5), p(20, 5)}, true},
		{"straight through, ends outside", segment{p(-5, 5), p(15, 5)}, true},
		{"diagonal through the corners", segment{p(-1, -1), p(11, 11)}, true},
		{"across a corner", segment{p(-2, 7), p(2, 11)}, true},
		{"through a corner only", segment{p(-2, 8), p(2, 12)}, false},
		{"along an edge, outside", segment{p(-5, 10), p(15, 10)}, false},
		{"past a corner", segment{p(-2, 9), p(1, 12)}, false},
		{"above", segment{p(-5, 12), p(15, 11)}, false},
		{"a point outside", segment{p(12, 12), p(12, 12)}, false},
	} {
		if got := meets(tc.s, r); got != tc.want {
			t.Errorf("%s: meets = %v; want %v", tc.name, got, tc.want)
		}
	}
	if overlaps(r, vg.Rectangle{Min: p(10, 0), Max: p(20, 10)}) {
		t.Error("rectangles sharing an edge overlap")
	}
	if !overlaps(r, vg.Rectangle{Min: p(9, 9), Max: p(20, 20)}) {
		t.Error("rectangles sharing a corner square do not overlap")
	}
}
