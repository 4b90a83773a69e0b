// Package sprt is the statistics of engine matches as Fishtest computes them:
// game pairs counted by the pentanomial, the Elo of a match with its 95%
// interval and likelihood of superiority, and the generalized sequential
// probability ratio test (GSPRT) that stops a match once it has decided
// between two Elo hypotheses.
//
// A tour:
//
//	var p sprt.Pentanomial
//	p.Add(1.5)                       // A won one game of a pair and drew the other
//	e := sprt.Estimate(p.Units())    // score, Elo, 95% interval, LOS
//	t, _ := sprt.Parse("elo0=0,elo1=5,alpha=0.05,beta=0.05")
//	s := sprt.NewSequence(t)         // the stopping rule, fed pair by pair
//	v := s.Update(p)                 // v.State: Continue, H0 or H1; v.LLR, v.Lower, v.Upper
//
// Pairs. A match plays each opening twice with the colours swapped, and
// the two games of a pair are correlated (the opening favours one side). The
// pentanomial model counts pairs by the points A took, 0, 1/2, 1, 3/2 or 2,
// and so uses the variance of pairs, which the trinomial model of single
// games overstates (Michel Van den Bergh, "Normalized Elo", and the
// pentanomial notes of Fishtest).
//
// Estimate. The score is A's mean points per game; its 95% interval is the
// normal one, the score ± 1.96 standard errors from the variance of the
// units (pairs, or games when unpaired), and it maps to Elo through the
// logistic curve (score.Elo). LOS is Φ((score - 1/2)/standard error).
// When every unit scored alike the variance is 0 and the normal interval is
// a point; the interval is then Wilson's for the games' score
// (score.Wilson), which stays honest at 0 and 1. Normalized Elo (Van den
// Bergh) divides the score's excess over 1/2 by its standard deviation per
// game, (score - 1/2)/σ · 800/ln 10, so that one unit means the same
// number of games to resolve it whatever the draw rate.
//
// SPRT. H0 is elo = Elo0 and H1 is elo = Elo1, in logistic or normalized
// Elo (Test.Model). As Fishtest does, the log-likelihood ratio is the
// generalized one of the multinomial: the pair counts (a zero count
// replaced by 1/1000) are an empirical distribution, and for each
// hypothesis the distribution of the same support that is closest to it
// under the hypothesis's constraint is found by maximum likelihood (for
// logistic Elo the mean score is Expected(elo), a secular equation in one
// Lagrange multiplier; for normalized Elo the t-value (mean - 1/2)/σ is
// fixed, solved by iterating that equation); LLR = N·Σ p̂ᵢ·log(p₁ᵢ/p₀ᵢ).
// Wald's bounds are log(β/(1-α)) and log((1-β)/α), and Sequence moves them
// in by Fishtest's estimate of the overshoot of a discrete walk (Siegmund,
// "Sequential Analysis", 1985, corollary 8.33): the test accepts H1 when
// the LLR reaches the upper bound and H0 when it falls to the lower.
//
// The Elo of a match stopped by the SPRT is reported with the fixed-sample
// formulas above; a sequential stop biases it away from the hypothesis it
// rejected, as Fishtest warns.
package sprt
