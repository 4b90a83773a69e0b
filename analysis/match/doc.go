// Package match counts a match between two players from its records alone:
// the games by result, the game pairs by the points player A took from them
// (the pentanomial that Elo intervals and the SPRT are computed on), the
// games that replay an earlier game, and one report of it all.
//
// A match is played in pairs (cmd/match, selfplay.Match with Pairs): games 2k
// and 2k+1 start from one opening, A playing Sente in the even game and Gote
// in the odd one. With one thread, no noise and a node limit both players are
// deterministic, so a pair from an opening used before replays an earlier
// pair move for move. A replay is not new evidence: Standings count a game
// whose start, players and moves equal an earlier game's once, and a pair
// equal to an earlier pair once, and say how many they left out
// (docs/tactics.md#replays tells how replays once inflated the project's
// SPRTs).
//
// A tour:
//
//	st := match.NewStandings(true)          // games in pairs
//	st.SetTest(sprt.Test{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: sprt.Logistic})
//	for each record g { st.Add(g) }         // any order
//	st.Finish()                             // the end of the records
//	rep := st.Report()                      // W-D-L, pentanomial, Elo, LOS, SPRT; JSON with null for ±Inf
//
// The sequential test sees the distinct pairs in the order of their pair
// number, not the order games ended, so that recounting a match's records
// (analyze match --sprt) gives the verdict the match gave.
package match
