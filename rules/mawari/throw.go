package mawari

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Outcome is the way one thrown gold general lands (docs/rules.md#mawari-throw).
type Outcome uint8

const (
	Back    Outcome = iota // blank side up: 0 points
	Face                   // 金将 visible: 1 point
	Side                   // lying on a long side edge: 5 points
	Upright                // standing on its base: 10 points
	Point                  // standing on its tip: 20 points, or a variant's score

	NumOutcomes = 5
)

// PiecesPerThrow is the number of gold generals thrown at once.
const PiecesPerThrow = 4

var outcomeNames = [NumOutcomes]string{"back", "face", "side", "upright", "point"}

func (o Outcome) String() string {
	if int(o) < NumOutcomes {
		return outcomeNames[o]
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// ParseOutcome reads an outcome name as String writes it.
func ParseOutcome(s string) (Outcome, error) {
	for i, name := range outcomeNames {
		if strings.EqualFold(strings.TrimSpace(s), name) {
			return Outcome(i), nil
		}
	}
	return 0, fmt.Errorf("mawari: unknown outcome %q (want one of %s)", s, strings.Join(outcomeNames[:], ", "))
}

// Probabilities are the chances that one thrown piece lands each way, indexed by Outcome.
type Probabilities [NumOutcomes]float64

// DefaultProbabilitiesSource labels DefaultProbabilities wherever they are shown: they are
// informal estimates, not measurements.
const DefaultProbabilitiesSource = "estimate (docs/rules.md defaults)"

// DefaultProbabilities returns the estimates of docs/rules.md#mawari-probabilities: back 0.45, face 0.45,
// side 0.085, upright 0.012, point 0.003. They are estimates from an informal 200-throw
// count (one flat outcome about 90 times, the side outcome about 17 times); label them with
// DefaultProbabilitiesSource.
func DefaultProbabilities() Probabilities {
	return Probabilities{Back: 0.45, Face: 0.45, Side: 0.085, Upright: 0.012, Point: 0.003}
}

// probabilityTolerance is how far from one the sum of user-given probabilities may be:
// enough for decimals typed by hand with three or four digits, too little to hide a typo.
const probabilityTolerance = 1e-6

// Validate reports whether p is a probability distribution: no negative or non-finite
// entry, and a sum within 1e-6 of one.
func (p Probabilities) Validate() error {
	sum := 0.0
	for o, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("mawari: probability of %s is %v; want a number in [0, 1]", Outcome(o), v)
		}
		sum += v
	}
	if math.Abs(sum-1) > probabilityTolerance {
		return fmt.Errorf("mawari: probabilities sum to %v; want 1", sum)
	}
	return nil
}

// ParseProbabilities reads "back,face,side,upright,point", for example
// "0.45,0.45,0.085,0.012,0.003", and validates the result.
func ParseProbabilities(s string) (Probabilities, error) {
	var p Probabilities
	fields := strings.Split(s, ",")
	if len(fields) != NumOutcomes {
		return p, fmt.Errorf("mawari: probabilities %q have %d fields; want 5 (back,face,side,upright,point)", s, len(fields))
	}
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return p, fmt.Errorf("mawari: probability of %s: %q is not a number", Outcome(i), f)
		}
		p[i] = v
	}
	return p, p.Validate()
}

func (p Probabilities) String() string {
	parts := make([]string, NumOutcomes)
	for i, v := range p {
		parts[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// Throw is what happened when four pieces were thrown.
type Throw struct {
	Faces [PiecesPerThrow]Outcome
	// Spoiled is set when a piece left the board or landed on another.
	Spoiled bool
}

// Move is the effect of a throw on the thrower's piece.
type Move struct {
	// Steps is how many squares the piece moves counter-clockwise; negative moves it back.
	Steps int
	// ToNextCorner is set when the throw sends the piece to the next corner ahead (the
	// all-backs jump variant); Steps is then zero.
	ToNextCorner bool
}

// Key names a move for tables and JSON: the score ("12", "-5") or "jump".
func (m Move) Key() string {
	if m.ToNextCorner {
		return "jump"
	}
	return strconv.Itoa(m.Steps)
}

func (m Move) String() string { return m.Key() }

// Score is the points one piece scores when it lands as o under r.
func (r Rules) Score(o Outcome) int {
	switch o {
	case Back:
		return 0
	case Face:
		return 1
	case Side:
		return 5
	case Upright:
		return 10
	case Point:
		return r.PointScore
	}
	panic("mawari: invalid outcome " + o.String())
}

// MoveOf is the move a throw gives under r. A spoiled throw does not move the piece, or
// with SpoilBack moves it back by the sum of its four pieces (the all-backs rule is for a
// clean throw of four on the board, so it does not apply). Four backs score AllBacksScore
// or, with AllBacksJump, send the piece to the next corner.
func (r Rules) MoveOf(t Throw) Move {
	sum := 0
	allBacks := true
	for _, o := range t.Faces {
		sum += r.Score(o)
		allBacks = allBacks && o == Back
	}
	switch {
	case t.Spoiled && r.SpoilBack:
		return Move{Steps: -sum}
	case t.Spoiled:
		return Move{}
	case allBacks && r.AllBacksJump:
		return Move{ToNextCorner: true}
	case allBacks:
		return Move{Steps: r.AllBacksScore}
	}
	return Move{Steps: sum}
}

// MoveProbability is one entry of a throw's distribution.
type MoveProbability struct {
	Move        Move
	Probability float64
}

// ThrowDistribution is the exact distribution of a throw's move under r when each piece
// lands independently with probabilities p. Entries are sorted by move (backward moves
// first, the corner jump last) and have positive probability; their sum is one.
func (r Rules) ThrowDistribution(p Probabilities) []MoveProbability {
	acc := make(map[Move]float64)
	for _, term := range r.ThrowTerms() {
		prob := term.Probability(p)
		acc[term.Clean] += prob * (1 - r.Spoil)
		acc[term.Spoiled] += prob * r.Spoil
	}
	dist := make([]MoveProbability, 0, len(acc))
	for m, prob := range acc {
		if prob > 0 {
			dist = append(dist, MoveProbability{m, prob})
		}
	}
	sort.Slice(dist, func(i, j int) bool { return moveLess(dist[i].Move, dist[j].Move) })
	return dist
}

// ThrowTerm is one way four pieces can land, up to their order: Counts[o] pieces landed as
// o. Its probability is Coefficient·Πp_o^Counts[o], the multinomial law with Coefficient
// 4!/(Counts[0]!…Counts[4]!).
type ThrowTerm struct {
	Counts      [NumOutcomes]int
	Coefficient float64
	// Clean and Spoiled are the moves when the throw is clean and when it is spoiled.
	Clean, Spoiled Move
}

// Probability is the chance of the term's landing with probabilities p.
func (t ThrowTerm) Probability(p Probabilities) float64 {
	prob := t.Coefficient
	for o, n := range t.Counts {
		for range n {
			prob *= p[o]
		}
	}
	return prob
}

// ThrowTerms lists the 70 ways to split four pieces among five outcomes, with their moves
// under r: the throw distribution as a polynomial in the landing probabilities, for
// likelihoods that evaluate it many times.
func (r Rules) ThrowTerms() []ThrowTerm {
	var terms []ThrowTerm
	forEachComposition(func(counts [NumOutcomes]int) {
		t := throwWithCounts(counts)
		term := ThrowTerm{Counts: counts, Coefficient: factorial[PiecesPerThrow], Clean: r.MoveOf(t)}
		for _, n := range counts {
			term.Coefficient /= factorial[n]
		}
		t.Spoiled = true
		term.Spoiled = r.MoveOf(t)
		terms = append(terms, term)
	})
	return terms
}

func moveLess(a, b Move) bool {
	if a.ToNextCorner != b.ToNextCorner {
		return b.ToNextCorner
	}
	return a.Steps < b.Steps
}

// forEachComposition calls f with every way to write PiecesPerThrow as an ordered sum of
// NumOutcomes non-negative counts.
func forEachComposition(f func([NumOutcomes]int)) {
	var counts [NumOutcomes]int
	var place func(outcome, left int)
	place = func(outcome, left int) {
		if outcome == NumOutcomes-1 {
			counts[outcome] = left
			f(counts)
			return
		}
		for n := 0; n <= left; n++ {
			counts[outcome] = n
			place(outcome+1, left-n)
		}
	}
	place(0, PiecesPerThrow)
}

var factorial = [PiecesPerThrow + 1]float64{1, 1, 2, 6, 24}

func throwWithCounts(counts [NumOutcomes]int) Throw {
	var t Throw
	i := 0
	for o, n := range counts {
		for ; n > 0; n-- {
			t.Faces[i] = Outcome(o)
			i++
		}
	}
	return t
}

// Thrower draws throws. It holds the cumulative landing probabilities so that each draw is
// a few comparisons; make one per goroutine, since the random source is not safe for
// concurrent use.
type Thrower struct {
	cumulative [NumOutcomes]float64
	spoil      float64
	rng        *rand.Rand
}

// NewThrower returns a Thrower for the landing probabilities p and spoil probability
// spoil, drawing from rng. It panics if p is not a distribution (a programmer error:
// validate user input with Probabilities.Validate first).
func NewThrower(p Probabilities, spoil float64, rng *rand.Rand) *Thrower {
	if err := p.Validate(); err != nil {
		panic(err)
	}
	th := &Thrower{spoil: spoil, rng: rng}
	sum := 0.0
	for o, v := range p {
		sum += v
		th.cumulative[o] = sum
	}
	// Rounding must not leave a sliver above the last possible outcome, which would let an
	// impossible one be drawn.
	for o := NumOutcomes - 1; o >= 0; o-- {
		th.cumulative[o] = math.Inf(1)
		if p[o] > 0 {
			break
		}
	}
	return th
}

// Throw draws one throw: four independent landings, then whether it was spoiled.
func (th *Thrower) Throw() Throw {
	var t Throw
	for i := range t.Faces {
		u := th.rng.Float64()
		o := 0
		for u >= th.cumulative[o] {
			o++
		}
		t.Faces[i] = Outcome(o)
	}
	t.Spoiled = th.spoil > 0 && th.rng.Float64() < th.spoil
	return t
}
