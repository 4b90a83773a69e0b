// Package gamestats summarises a set of games: results by colour with Wilson
// 95% intervals, how the games ended, and the distribution of their length.
//
//	s := gamestats.New()
//	for each game g { s.Add(g) }  // constant memory: counters and a histogram by length
//	r := s.Report()
//	fmt.Println(r.SenteScore.Value, r.Terminations[0].Termination, r.Lengths[0].Median)
//
// Lengths are in plies (half-moves). Quantiles are empirical: the smallest
// length at or below which the given share of games ended (gonum's
// stat.Empirical), so they are always lengths that occurred.
//
// PlotLengths draws the length histograms by result.
package gamestats
