package ratings

import (
	"strings"
	"testing"
)

// TestCaption: two players, A 7–0–3 against B, rated by their mean: the caption names the
// model, the anchor and each player's record.
func TestCaption(t *testing.T) {
	c := NewCollector()
	match(c, "A", "B", 7, 0, 3)
	res := fit(t, c, Options{Model: HalfPoint})
	got := Caption(res, "two test players", "ten games")
	for _, want := range []string{"Elo ratings of two test players, fitted by maximum likelihood (the Bradley–Terry model with a draw as half a win), their mean rated 0",
		"from ten games.", "A +74 ± ", "(10 games, 7–0–3)", "B -74 ± ", "(10 games, 3–0–7)"} {
		if !strings.Contains(got, want) {
			t.Errorf("the caption lacks %q:\n%s", want, got)
		}
	}
}
