package score

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/shogilab/shogilab/record"
)

// Z95 is the standard normal quantile at 0.975, which makes a two-sided 95%
// interval.
var Z95 = distuv.UnitNormal.Quantile(0.975)

// Wilson returns the Wilson score interval (Wilson, "Probable inference, the
// law of succession, and statistical inference", JASA 22, 1927) for a
// proportion p observed in n trials, at normal quantile z:
//
//	(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)
//
// With n = 0 nothing is known and the interval is [0, 1]. It panics if p is
// outside [0, 1] or n is negative: both are the caller's arithmetic.
func Wilson(p float64, n int, z float64) (low, high float64) {
	if n < 0 || !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("score: Wilson(%v, %d): need 0 <= p <= 1 and n >= 0", p, n))
	}
	if n == 0 {
		return 0, 1
	}
	nf := float64(n)
	z2 := z * z
	centre := p + z2/(2*nf)
	half := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	den := 1 + z2/nf
	low, high = math.Max(0, (centre-half)/den), math.Min(1, (centre+half)/den)
	// At p = 0 (or 1) the lower (upper) bound is exactly 0 (1); rounding
	// must not make it 1e-17 (or 1 - 1e-16).
	if p == 0 {
		low = 0
	}
	if p == 1 {
		high = 1
	}
	return low, high
}

// Tally counts results from Sente's side.
type Tally struct {
	SenteWins int `json:"sente_wins"`
	GoteWins  int `json:"gote_wins"`
	Draws     int `json:"draws"`
}

// Add counts one result. It panics on a result that is not sente, gote or
// draw: records are validated when read.
func (t *Tally) Add(r record.Result) {
	switch r {
	case record.Sente:
		t.SenteWins++
	case record.Gote:
		t.GoteWins++
	case record.Draw:
		t.Draws++
	default:
		panic(fmt.Sprintf("score: result %q is not sente, gote or draw", r))
	}
}

// Merge adds u's counts to t.
func (t *Tally) Merge(u Tally) {
	t.SenteWins += u.SenteWins
	t.GoteWins += u.GoteWins
	t.Draws += u.Draws
}

// Games is the number of results counted.
func (t Tally) Games() int { return t.SenteWins + t.GoteWins + t.Draws }

// Score is Sente's points per game, a draw counting half; NaN with no games.
func (t Tally) Score() float64 {
	if t.Games() == 0 {
		return math.NaN()
	}
	return (float64(t.SenteWins) + float64(t.Draws)/2) / float64(t.Games())
}

// Interval is the 95% Wilson interval of Score ([0, 1] with no games).
func (t Tally) Interval() (low, high float64) {
	s := t.Score()
	if t.Games() == 0 {
		s = 0
	}
	return Wilson(s, t.Games(), Z95)
}

// Share is count/Games with its 95% Wilson interval, for the rate of one
// outcome (Sente wins, draws, a termination). It panics if count is not
// between 0 and Games.
func (t Tally) Share(count int) (share, low, high float64) {
	n := t.Games()
	if count < 0 || count > n {
		panic(fmt.Sprintf("score: share of %d in %d games", count, n))
	}
	if n == 0 {
		return math.NaN(), 0, 1
	}
	share = float64(count) / float64(n)
	low, high = Wilson(share, n, Z95)
	return share, low, high
}

// Elo is the rating difference that an expected score s implies under the
// logistic model of Elo ratings, -400·log10(1/s - 1): the inverse of
// Expected, and for two players the difference that package ratings' half-point
// model fits. It is -Inf at s = 0 and +Inf at s = 1, and panics outside
// [0, 1].
func Elo(s float64) float64 {
	switch {
	case !(s >= 0 && s <= 1):
		panic(fmt.Sprintf("score: Elo(%v): a score is within [0, 1]", s))
	case s == 0:
		return math.Inf(-1)
	case s == 1:
		return math.Inf(1)
	}
	return -400*math.Log10(1/s-1) + 0 // + 0 turns -0 into 0
}

// Expected is the expected score of a player rated elo above its opponent
// under the logistic model, 1/(1 + 10^(-elo/400)).
func Expected(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }
