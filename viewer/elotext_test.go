package viewer

import (
	"math"
	"testing"
)

// TestEloText: the page writes an Elo difference with its sign and one decimal, n/a for an
// undefined one, and the infinities of a one-sided score as +∞ and −∞ (U+2212).
func TestEloText(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{12.34, "+12.3"}, {-7.06, "-7.1"}, {0, "+0.0"}, {math.NaN(), "n/a"}, {math.Inf(1), "+∞"}, {math.Inf(-1), "−∞"}} {
		t.Run(c.want, func(t *testing.T) {
			if got := eloText(c.x); got != c.want {
				t.Errorf("eloText(%v) = %q", c.x, got)
			}
		})
	}
}
