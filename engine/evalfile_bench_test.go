package engine

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// shippedNet is the evaluation file shipped in the repository (datasets/README.md).
var shippedNet = filepath.Join("..", "datasets", "evaluation", "zero40-fsf1m-64x16-p8.nnue")

// BenchmarkPlayoutsEvalFile compares the whole engine's playouts, one search goroutine,
// with the hand-set value and with the shipped network's (EvalFile), back to back in one
// run so that the machine's load is alike for both: searches of 20,000 playouts from the
// start position, as in BenchmarkPlayouts.
func BenchmarkPlayoutsEvalFile(b *testing.B) {
	for _, c := range []struct{ name, file string }{{"hand-set", HandSetEval}, {"network", shippedNet}} {
		b.Run(c.name, func(b *testing.B) { benchPlayoutsWith(b, c.file) })
	}
}

// benchPlayoutsWith is BenchmarkPlayouts' measure, one search goroutine, for the engine
// with the evaluation file (the EvalFile setting).
func benchPlayoutsWith(b *testing.B, file string) {
	st := DefaultSettings()
	s, _ := FindSetting("EvalFile")
	if err := s.Set(&st, file); err != nil {
		b.Fatal(err)
	}
	cfg := st.Player
	cfg.Search.MaxNodes = 1 << 20
	p, err := NewPlayer(cfg)
	if err != nil {
		b.Fatal(err)
	}
	start := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
	runtime.GC()
	b.ResetTimer()
	playChunks(b, p, start, func(Decision) {})
}
