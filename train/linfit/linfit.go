// Package linfit fits the value weights of eval.Weights to examples: a Texel-style fit
// (after the tuning method of the chess engine Texel, Peter Österlund, 2014), which
// minimises the squared error between tanh(score/ValueScale) and the target over the
// pieces' values on the board and in hand, the king-safety weights, Threat and Tempo,
// with L-BFGS (gonum/optimize). ValueScale and the prior weights are kept.
//
// A tour:
//
//	w, res, err := linfit.Fit(set.Train, set.Held, eval.DefaultWeights(), 0.5)
//	fmt.Println(res.HeldBefore, res.HeldAfter) // held-out loss of the start and the fit
package linfit

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/shogilab/shogilab/engine/eval"
	ms "github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/train/data"
)

// The fitted parameters, in order: Board for the nine non-king kinds, Hand for the five
// kinds, KingEscape, KingZoneAttacked, Threat, Tempo.
var boardKinds = []ms.PieceType{ms.Pawn, ms.Silver, ms.Gold, ms.Bishop, ms.Rook, ms.Tokin, ms.ProSilver, ms.Horse, ms.Dragon}

const numParams = 9 + 5 + 4

// vector is one example's terms in parameter order (KingZoneAttacked's sign folded in).
type vector [numParams]float64

func toVector(t eval.Terms) vector {
	var v vector
	for i, pt := range boardKinds {
		v[i] = t.Board[pt]
	}
	for i := range 5 {
		v[9+i] = t.Hand[ms.Pawn+ms.PieceType(i)]
	}
	v[14], v[15], v[16], v[17] = t.Escape, -t.Attacked, t.Capture, 1
	return v
}

func params(w eval.Weights) []float64 {
	p := make([]float64, numParams)
	for i, pt := range boardKinds {
		p[i] = float64(w.Board[pt])
	}
	for i := range 5 {
		p[9+i] = float64(w.Hand[ms.Pawn+ms.PieceType(i)])
	}
	p[14], p[15], p[16], p[17] = float64(w.KingEscape), float64(w.KingZoneAttacked), float64(w.Threat), float64(w.Tempo)
	return p
}

func weights(base eval.Weights, p []float64) eval.Weights {
	w := base
	for i, pt := range boardKinds {
		w.Board[pt] = float32(p[i])
	}
	for i := range 5 {
		w.Hand[ms.Pawn+ms.PieceType(i)] = float32(p[9+i])
	}
	w.KingEscape, w.KingZoneAttacked, w.Threat, w.Tempo = float32(p[14]), float32(p[15]), float32(p[16]), float32(p[17])
	return w
}

// Report is what a fit did: Fit's of the value terms, FitPriors' of the priors.
type Report struct {
	// Train and Held count the examples fitted to and held out.
	Train int `json:"train"`
	Held  int `json:"held"`
	// TrainBefore and TrainAfter are the mean loss (Fit's squared error, FitPriors'
	// cross-entropy) with the starting weights and the
	// fitted ones; HeldBefore and HeldAfter the same on the held-out examples (NaN without
	// them, null in JSON).
	TrainBefore float64 `json:"train_before"`
	TrainAfter  float64 `json:"train_after"`
	HeldBefore  float64 `json:"held_before"`
	HeldAfter   float64 `json:"held_after"`
	Evaluations int     `json:"evaluations"` // loss evaluations L-BFGS made
}

type sample struct {
	v vector
	t float64
}

func samples(exs []data.Example, start eval.Weights, lambda float32) []sample {
	cfg := eval.DefaultConfig()
	cfg.Weights = start
	e := eval.New(cfg)
	out := make([]sample, len(exs))
	for i := range exs {
		out[i] = sample{toVector(e.ValueTerms(&exs[i].Pos)), float64(exs[i].Target(lambda))}
	}
	return out
}

// loss is the mean squared error of tanh(p·v/scale) and, if grad is not nil, its gradient.
func loss(p []float64, ss []sample, scale float64, grad []float64) float64 {
	clear(grad)
	var sum float64
	for i := range ss {
		var z float64
		for k, x := range ss[i].v {
			z += p[k] * x
		}
		y := math.Tanh(z / scale)
		d := y - ss[i].t
		sum += d * d
		if grad != nil {
			g := 2 * d * (1 - y*y) / scale
			for k, x := range ss[i].v {
				grad[k] += g * x
			}
		}
	}
	n := float64(len(ss))
	for k := range grad {
		grad[k] /= n
	}
	return sum / n
}

// Fit returns start with its value weights fitted to train at target λ·result +
// (1-λ)·root value, and the losses before and after on train and held.
func Fit(train, held []data.Example, start eval.Weights, lambda float32) (eval.Weights, Report, error) {
	if len(train) == 0 {
		return start, Report{}, errors.New("linfit: no training examples")
	}
	tr, he := samples(train, start, lambda), samples(held, start, lambda)
	scale := float64(start.ValueScale)
	res := Report{Train: len(tr), Held: len(he), HeldBefore: math.NaN(), HeldAfter: math.NaN()}
	p0 := params(start)
	res.TrainBefore = loss(p0, tr, scale, nil)
	if len(he) > 0 {
		res.HeldBefore = loss(p0, he, scale, nil)
	}
	// L-BFGS works on the weights in units of a pawn (100 centipawns), so that the
	// values and their gradients are of order one.
	const unit = 100
	x0 := make([]float64, len(p0))
	for i := range p0 {
		x0[i] = p0[i] / unit
	}
	p := make([]float64, len(p0))
	problem := optimize.Problem{
		Func: func(x []float64) float64 {
			for i := range x {
				p[i] = x[i] * unit
			}
			return loss(p, tr, scale, nil)
		},
		Grad: func(g, x []float64) {
			for i := range x {
				p[i] = x[i] * unit
			}
			loss(p, tr, scale, g)
			for i := range g {
				g[i] *= unit
			}
		},
	}
	settings := &optimize.Settings{GradientThreshold: 1e-10, MajorIterations: 1000,
		Converger: &optimize.FunctionConverge{Absolute: 1e-14, Relative: 1e-12, Iterations: 20}}
	r, err := optimize.Minimize(problem, x0, settings, &optimize.LBFGS{})
	if err != nil && r == nil {
		return start, res, fmt.Errorf("linfit: %w", err)
	}
	res.Evaluations = r.FuncEvaluations
	res.TrainAfter = r.F
	for i := range r.X {
		p[i] = r.X[i] * unit
	}
	if len(he) > 0 {
		res.HeldAfter = loss(p, he, scale, nil)
	}
	return weights(start, p), res, nil
}
