// Package ratings estimates Elo ratings of the player configurations in a set
// of games by maximum likelihood, with confidence intervals from the observed
// information and the likelihood of superiority (LOS) of each player over
// each other.
//
//	c := ratings.NewCollector()
//	for each game g { c.Add(g) }                         // memory: players², not games
//	res, err := c.Fit(ratings.Options{Model: ratings.Davidson})
//	for _, p := range res.Players { fmt.Println(p.Name, p.Elo, p.Interval) }
//
// Models. Both put player i's strength on the Elo scale, π_i = 10^(r_i/400),
// and ignore colour.
//
//   - Davidson (the default): Bradley-Terry with draws as an outcome of their
//     own (R. R. Davidson, "On extending the Bradley-Terry model to
//     accommodate ties in paired comparison experiments", JASA 65, 1970):
//     P(i wins) ∝ π_i, P(j wins) ∝ π_j, P(draw) ∝ ν·sqrt(π_i·π_j), with the
//     draw parameter ν fitted too. Without draws it is Bradley-Terry. For two
//     players the fit reproduces the observed frequencies, so the rating
//     difference is 400·log10(W/L): draws move the draw rate, not the gap.
//   - HalfPoint: Bradley-Terry with a draw counted as half a win and half a
//     loss (as Ordo and most engine-testing tools do). For two players the
//     difference is the classic -400·log10(1/s - 1) of the score s.
//
// The likelihood is maximised with gonum's Newton method on the analytic
// gradient and Hessian. Intervals are ±1.96 standard errors from the
// inverse of the observed information (the negative Hessian at the
// maximum). The scale has a free offset, fixed by the anchor: by default the
// mean rating is 0; Options.Anchor names a player rated 0 instead (its
// interval is then a point, and the others' widths are relative to it).
// LOS(i, j) = Φ((r_i - r_j)/sd(r_i - r_j)), which does not depend on the
// anchor.
//
// The maximum exists only if the results connect every player both ways
// (L. R. Ford, "Solution of a ranking problem from binary comparisons",
// American Mathematical Monthly 64, 1957): a player who never dropped a point
// would be rated infinitely high. Fit says which players break this.
//
// A player configuration is the name, kind and config of a record's player;
// it is shown by name alone unless one name has several configurations.
package ratings
