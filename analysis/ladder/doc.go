// Package ladder places players on one fixed Elo scale: a rating ladder of
// anchors whose ratings were fixed once, from a round robin on distinct games
// (datasets/ladder), and a gauntlet's games against them.
//
// The anchors are players whose strength does not change: Fairy-Stockfish
// 11.1 at fixed node counts and frozen builds of the toolkit's engine at fixed
// playouts. Fit computes their ratings from the round robin's records by
// maximum likelihood (package ratings, Davidson's model of draws), with one
// anchor at 0. Rate then places a new player: its rating is the one that
// makes its results against the anchors, whose ratings stay fixed, most
// likely, and its 95% interval is where the log-likelihood is within 1.92
// (half the 95% point of χ² with one degree of freedom) of the maximum, which
// stays finite on one side when the player won or lost every game. Games are
// counted one by one, as BayesElo and Ordo count them; against a ladder whose
// round robin had no draws (ν = 0) a draw counts as half a win and half a
// loss, as Ordo counts it.
//
//	l, _ := ladder.ReadFile("datasets/ladder/ladder.json")
//	g := l.NewGauntlet("candidate")
//	for each record r { g.Add(r) }
//	rating, _ := g.Rate()
//	fmt.Printf("%.0f [%.0f, %.0f]\n", rating.Elo, rating.Low, rating.High)
package ladder
