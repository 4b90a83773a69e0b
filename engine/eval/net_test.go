package eval

import (
	"math"
	"testing"

	"github.com/shogilab/shogilab/engine/nnue"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// TestNetGivesTheValue: with a network in the config, the value of a position without a
// mate is the network's, the priors are the hand-set ones, and a mate in one is still found.
func TestNetGivesTheValue(t *testing.T) {
	m, err := nnue.NewModel(4, 2)
	if err != nil {
		t.Fatal(err)
	}
	// A network whose value is tanh(0.5) whatever the position: the accumulator is its
	// bias 0.5 for both sides, the hidden unit 0 takes one input at weight 1 (0.5), and
	// the output weighs it by 1.
	for i := range m.B1 {
		m.B1[i] = 0.5
	}
	m.W2[0], m.W3[0] = 1, 1
	net, err := nnue.Quantise(m, nnue.Header{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	with := cfg
	with.Net = net
	const quiet = ms.StartSFEN
	ev, _, priors := evaluate(t, with, quiet)
	if want := math.Tanh(0.5); math.Abs(float64(ev.Value)-want) > 0.01 {
		t.Errorf("start position with the network: value %v, want tanh(0.5) = %.4f", ev.Value, want)
	}
	hand, _, handPriors := evaluate(t, cfg, quiet)
	if hand.Value == ev.Value {
		t.Errorf("the network's value %v is the hand-set one", ev.Value)
	}
	for i := range priors {
		if priors[i] != handPriors[i] {
			t.Fatalf("prior %d is %v with the network, %v without", i, priors[i], handPriors[i])
		}
	}
	// Mate in one with a gold drop in front of the king (a hand-made position).
	mate, _, _ := evaluate(t, with, "4k/5/4P/5/K4 b G 1")
	if mate.Proof.Plies != 1 {
		t.Errorf("mate in one with the network: proof %+v", mate.Proof)
	}
}
