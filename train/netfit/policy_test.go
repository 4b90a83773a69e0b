package netfit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/engine/nnue"
	ms "github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/train/data"
)

// policySamples returns samples of positions from random games, each with a policy
// target over its legal moves: target(pos, moves) gives each move's probability.
func policySamples(n int, seed uint64, target func(*ms.Position, []ms.Move) []float64) []Sample {
	r := rand.New(rand.NewPCG(seed, 7))
	var out []Sample
	var ml ms.MoveList
	for len(out) < n {
		pos := ms.StartPosition()
		for ply := 0; ply < 60 && len(out) < n; ply++ {
			pos.GenerateLegal(&ml)
			if ml.N < 2 {
				break
			}
			pos.MakeMove(ml.Moves[r.IntN(ml.N)])
			pos.GenerateLegal(&ml)
			if ml.N < 2 {
				break
			}
			moves := ml.Slice()
			stm := pos.SideToMove()
			s := Sample{Us: nnue.Features(&pos, stm, nil), Them: nnue.Features(&pos, stm.Opponent(), nil),
				Target: material(&pos), Weight: 1}
			var t data.PolicyTarget
			for k, p := range target(&pos, moves) {
				if p > 0 {
					t = append(t, data.MoveProb{Move: moves[k], P: float32(p)})
				}
			}
			s.setPolicy(&pos, moves, t)
			out = append(out, s)
		}
	}
	return out
}

// TestPolicyGradientMatchesFiniteDifferences checks the backward pass of both heads, the
// policy's cross-entropy weighted in, against central differences of the loss, parameter
// by parameter, on a small network with a policy head.
func TestPolicyGradientMatchesFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	samples := policySamples(5, 4, func(_ *ms.Position, moves []ms.Move) []float64 {
		p := make([]float64, len(moves))
		var sum float64
		for k := range p {
			p[k] = r.Float64()
			sum += p[k]
		}
		for k := range p {
			p[k] /= sum
		}
		return p
	})
	for _, weight := range []float64{1, 0.3} {
		t.Run("weight="+ftoa(weight), func(t *testing.T) {
			p := newParams(3, 2, 3)
			p.init(r)
			for _, xs := range [][]float64{p.w1, p.pe, p.pc} { // larger, so that they matter
				for i := range xs {
					xs[i] = r.NormFloat64() * 0.2
				}
			}
			for i := range p.pb {
				p.pb[i] = 0.3 + 0.2*r.Float64()
			}
			w := newWorker(3, 2, 3, weight)
			rows := map[int32]bool{}
			moveRows := map[int32]bool{}
			for i := range samples {
				w.loss(p, &samples[i], true)
				for _, f := range samples[i].MoveFeats {
					moveRows[f] = true
				}
			}
			for _, row := range w.touched {
				rows[row] = true
			}
			reached := func(k, i int) bool {
				switch {
				case k == 0:
					return rows[int32(i/p.h1)]
				case k == firstPolicy+2:
					return moveRows[int32(i/p.hp)]
				case k == firstPolicy+3:
					return moveRows[int32(i)]
				}
				return true
			}
			if checked := checkGradient(t, w, p, samples, reached); checked < 300 {
				t.Errorf("%d parameters checked", checked)
			}
		})
	}
}

func ftoa(x float64) string {
	if x == 1 {
		return "1"
	}
	return "0.3"
}

// planted is a known policy: logits that are a sum over a move's features of known
// weights (a capture +2, a check +1.5, a drop -1, a promotion +1, a move to a square the
// opponent attacks -1), which the head's move biases can represent exactly. Its softmax
// is the target.
func planted(pos *ms.Position, moves []ms.Move) []float64 {
	ctx := nnue.NewMoveContext(pos)
	z := make([]float64, len(moves))
	for k, m := range moves {
		feats, check := ctx.MoveFeatures(m, nil)
		if check {
			z[k] += 1.5
		}
		if m.IsDrop() {
			z[k]--
		} else if pos.PieceAt(m.To()) != ms.NoPiece {
			z[k] += 2
		}
		if m.IsPromotion() {
			z[k]++
		}
		if len(feats) > 0 && threatened(pos, m) {
			z[k]--
		}
	}
	hi := math.Inf(-1)
	for _, x := range z {
		hi = max(hi, x)
	}
	var sum float64
	for k := range z {
		z[k] = math.Exp(z[k] - hi)
		sum += z[k]
	}
	for k := range z {
		z[k] /= sum
	}
	return z
}

// threatened reports whether the opponent attacks m's to-square in pos, read from the
// rules' attackers (not from the move features).
func threatened(pos *ms.Position, m ms.Move) bool {
	them := pos.SideToMove().Opponent()
	return pos.Attackers(m.To(), them, pos.Occupied()) != 0
}

// TestFitRecoversPlantedPolicy: fitted to positions of random games whose targets are the
// planted policy's, the head's held-out cross-entropy comes within 0.05 nats of the
// targets' entropy, its least possible value (Gibbs' inequality: the excess is the
// Kullback-Leibler divergence from the planted policy), where equal priors are 0.3 or
// more above it. (Top-1 agreement is no test here: the planted policy has ties.)
func TestFitRecoversPlantedPolicy(t *testing.T) {
	n := 12000
	if testing.Short() {
		n = 6000
	}
	train := policySamples(n, 8, planted)
	held := policySamples(1000, 9, planted)
	var entropy, uniform float64 // uniform: the cross-entropy of equal priors, log(moves)
	for _, s := range held {
		for _, p := range s.Probs {
			if p > 0 {
				entropy -= float64(p) * math.Log(float64(p))
			}
		}
		uniform += math.Log(float64(len(s.Probs)))
	}
	entropy /= float64(len(held))
	uniform /= float64(len(held))
	if uniform-entropy < 0.3 {
		t.Fatalf("equal priors are within %.3f of the entropy: the planted policy is too flat to test", uniform-entropy)
	}
	o := DefaultOptions()
	o.Hidden1, o.Hidden2, o.Policy, o.PolicyWeight, o.Epochs, o.LearningRate, o.Decay = 16, 4, 4, 1, 6, 5e-3, 10
	var first float64
	o.OnEpoch = func(e Epoch) {
		if e.N == 1 {
			first = e.Held.Policy
		}
	}
	model, _, err := Fit(train, held, o)
	if err != nil {
		t.Fatal(err)
	}
	m := Measure(model, held)
	t.Logf("held-out cross-entropy %.4f (first epoch %.4f, equal priors %.4f), entropy %.4f; top-1 %.3f, top-3 %.3f",
		m.Policy, first, uniform, entropy, m.Top1, m.Top3)
	if m.Policy-entropy > 0.05 {
		t.Errorf("held-out cross-entropy %.4f; want within 0.05 of the entropy %.4f", m.Policy, entropy)
	}
}
