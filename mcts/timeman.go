package mcts

import "time"

// The time manager. A search under a clock is given a time to aim at (Limits.Time) and a
// hard bound (Limits.MaxTime); what it does not spend is left on the clock for later moves.
// Two rules, both read from the root's children while the workers run:
//
//   - Stop early when the move is settled: the most visited move is the one played, and once
//     the runner-up could not catch it even if every playout left before the search would end
//     (at Time, or at MaxTime while the move is unsettled as below) went to it, at the rate
//     so far, searching on cannot change the move. This is the "smart pruning" of Leela Zero
//     and KataGo; it loses nothing of the move and saves the rest of the time.
//   - Run on past Time while the move is unsettled: the most visited move is not the one with
//     the best value among the moves with a fair share of visits, so the visits have not yet
//     caught up with what the search found. The search then goes on until they agree or
//     MaxTime is spent (Huang, Coulom & Lin, "Time management for Monte-Carlo tree search
//     applied to the game of Go", 2010: their "unstable evaluation" rule).
//
// A settled stop is only trusted after a sixteenth of Time, so that a few lucky playouts at
// the start do not end the search.

// A share of visits is fair, for the run-on rule, from a quarter of the top move's.
const fairShare = 4

// manageTime halts the search by the two rules above; it returns when done is closed.
func (s *Searcher) manageTime(lim Limits, done <-chan struct{}) {
	tick := time.NewTicker(max(lim.Time/32, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		elapsed := time.Since(s.started)
		if elapsed >= lim.MaxTime {
			s.halt(StopTime)
			return
		}
		top, second, unsettled := s.rootRace()
		if elapsed >= lim.Time && !unsettled {
			s.halt(StopTime)
			return
		}
		if elapsed < lim.Time/16 || top == 0 {
			continue
		}
		// Where the search would end by the rules: at Time, or at MaxTime while unsettled.
		end := lim.Time
		if unsettled {
			end = lim.MaxTime
		}
		var played int64 // the playouts so far (s.playouts counts claims, only with a budget)
		for _, w := range s.workers {
			played += w.stats.playouts.Load()
		}
		left := float64(played) / float64(elapsed) * float64(end-elapsed)
		if float64(top-second) > left {
			s.halt(StopSettled)
			return
		}
	}
}

// rootRace returns the visits of the root's two most visited unproven moves and whether the
// most visited is unsettled: another move with a fair share of its visits has a higher value.
func (s *Searcher) rootRace() (top, second uint32, unsettled bool) {
	root := &s.pool.nodes[0]
	first, count := root.children, metaChildren(root.meta.Load())
	best := uint32(0)
	for c := first; c < first+count; c++ {
		r := s.rankOf(c)
		if r.tier() != 1 {
			continue
		}
		switch {
		case r.visits > top:
			top, second, best = r.visits, top, c
		case r.visits > second:
			second = r.visits
		}
	}
	if top == 0 {
		return 0, 0, false
	}
	q := s.pool.nodes[best].q()
	for c := first; c < first+count; c++ {
		if r := s.rankOf(c); c != best && r.tier() == 1 && r.visits*fairShare >= top && r.q > q {
			return top, second, true
		}
	}
	return top, second, false
}
