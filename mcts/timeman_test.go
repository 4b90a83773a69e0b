package mcts

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// firstMove is the root move a position of endless was reached by (-1 at the root):
// endless's hash after one move m from the root is (m+1)·FNV-prime (its Play).
func firstMove(g *endless) int {
	h := g.hash
	if len(g.history) > 1 {
		h = g.history[1]
	} else if len(g.history) == 0 {
		return -1
	}
	return int(h/0x100000001b3) - 1
}

// rootBiased gives the root's moves the priors in prior and values every position after
// root move m at value[m] for the player at the root; elsewhere priors are uniform.
type rootBiased struct {
	prior, value []float32
}

func (e rootBiased) Evaluate(g Game, moves []Move, priors []float32, rng *rand.Rand) Evaluation {
	eg := g.(*endless)
	m := firstMove(eg)
	for i := range priors {
		priors[i] = 1
		if m < 0 {
			priors[i] = e.prior[i]
		}
	}
	if m < 0 {
		return Evaluation{}
	}
	v := e.value[m]
	if len(eg.history)%2 == 1 { // the opponent of the root's player is to move
		v = -v
	}
	return Evaluation{Value: v}
}

func TestFirstMove(t *testing.T) {
	g := &endless{width: 3}
	if firstMove(g) != -1 {
		t.Fatal("the root has a first move")
	}
	g.Play(2)
	g.Play(0)
	g.Play(1)
	if got := firstMove(g); got != 2 {
		t.Fatalf("firstMove after c a b = %d; want 2", got)
	}
}

// TestTimeManagerSettled: with nearly all the prior on one move and every value equal, the
// visits follow the priors, so the runner-up falls behind by about 0.96 of the playouts: it
// cannot catch up once more than about half of Time is gone, and the search stops then,
// settled, with the move a search to Time would also play.
func TestTimeManagerSettled(t *testing.T) {
	cfg := testConfig()
	cfg.MaxNodes = 1 << 21
	eval := func() Evaluator { return rootBiased{prior: []float32{0.98, 0.01, 0.01}, value: []float32{0, 0, 0}} }
	s := newSearcher(t, cfg, eval)
	res := search(t, s, &endless{width: 3}, Limits{Time: 200 * time.Millisecond, MaxTime: 600 * time.Millisecond})
	if res.Stop != StopSettled {
		t.Errorf("stop %v after %v; want settled", res.Stop, res.Elapsed)
	}
	if res.Best != 0 {
		t.Errorf("played %d; want 0, the move with the prior", res.Best)
	}
	checkTree(t, s, &endless{width: 3})
}

// TestTimeManagerRunsOn: with a huge exploration constant the visits follow the priors
// (0.6, 0.4) whatever the values, so the most visited move keeps the worse value while the
// other has two thirds of its visits: the move stays unsettled and the search runs past
// Time, to MaxTime or until the runner-up could no longer catch up before it.
func TestTimeManagerRunsOn(t *testing.T) {
	cfg := testConfig()
	cfg.MaxNodes = 1 << 21
	cfg.CPuct = 1000
	eval := func() Evaluator { return rootBiased{prior: []float32{0.6, 0.4}, value: []float32{-0.5, 0.5}} }
	s := newSearcher(t, cfg, eval)
	lim := Limits{Time: 40 * time.Millisecond, MaxTime: 120 * time.Millisecond}
	res := search(t, s, &endless{width: 2}, lim)
	if res.Stop != StopTime && res.Stop != StopSettled {
		t.Errorf("stop %v; want time or settled", res.Stop)
	}
	// The runner-up trails by a fifth of the playouts, so it can catch up until 5/6 of
	// MaxTime (100 ms), whatever the rate: the search must run well past Time.
	if res.Elapsed < 2*lim.Time {
		t.Errorf("stopped after %v, before twice Time %v, with the move unsettled", res.Elapsed, lim.Time)
	}

	// The same search without MaxTime stops at Time.
	s = newSearcher(t, cfg, eval)
	res = search(t, s, &endless{width: 2}, Limits{Time: lim.Time})
	if res.Stop != StopTime {
		t.Errorf("without MaxTime: stop %v; want time", res.Stop)
	}
}

func TestRootRace(t *testing.T) {
	cfg := testConfig()
	s := newSearcher(t, cfg, uniform)
	search(t, s, &endless{width: 4}, Limits{Playouts: 10})
	root := &s.pool.nodes[0]
	set := func(visits []uint32, q []float64) {
		for i := range visits {
			n := &s.pool.nodes[root.children+uint32(i)]
			n.counts.Store(uint64(visits[i]) << 32)
			n.valueSum.Store(int64(q[i] * valueScale * float64(visits[i])))
		}
	}
	for _, c := range []struct {
		visits      []uint32
		q           []float64
		top, second uint32
		unsettled   bool
		why         string
	}{
		{[]uint32{100, 30, 10, 5}, []float64{0.1, 0.2, 0, 0.5}, 100, 30, true, "30 visits are a fair share of 100 (a quarter is 25), and 0.2 beats 0.1"},
		{[]uint32{100, 24, 10, 5}, []float64{0.1, 0.2, 0, 0.5}, 100, 24, false, "24 visits are less than a quarter of 100; 5 visits at 0.5 do not count"},
		{[]uint32{30, 100, 25, 5}, []float64{0.3, 0.1, 0.1, 0.5}, 100, 30, true, "the top is the second child; the first has a fair share and a better value"},
		{[]uint32{30, 100, 25, 5}, []float64{0.1, 0.2, 0.2, 0.5}, 100, 30, false, "a tie is not better"},
	} {
		t.Run(c.why, func(t *testing.T) {
			set(c.visits, c.q)
			top, second, unsettled := s.rootRace()
			if top != c.top || second != c.second || unsettled != c.unsettled {
				t.Errorf("%v at %v: rootRace = %d, %d, %v; want %d, %d, %v (%s)",
					c.visits, c.q, top, second, unsettled, c.top, c.second, c.unsettled, c.why)
			}
		})
	}
}

func TestTimeManagerLimits(t *testing.T) {
	s := newSearcher(t, testConfig(), uniform)
	for _, c := range []struct {
		lim  Limits
		want string
	}{
		{Limits{Time: time.Second, MaxTime: -time.Second}, "negative limit"},
		{Limits{MaxTime: time.Second}, "max time 1s without a time to aim at"},
	} {
		t.Run(c.want, func(t *testing.T) {
			_, err := s.Search(context.Background(), &endless{width: 2}, c.lim)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Search with %+v: error %v; want %q", c.lim, err, c.want)
			}
		})
	}
}
