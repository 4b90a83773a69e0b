package linfit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/engine/eval"
	ms "github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/train/data"
)

// plantedPolicy returns positions of random games whose visit shares are the softmax of
// the prior terms (computed here, from the terms) times planted weights.
func plantedPolicy(t *testing.T, planted [eval.NumPriorTerms]float64, n int) []data.PolicyExample {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	e := eval.New(eval.DefaultConfig())
	var exs []data.PolicyExample
	for len(exs) < n {
		pos := ms.StartPosition()
		for ply := 0; ply < 40 && len(exs) < n; ply++ {
			moves := pos.LegalMoves(nil)
			if len(moves) < 2 {
				break
			}
			terms := make([]eval.PriorTerms, len(moves))
			e.MovePriorTerms(&pos, moves, terms)
			z := make([]float64, len(moves))
			var norm float64
			for i := range moves {
				for k, v := range terms[i] {
					z[i] += float64(v) * planted[k]
				}
				z[i] = math.Exp(z[i])
				norm += z[i]
			}
			share := make([]float32, len(moves))
			for i := range z {
				share[i] = float32(z[i] / norm)
			}
			exs = append(exs, data.PolicyExample{Pos: pos, Moves: moves, Share: share})
			pos.MakeMove(moves[r.IntN(len(moves))])
		}
	}
	return exs
}

// TestFitPriorsRecoversPlanted: shares made by known prior weights (other than the
// start) are fitted back to those weights.
func TestFitPriorsRecoversPlanted(t *testing.T) {
	planted := [eval.NumPriorTerms]float64{0.3, 1.5, 1.0, 0.4, 1.2, 0.7, 0.9}
	exs := plantedPolicy(t, planted, 4000)
	got, res, err := FitPriors(exs[:3000], exs[3000:], eval.DefaultWeights())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	if !(res.HeldAfter < res.HeldBefore) {
		t.Errorf("held-out cross-entropy %g before, %g after; want it lower", res.HeldBefore, res.HeldAfter)
	}
	v := got.PriorVector()
	for k := range planted {
		if math.Abs(float64(v[k])-planted[k]) > 0.02 {
			t.Errorf("prior weight %d: fitted %.4f; planted %.4f", k, v[k], planted[k])
		}
	}
	if got.Board != eval.DefaultWeights().Board || got.ValueScale != eval.DefaultWeights().ValueScale {
		t.Error("FitPriors changed weights other than the priors")
	}
}

// TestPriorGradient: the cross-entropy's gradient against central finite differences.
func TestPriorGradient(t *testing.T) {
	exs := plantedPolicy(t, [eval.NumPriorTerms]float64{0.3, 1.5, 1.0, 0.4, 1.2, 0.7, 0.9}, 300)
	ss := policySamples(exs, eval.DefaultWeights())
	w := []float64{0.6, 1, 2, 1, 0.8, 0.4, 0.5}
	g := make([]float64, len(w))
	crossEntropy(w, ss, g)
	const h = 1e-5
	for k := range w {
		wp, wm := append([]float64(nil), w...), append([]float64(nil), w...)
		wp[k] += h
		wm[k] -= h
		fd := (crossEntropy(wp, ss, nil) - crossEntropy(wm, ss, nil)) / (2 * h)
		if math.Abs(fd-g[k]) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("d/dw%d: gradient %g, finite difference %g", k, g[k], fd)
		}
	}
}
