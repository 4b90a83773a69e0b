package engine

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/shogilab/shogilab/engine/nnue"
)

// BenchmarkPlayoutsPolicy measures what the policy head (engine/nnue) costs the whole
// engine, one search goroutine, searches of 20,000 playouts from the start position as
// in BenchmarkPlayouts, back to back in one run so that the machine's load is alike for
// all: today's default (the built-in network, hand-set priors), the built-in network with
// a policy head of 8 and of 16 units drawn at random (the head's arithmetic, on a tree
// shaped by near-uniform priors), and, if SHOGILAB_POLICY_NET names one, a trained
// evaluation file. Issue 31 allows the policy at most 15% fewer playouts a second than
// the default; cpu-ns/playout is the figure to compare on a loaded machine.
func BenchmarkPlayoutsPolicy(b *testing.B) {
	cases := []struct{ name, file string }{{"default", BuiltinEval}}
	dir := b.TempDir()
	for _, hp := range []int{8, 16} {
		m := BuiltinNet().Model()
		if err := m.AddPolicy(hp); err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(hp), 31))
		for _, xs := range [][]float32{m.Policy.W, m.Policy.E} {
			for i := range xs {
				xs[i] = float32(r.NormFloat64() * 0.1)
			}
		}
		for i := range m.Policy.B {
			m.Policy.B[i] = 0.5
		}
		net, err := nnue.Quantise(m, nnue.Header{})
		if err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("policy%d.nnue", hp))
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := net.Write(f); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		cases = append(cases, struct{ name, file string }{fmt.Sprintf("policy=%d", hp), path})
	}
	if f := os.Getenv("SHOGILAB_POLICY_NET"); f != "" {
		cases = append(cases, struct{ name, file string }{"trained", f})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchPlayoutsWith(b, c.file) })
	}
}
