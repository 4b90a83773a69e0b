package mawaristats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/shogilab/shogilab/rules/mawari"
)

// Chain is the Markov chain of one player's piece racing alone: its states are the
// pieces a player can have before winning, and each turn moves it by one throw. Since no
// rule makes pieces interact, every player in a game runs an independent copy of it.
//
// States are found by exploring mawari.Rules.Advance from the start, so the chain states
// the same rules the simulator plays. Under exact-corner promotion only the distance to the
// next corner matters, so positions are reduced modulo 8; under per-lap promotion the
// position within the lap matters and all 32 are kept.
type Chain struct {
	rules  mawari.Rules
	states []mawari.Piece // transient states; states[0] is the start
	// steps lists, for each state, the transitions to other transient states.
	steps [][]transition
	// win is, for each state, the probability of winning on the next throw.
	win []float64
}

type transition struct {
	to          int
	probability float64
}

// NewChain builds the chain for rules r and landing probabilities p. It fails if the
// rules or probabilities are invalid, or if some reachable state can never win (then the
// expected number of turns is infinite).
func NewChain(r mawari.Rules, p mawari.Probabilities) (*Chain, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	moves := r.ThrowDistribution(p)
	c := &Chain{rules: r}
	index := make(map[mawari.Piece]int)
	add := func(pc mawari.Piece) int {
		pc = c.canonical(pc)
		i, ok := index[pc]
		if !ok {
			i = len(c.states)
			index[pc] = i
			c.states = append(c.states, pc)
			c.steps = append(c.steps, nil)
			c.win = append(c.win, 0)
		}
		return i
	}
	add(mawari.Piece{})
	for i := 0; i < len(c.states); i++ {
		next := make(map[int]float64)
		for _, m := range moves {
			pc, won := r.Advance(c.states[i], m.Move)
			if won {
				c.win[i] += m.Probability
				continue
			}
			next[add(pc)] += m.Probability
		}
		for to, prob := range next {
			c.steps[i] = append(c.steps[i], transition{to, prob})
		}
	}
	if err := c.checkWinReachable(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Chain) canonical(pc mawari.Piece) mawari.Piece {
	if c.rules.Promotion == mawari.ExactCorner {
		pc.Progress %= mawari.SquaresBetweenCorners
	}
	return pc
}

// checkWinReachable walks the transitions backwards from the states that can win at once.
func (c *Chain) checkWinReachable() error {
	into := make([][]int, len(c.states))
	for from, ts := range c.steps {
		for _, t := range ts {
			into[t.to] = append(into[t.to], from)
		}
	}
	canWin := make([]bool, len(c.states))
	var queue []int
	for i, w := range c.win {
		if w > 0 {
			canWin[i] = true
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, from := range into[i] {
			if !canWin[from] {
				canWin[from] = true
				queue = append(queue, from)
			}
		}
	}
	for i, ok := range canWin {
		if !ok {
			pc := c.states[i]
			return fmt.Errorf("mawaristats: a %s %d squares from its corner can never win under %v", pc.Rank(c.rules), pc.Progress, c.rules)
		}
	}
	return nil
}

// States is the number of transient states.
func (c *Chain) States() int { return len(c.states) }

// transientMatrix is I - Q, where Q holds the transient-to-transient probabilities.
func (c *Chain) transientMatrix() *mat.Dense {
	n := len(c.states)
	a := mat.NewDense(n, n, nil)
	for i, ts := range c.steps {
		a.Set(i, i, 1)
		for _, t := range ts {
			a.Set(i, t.to, a.At(i, t.to)-t.probability)
		}
	}
	return a
}

// Moments are the exact mean and variance of the number of turns one player needs to win.
//
// With Q the transient part of the transition matrix and N = (I-Q)^-1 its fundamental
// matrix, the expected turns from each state are m = N·1 and the variance is
// (2N - I)m - m∘m (Kemeny and Snell, Finite Markov Chains, 1960, theorem 3.3.5). Both come
// from solving (I-Q)x = b rather than inverting.
func (c *Chain) Moments() (mean, variance float64, err error) {
	a := c.transientMatrix()
	n := len(c.states)
	ones := mat.NewVecDense(n, nil)
	for i := range n {
		ones.SetVec(i, 1)
	}
	var lu mat.LU
	lu.Factorize(a)
	var m, nm mat.VecDense
	if err := lu.SolveVecTo(&m, false, ones); err != nil {
		return 0, 0, errors.New("mawaristats: the chain's fundamental matrix is singular: " + err.Error())
	}
	if err := lu.SolveVecTo(&nm, false, &m); err != nil {
		return 0, 0, errors.New("mawaristats: the chain's fundamental matrix is singular: " + err.Error())
	}
	mean = m.AtVec(0)
	variance = 2*nm.AtVec(0) - mean - mean*mean
	return mean, variance, nil
}

// Distribution is the distribution of a number of turns: PMF[t] is the probability of
// exactly t (PMF[0] is zero), and Tail is the probability of more than len(PMF)-1, left
// out because it is below the accuracy asked for.
type Distribution struct {
	PMF  []float64
	Tail float64
}

// DefaultTail is the probability mass a Distribution may leave out: below the rounding
// of the sums that use it.
const DefaultTail = 1e-13

// MaxTurns bounds TurnDistribution: with landing probabilities that leave a player stuck
// for millions of throws (such as 0.999999,0.000001,0,0,0), the distribution would take
// minutes and gigabytes to reach its tail; it is refused instead, after a second or two.
// The default estimates need 329 turns.
const MaxTurns = 1 << 20

// TurnDistribution is the exact distribution of the number of turns one player needs to
// win, computed by pushing the state distribution through the chain one throw at a time
// until less than tail of it is left. It is an error when more than tail is still left after
// MaxTurns turns.
func (c *Chain) TurnDistribution(tail float64) (Distribution, error) {
	if !(tail > 0) {
		panic("mawaristats: tail must be positive")
	}
	alive := make([]float64, len(c.states))
	next := make([]float64, len(c.states))
	alive[0] = 1
	pmf := []float64{0}
	left := 1.0
	for left >= tail {
		won := 0.0
		clear(next)
		for i, mass := range alive {
			if mass == 0 {
				continue
			}
			won += mass * c.win[i]
			for _, t := range c.steps[i] {
				next[t.to] += mass * t.probability
			}
		}
		alive, next = next, alive
		pmf = append(pmf, won)
		left = 0
		for _, mass := range alive {
			left += mass
		}
		if len(pmf) > MaxTurns && left >= tail {
			return Distribution{}, fmt.Errorf("mawaristats: after %d turns a player has still not won with probability %.3g: these landing probabilities leave a player stuck too long for the exact distribution (to a remaining %.0e); make the rare outcomes likelier", MaxTurns, left, tail)
		}
	}
	return Distribution{PMF: pmf, Tail: left}, nil
}

// Survival is P(T > t).
func (d Distribution) Survival(t int) float64 {
	if t < 0 {
		return 1
	}
	if t >= len(d.PMF) {
		return d.Tail
	}
	s := d.Tail
	for _, p := range d.PMF[t+1:] {
		s += p
	}
	return s
}

// CDF is P(T <= t).
func (d Distribution) CDF(t int) float64 { return 1 - d.Survival(t) }

// Mean is the mean over the computed part of the distribution.
func (d Distribution) Mean() float64 {
	m := 0.0
	for t, p := range d.PMF {
		m += float64(t) * p
	}
	return m
}

// Quantile is the smallest t with P(T <= t) >= q.
func (d Distribution) Quantile(q float64) int {
	if !(q >= 0 && q <= 1) {
		panic(fmt.Sprintf("mawaristats: quantile %v outside [0, 1]", q))
	}
	cum := 0.0
	for t, p := range d.PMF {
		cum += p
		if cum >= q {
			return t
		}
	}
	return len(d.PMF) // only the left-out tail remains
}

// Race combines the turn distributions of independent players throwing in seat order,
// seat 0 first, each needing T turns to win with the distribution d. Seat i wins in round
// t when its own T equals t, the seats before it need more than t turns and the seats after
// it more than t-1:
//
//	P(seat i wins in round t) = f(t) · S(t)^i · S(t-1)^(n-1-i)
//
// with f the PMF and S the survival function of d. The same terms give the game's length.
type Race struct {
	// WinProbability has one entry per seat, in turn order.
	WinProbability []float64
	// Rounds is the distribution of the round in which the game ends.
	Rounds Distribution
	// MeanThrows is the expected number of throws of the whole game.
	MeanThrows float64
}

// NewRace computes the race of players independent players.
func NewRace(d Distribution, players int) Race {
	if players < 1 {
		panic("mawaristats: a race needs a player")
	}
	race := Race{WinProbability: make([]float64, players)}
	race.Rounds.PMF = make([]float64, len(d.PMF))
	survival := make([]float64, len(d.PMF)) // survival[t] = S(t)
	s := 1.0
	for t := range d.PMF {
		s -= d.PMF[t]
		survival[t] = max(s, 0)
	}
	prev := 1.0 // S(t-1)
	for t := 1; t < len(d.PMF); t++ {
		for seat := range players {
			term := d.PMF[t] * math.Pow(survival[t], float64(seat)) * math.Pow(prev, float64(players-1-seat))
			race.WinProbability[seat] += term
			race.Rounds.PMF[t] += term
			race.MeanThrows += term * float64((t-1)*players+seat+1)
		}
		prev = survival[t]
	}
	// The rounds left out are those where every player is still racing.
	race.Rounds.Tail = math.Pow(d.Tail, float64(players))
	return race
}
