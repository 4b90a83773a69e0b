package linfit

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/shogilab/shogilab/engine/eval"
	"github.com/shogilab/shogilab/train/data"
)

// policySample is one searched position: its moves' prior terms and visit shares.
type policySample struct {
	terms []eval.PriorTerms
	share []float32
}

func policySamples(exs []data.PolicyExample, start eval.Weights) []policySample {
	cfg := eval.DefaultConfig()
	cfg.Weights = start
	e := eval.New(cfg)
	out := make([]policySample, len(exs))
	for i := range exs {
		t := make([]eval.PriorTerms, len(exs[i].Moves))
		e.MovePriorTerms(&exs[i].Pos, exs[i].Moves, t)
		out[i] = policySample{terms: t, share: exs[i].Share}
	}
	return out
}

// crossEntropy is the mean over ss of -Σ share·log softmax(terms·w), the priors as the
// search forms them (each move's prior ∝ e^(terms·w)), and, if grad is not nil, its
// gradient Σ (softmax - share)·terms.
func crossEntropy(w []float64, ss []policySample, grad []float64) float64 {
	clear(grad)
	var sum float64
	var z []float64
	for _, s := range ss {
		z = z[:0]
		hi := math.Inf(-1)
		for _, t := range s.terms {
			var x float64
			for k, v := range t {
				x += float64(v) * w[k]
			}
			z = append(z, x)
			hi = math.Max(hi, x)
		}
		var norm float64
		for _, x := range z {
			norm += math.Exp(x - hi)
		}
		logNorm := hi + math.Log(norm)
		for i, x := range z {
			q := float64(s.share[i])
			if q > 0 {
				sum -= q * (x - logNorm)
			}
			if grad != nil {
				d := math.Exp(x-logNorm) - q
				for k, v := range s.terms[i] {
					grad[k] += d * float64(v)
				}
			}
		}
	}
	n := float64(len(ss))
	for k := range grad {
		grad[k] /= n
	}
	return sum / n
}

// FitPriors returns start with its prior weights (eval.PriorTerms' order) fitted to the
// visit shares of train by the cross-entropy of the priors the search would form, with
// L-BFGS: the policy from move features. The Board values that some terms use, and every
// other weight, are kept.
func FitPriors(train, held []data.PolicyExample, start eval.Weights) (eval.Weights, Report, error) {
	if len(train) == 0 {
		return start, Report{}, errors.New("linfit: no searched positions to fit the priors to")
	}
	tr, he := policySamples(train, start), policySamples(held, start)
	res := Report{Train: len(tr), Held: len(he), HeldBefore: math.NaN(), HeldAfter: math.NaN()}
	v := start.PriorVector()
	x0 := make([]float64, len(v))
	for k := range v {
		x0[k] = float64(v[k])
	}
	res.TrainBefore = crossEntropy(x0, tr, nil)
	if len(he) > 0 {
		res.HeldBefore = crossEntropy(x0, he, nil)
	}
	problem := optimize.Problem{
		Func: func(x []float64) float64 { return crossEntropy(x, tr, nil) },
		Grad: func(g, x []float64) { crossEntropy(x, tr, g) },
	}
	settings := &optimize.Settings{GradientThreshold: 1e-9, MajorIterations: 500,
		Converger: &optimize.FunctionConverge{Absolute: 1e-12, Relative: 1e-10, Iterations: 20}}
	r, err := optimize.Minimize(problem, x0, settings, &optimize.LBFGS{})
	if err != nil && r == nil {
		return start, res, fmt.Errorf("linfit: priors: %w", err)
	}
	res.Evaluations = r.FuncEvaluations
	res.TrainAfter = r.F
	if len(he) > 0 {
		res.HeldAfter = crossEntropy(r.X, he, nil)
	}
	w := start
	for k := range v {
		v[k] = float32(r.X[k])
	}
	w.SetPriorVector(v)
	return w, res, nil
}
