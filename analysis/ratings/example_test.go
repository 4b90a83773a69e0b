package ratings_test

import (
	"fmt"

	"github.com/shogilab/shogilab/analysis/ratings"
	"github.com/shogilab/shogilab/record"
)

func ExampleCollector() {
	c := ratings.NewCollector()
	a := record.Player{Name: "a", Kind: record.KindMCTS}
	b := record.Player{Name: "b", Kind: record.KindMCTS}
	// a scores 3 of 4 against b, no draws: 400·log10(3) = 190.8 Elo apart,
	// with a standard error of (400/ln 10)·sqrt(1/(4·3/4·1/4)) = 200.6, so
	// ±1.96·200.6 = ±393.2 and LOS = Φ(190.8/200.6) = 0.83.
	for _, r := range []record.Result{record.Sente, record.Sente, record.Sente, record.Gote} {
		c.Add(&record.Game{Result: r, Players: record.Players{Sente: a, Gote: b}})
	}
	res, err := c.Fit(ratings.Options{Anchor: "b"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range res.Players {
		fmt.Printf("%s %.1f ± %.1f\n", p.Name, p.Elo, p.Interval[1]-p.Elo)
	}
	fmt.Printf("LOS(a > b) = %.2f\n", res.LOS[0][1])
	// Output:
	// a 190.8 ± 393.2
	// b 0.0 ± 0.0
	// LOS(a > b) = 0.83
}
