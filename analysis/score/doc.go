// Package score counts game results and gives Sente's score with a Wilson
// confidence interval.
//
// A Tally counts Sente wins, Gote wins and draws; its Score counts a draw as
// half a point, as chess and shogi tables do, and Interval is the Wilson
// score interval (Wilson 1927) for that proportion:
//
//	var t score.Tally
//	t.Add(record.Sente)
//	t.Add(record.Draw)
//	s := t.Score()          // 0.75
//	lo, hi := t.Interval()  // 95% Wilson interval around 0.75
//
// Wilson is preferred to the normal ("Wald") interval because it stays inside
// [0, 1] and keeps its coverage for small samples and scores near 0 or 1
// (Brown, Cai and DasGupta, "Interval Estimation for a Binomial Proportion",
// Statistical Science 16(2), 2001), which opening tables are full of.
//
// Elo and Expected convert between a score and the rating difference it
// implies under the logistic model (Elo, "The Rating of Chessplayers, Past
// and Present", 1978): 0.64 is about +100 Elo.
package score
