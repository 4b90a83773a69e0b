package eval

import (
	"fmt"
	"path/filepath"

	"math"
	"math/rand/v2"
	"testing"

	"github.com/shogilab/shogilab/datasets/evaluation"

	"github.com/shogilab/shogilab/engine/nnue"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// policyNet returns a small network with a policy head of random weights, and its float
// model after quantisation (the network's own weights in floating point).
func policyNet(t *testing.T) (*nnue.Net, *nnue.Model) {
	t.Helper()
	m, err := nnue.NewModel(8, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.AddPolicy(4); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, xs := range [][]float32{m.W1, m.B1, m.W2, m.B2, m.W3, m.Policy.W, m.Policy.B, m.Policy.E, m.Policy.C} {
		for i := range xs {
			xs[i] = float32(r.NormFloat64() * 0.3)
		}
	}
	net, err := nnue.Quantise(m, nnue.Header{})
	if err != nil {
		t.Fatal(err)
	}
	return net, net.Model()
}

// TestPolicyGivesThePriors: with a policy head, the priors are the softmax of the head's
// logits at the temperature (the float model's logits, within the quantisation's error and
// fastExp's 0.5%), the value is the network's, and a mate in one is still proven and its
// move given PriorMate.
func TestPolicyGivesThePriors(t *testing.T) {
	net, model := policyNet(t)
	for _, temp := range []float32{1, 2, 0.5} {
		cfg := DefaultConfig()
		cfg.Net, cfg.PolicyTemperature = net, temp
		for _, sfen := range []string{ms.StartSFEN, "2k1+r/5/1P3/5/K3G w Sp 12", "rb1gk/3sp/5/PG3/K1SBR b - 3"} {
			ev, moves, priors := evaluate(t, cfg, sfen)
			pos, _ := ms.ParseSFEN(sfen)
			legal := make([]ms.Move, len(moves))
			for i, m := range moves {
				legal[i] = ms.Move(m)
			}
			z := model.MoveLogits(&pos, legal)
			// Prior ratios against the first move: e^((z_i - z_0)/T).
			for i := range moves {
				want := math.Exp(float64(z[i]-z[0]) / float64(temp))
				got := float64(priors[i] / priors[0])
				if math.Abs(math.Log(got/want)) > 0.1/float64(temp)+0.01 {
					t.Errorf("T=%v %s: prior of %s over %s is %.4f, the logits say %.4f", temp, sfen, ms.Move(moves[i]), ms.Move(moves[0]), got, want)
				}
			}
			if v := model.Value(&pos); math.Abs(float64(ev.Value-v)) > 0.05 {
				t.Errorf("%s: value %v, the model's %v", sfen, ev.Value, v)
			}
		}
	}
	cfg := DefaultConfig()
	cfg.Net = net
	mate, moves, priors := evaluate(t, cfg, "4k/5/4P/5/K4 b G 1")
	if mate.Proof.Plies != 1 || topMove(moves, priors) != "G*1b" {
		t.Errorf("mate in one with a policy head: proof %+v, top prior %s", mate.Proof, topMove(moves, priors))
	}
}

func TestPolicyTemperatureValidated(t *testing.T) {
	for _, temp := range []float32{0, -1, float32(math.Inf(1)), float32(math.NaN())} {
		cfg := DefaultConfig()
		cfg.PolicyTemperature = temp
		if err := cfg.Validate(); err == nil {
			t.Errorf("PolicyTemperature %v passed Validate", temp)
		}
	}
}

// BenchmarkEvaluatePriors is one evaluation without the mate search (MateDepth 0), of
// positions where the side to move has checks (attackingPositions): the built-in network's
// value with the hand-set priors, and with a policy head of 8 and 16 units (random
// weights: the cost does not depend on them). It isolates what the policy head costs a
// node from the shape of the tree BenchmarkPlayoutsPolicy (engine) searches.
func BenchmarkEvaluatePriors(b *testing.B) {
	t := &testing.T{}
	positions := attackingPositions(t, 200)
	base, err := nnue.Decode(evaluation.Builtin)
	if err != nil {
		b.Fatal(err)
	}
	nets := []struct {
		name string
		net  *nnue.Net
	}{{"hand-set-priors", base}}
	for _, hp := range []int{8, 16} {
		m := base.Model()
		if err := m.AddPolicy(hp); err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(hp), 1))
		for _, xs := range [][]float32{m.Policy.W, m.Policy.E} {
			for i := range xs {
				xs[i] = float32(r.NormFloat64() * 0.1)
			}
		}
		net, err := nnue.Quantise(m, nnue.Header{})
		if err != nil {
			b.Fatal(err)
		}
		nets = append(nets, struct {
			name string
			net  *nnue.Net
		}{fmt.Sprintf("policy=%d", hp), net})
	}
	for _, c := range nets {
		b.Run(c.name, func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.MateDepth, cfg.Net = 0, c.net
			benchEvaluate(b, cfg, positions)
		})
	}
}

// TestVersion1NetKeepsHandSetPriors: the shipped value network fsf5000-64x16.nnue is a
// version 1 file, without a policy head; with it the priors are the hand-set ones, move for move the same as the
// hand-set evaluation's (docs/policy.md: the documented fallback), on positions where the
// side to move has checks.
func TestVersion1NetKeepsHandSetPriors(t *testing.T) {
	net, err := nnue.ReadFile(filepath.Join("..", "..", "datasets", "evaluation", "fsf5000-64x16.nnue"))
	if err != nil {
		t.Fatal(err)
	}
	if net.HasPolicy() || net.Header.Version != 1 {
		t.Fatalf("the shipped network: version %d, policy %v; the test needs a version 1 file", net.Header.Version, net.HasPolicy())
	}
	withNet := DefaultConfig()
	withNet.Net = net
	a, b := New(DefaultConfig()), New(withNet)
	rng := rand.New(rand.NewPCG(1, 2))
	for i, pos := range attackingPositions(t, 50) {
		g := &testGame{pos: pos}
		moves := g.LegalMoves(nil)
		pa, pb := make([]float32, len(moves)), make([]float32, len(moves))
		a.Evaluate(g, moves, pa, rng)
		b.Evaluate(g, moves, pb, rng)
		for k := range moves {
			if pa[k] != pb[k] {
				t.Fatalf("position %d (%s), move %s: prior %v with the network, %v hand-set", i, pos.SFEN(), ms.Move(moves[k]), pb[k], pa[k])
			}
		}
	}
}
