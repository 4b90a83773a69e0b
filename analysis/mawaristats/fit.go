package mawaristats

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/shogilab/shogilab/rules/mawari"
)

// CountKind says what was counted.
type CountKind string

const (
	// OutcomeCounts are counts of how single pieces landed.
	OutcomeCounts CountKind = "outcome"
	// ScoreCounts are counts of throws by their score (a mawari.Move.Key: "12", "jump").
	ScoreCounts CountKind = "score"
)

// Counts are observations to estimate the landing probabilities from.
type Counts struct {
	Kind     CountKind
	Outcomes [mawari.NumOutcomes]int // when Kind is OutcomeCounts
	Scores   map[string]int          // when Kind is ScoreCounts
}

// Total is the number of observations.
func (c Counts) Total() int {
	n := 0
	for _, v := range c.Outcomes {
		n += v
	}
	for _, v := range c.Scores {
		n += v
	}
	return n
}

// ReadCounts reads a CSV file of counts. Its header names the kind, "outcome,count" or
// "score,count"; each further row is an outcome name (back, face, side, upright, point) or
// a throw score ("12", or "jump" under the all-backs jump), and how often it was seen:
//
//	outcome,count
//	back,90
//	face,88
//	side,17
//
// Outcomes not listed count zero. name is used in error messages.
func ReadCounts(r io.Reader, name string) (Counts, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 2
	cr.TrimLeadingSpace = true
	cr.Comment = '#'
	fail := func(line int, format string, args ...any) (Counts, error) {
		return Counts{}, fmt.Errorf("mawaristats: %s line %d: %s", name, line, fmt.Sprintf(format, args...))
	}
	header, err := cr.Read()
	if err == io.EOF {
		return Counts{}, fmt.Errorf("mawaristats: %s is empty; want a header outcome,count or score,count", name)
	}
	if err != nil {
		return Counts{}, csvError(name, err)
	}
	line, _ := cr.FieldPos(0)
	var c Counts
	switch kind := CountKind(strings.ToLower(strings.TrimSpace(header[0]))); {
	case kind != OutcomeCounts && kind != ScoreCounts:
		return fail(line, "header %q; want outcome,count or score,count", strings.Join(header, ","))
	case strings.ToLower(strings.TrimSpace(header[1])) != "count":
		return fail(line, "second column %q; want count", header[1])
	default:
		c.Kind = kind
	}
	if c.Kind == ScoreCounts {
		c.Scores = make(map[string]int)
	}
	seen := make(map[string]bool)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Counts{}, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		key := strings.ToLower(strings.TrimSpace(rec[0]))
		n, err := strconv.Atoi(strings.TrimSpace(rec[1]))
		if err != nil || n < 0 {
			return fail(line, "count %q is not a non-negative integer", rec[1])
		}
		if seen[key] {
			return fail(line, "%s %q listed twice", c.Kind, key)
		}
		seen[key] = true
		if c.Kind == OutcomeCounts {
			o, err := mawari.ParseOutcome(key)
			if err != nil {
				return fail(line, "unknown outcome %q (want back, face, side, upright or point)", rec[0])
			}
			c.Outcomes[o] = n
			continue
		}
		if _, err := strconv.Atoi(key); err != nil && key != "jump" {
			return fail(line, "score %q is not an integer or jump", rec[0])
		}
		c.Scores[key] = n
	}
	if c.Total() == 0 {
		return Counts{}, fmt.Errorf("mawaristats: %s has no observations", name)
	}
	return c, nil
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("mawaristats: %s line %d: %v", name, pe.Line, pe.Err)
	}
	return fmt.Errorf("mawaristats: %s: %v", name, err)
}

// Estimate is one landing probability with its confidence interval.
type Estimate struct {
	Outcome      mawari.Outcome
	P            float64
	Lower, Upper float64
}

// Fit is the maximum-likelihood estimate of the landing probabilities.
type Fit struct {
	Kind          CountKind
	Observations  int
	Level         float64 // confidence level of the intervals
	Estimates     [mawari.NumOutcomes]Estimate
	LogLikelihood float64
}

// Probabilities are the point estimates.
func (f Fit) Probabilities() mawari.Probabilities {
	var p mawari.Probabilities
	for i, e := range f.Estimates {
		p[i] = e.P
	}
	return p
}

// FitCounts estimates the landing probabilities by maximum likelihood, with
// profile-likelihood confidence intervals at the given level (Wilks' theorem: the
// interval holds the values c of one probability where twice the drop of the profile
// log-likelihood is below the chi-square(1) quantile; Venzon and Moolgavkar 1988). Unlike
// Wald intervals they stay inside [0, 1] and do not collapse to a point for an outcome
// never seen, which matters for the rare point landing.
//
// Outcome counts are multinomial: the estimate is the observed share and the profile has a
// closed form. Throw scores are modelled by the exact throw distribution under r (so
// scores reachable two ways, such as 8 under the standard rules, are handled); the
// likelihood is maximized with gonum/optimize over a softmax parameterization of the
// probabilities. r is used only for score counts.
func FitCounts(c Counts, r mawari.Rules, level float64) (Fit, error) {
	if !(level > 0 && level < 1) {
		return Fit{}, fmt.Errorf("mawaristats: confidence level %v; want a number in (0, 1)", level)
	}
	if c.Total() == 0 {
		return Fit{}, errors.New("mawaristats: no observations to fit")
	}
	var m model
	switch c.Kind {
	case OutcomeCounts:
		m = outcomeModel{c.Outcomes}
	case ScoreCounts:
		if err := r.Validate(); err != nil {
			return Fit{}, err
		}
		if err := checkScoresPossible(c.Scores, r); err != nil {
			return Fit{}, err
		}
		m = newScoreModel(c.Scores, r)
	default:
		return Fit{}, fmt.Errorf("mawaristats: unknown kind of counts %q", c.Kind)
	}
	best, bestLL := m.maximize()
	critical := distuv.ChiSquared{K: 1}.Quantile(level)
	fit := Fit{Kind: c.Kind, Observations: c.Total(), Level: level, LogLikelihood: bestLL}
	for o := range mawari.NumOutcomes {
		// inside reports whether c is in the confidence set of outcome o.
		inside := func(v float64) bool { return 2*(bestLL-m.profile(mawari.Outcome(o), v, best)) <= critical }
		fit.Estimates[o] = Estimate{
			Outcome: mawari.Outcome(o),
			P:       best[o],
			Lower:   boundary(inside, best[o], 0),
			Upper:   boundary(inside, best[o], 1),
		}
	}
	return fit, nil
}

// boundary finds by bisection where inside turns false between in (inside) and end.
func boundary(inside func(float64) bool, in, end float64) float64 {
	if inside(end) {
		return end
	}
	out := end
	// 30 halvings take the bracket below 1e-9, finer than any interval is reported.
	for range 30 {
		mid := (in + out) / 2
		if inside(mid) {
			in = mid
		} else {
			out = mid
		}
	}
	return in
}

// model is a log-likelihood of the landing probabilities.
type model interface {
	// maximize returns the maximum-likelihood probabilities and the log-likelihood there.
	maximize() (mawari.Probabilities, float64)
	// profile is the largest log-likelihood with probability c for outcome o; near is a
	// good starting point.
	profile(o mawari.Outcome, c float64, near mawari.Probabilities) float64
}

type outcomeModel struct{ counts [mawari.NumOutcomes]int }

func (m outcomeModel) maximize() (mawari.Probabilities, float64) {
	var p mawari.Probabilities
	total := 0
	for _, n := range m.counts {
		total += n
	}
	for o, n := range m.counts {
		p[o] = float64(n) / float64(total)
	}
	return p, m.logLikelihood(p)
}

// profile: with p_o fixed at c, the other probabilities that maximize the likelihood keep
// their observed proportions and share 1-c.
func (m outcomeModel) profile(o mawari.Outcome, c float64, _ mawari.Probabilities) float64 {
	rest := 0
	for i, n := range m.counts {
		if i != int(o) {
			rest += n
		}
	}
	var p mawari.Probabilities
	for i, n := range m.counts {
		if i == int(o) {
			p[i] = c
		} else if rest > 0 {
			p[i] = (1 - c) * float64(n) / float64(rest)
		}
	}
	return m.logLikelihood(p)
}

func (m outcomeModel) logLikelihood(p mawari.Probabilities) float64 {
	ll := 0.0
	for o, n := range m.counts {
		if n > 0 {
			ll += float64(n) * math.Log(p[o])
		}
	}
	return ll
}

// scoreModel is the likelihood of throw scores. It keeps the throw distribution as its
// polynomial terms, each tied to the observed score it produces, since the optimizer
// evaluates it thousands of times.
type scoreModel struct {
	terms  []scoreTerm
	counts []float64 // counts[k] observations of the k-th observed score
	spoil  float64
}

type scoreTerm struct {
	mawari.ThrowTerm
	clean, spoiled int // index into counts, or -1 for a score not observed
}

func newScoreModel(scores map[string]int, r mawari.Rules) scoreModel {
	m := scoreModel{spoil: r.Spoil}
	index := make(map[string]int)
	for k, n := range scores {
		if n > 0 {
			index[k] = len(m.counts)
			m.counts = append(m.counts, float64(n))
		}
	}
	lookup := func(mv mawari.Move) int {
		if i, ok := index[mv.Key()]; ok {
			return i
		}
		return -1
	}
	for _, t := range r.ThrowTerms() {
		m.terms = append(m.terms, scoreTerm{t, lookup(t.Clean), lookup(t.Spoiled)})
	}
	return m
}

func (m scoreModel) logLikelihood(p mawari.Probabilities) float64 {
	pmf := make([]float64, len(m.counts))
	for _, t := range m.terms {
		prob := t.Probability(p)
		if t.clean >= 0 {
			pmf[t.clean] += prob * (1 - m.spoil)
		}
		if t.spoiled >= 0 {
			pmf[t.spoiled] += prob * m.spoil
		}
	}
	ll := 0.0
	for k, n := range m.counts {
		ll += n * math.Log(pmf[k])
	}
	return ll
}

func (m scoreModel) maximize() (mawari.Probabilities, float64) {
	var best mawari.Probabilities
	bestLL := math.Inf(-1)
	// Two starts, the uniform and the estimates of docs/rules.md, guard against a poor local optimum.
	for _, start := range []mawari.Probabilities{{0.2, 0.2, 0.2, 0.2, 0.2}, mawari.DefaultProbabilities()} {
		p, ll := m.maximizeOver(allOutcomes, 1, start)
		if ll > bestLL {
			best, bestLL = p, ll
		}
	}
	return best, bestLL
}

func (m scoreModel) profile(o mawari.Outcome, c float64, near mawari.Probabilities) float64 {
	var free []mawari.Outcome
	for _, f := range allOutcomes {
		if f != o {
			free = append(free, f)
		}
	}
	near[o] = c
	_, ll := m.maximizeOver(free, 1-c, near)
	return ll
}

var allOutcomes = []mawari.Outcome{mawari.Back, mawari.Face, mawari.Side, mawari.Upright, mawari.Point}

// probabilityFloor keeps starting points off zero, where the softmax coordinate is -Inf.
const probabilityFloor = 1e-9

// maximizeOver maximizes the likelihood over the probabilities of the outcomes free, which
// share mass, the others staying as in start. The free probabilities are mass·softmax(0, x).
func (m scoreModel) maximizeOver(free []mawari.Outcome, mass float64, start mawari.Probabilities) (mawari.Probabilities, float64) {
	toProbs := func(x []float64) mawari.Probabilities {
		p := start
		top := 0.0
		for _, v := range x {
			top = max(top, v)
		}
		weights := make([]float64, len(free))
		sum := 0.0
		for i := range free {
			w := math.Exp(-top)
			if i > 0 {
				w = math.Exp(x[i-1] - top)
			}
			weights[i] = w
			sum += w
		}
		for i, o := range free {
			p[o] = mass * weights[i] / sum
		}
		return p
	}
	if len(free) == 1 {
		p := toProbs(nil)
		return p, m.logLikelihood(p)
	}
	x0 := make([]float64, len(free)-1)
	for i := range x0 {
		x0[i] = math.Log(max(start[free[i+1]], probabilityFloor) / max(start[free[0]], probabilityFloor))
	}
	problem := optimize.Problem{Func: func(x []float64) float64 {
		ll := m.logLikelihood(toProbs(x))
		if math.IsNaN(ll) || math.IsInf(ll, -1) {
			return math.MaxFloat64
		}
		return -ll
	}}
	// The log-likelihood needs no more than 1e-9 absolute accuracy: the intervals compare
	// it with a chi-square quantile of order one.
	settings := &optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-9, Iterations: 20}}
	res, err := optimize.Minimize(problem, x0, settings, &optimize.NelderMead{})
	if err != nil && res == nil {
		p := toProbs(x0)
		return p, m.logLikelihood(p)
	}
	p := toProbs(res.X)
	return p, m.logLikelihood(p)
}

// checkScoresPossible rejects observed scores that no landing of four pieces gives.
func checkScoresPossible(scores map[string]int, r mawari.Rules) error {
	possible := make(map[string]bool)
	for _, e := range r.ThrowDistribution(mawari.Probabilities{0.2, 0.2, 0.2, 0.2, 0.2}) {
		possible[e.Move.Key()] = true
	}
	for k, n := range scores {
		if n > 0 && !possible[k] {
			return fmt.Errorf("mawaristats: score %s cannot be thrown under %v", k, r)
		}
	}
	return nil
}
