package netfit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/engine/nnue"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// randomSamples returns samples of positions from random games, each with the target
// target(pos).
func randomSamples(n int, seed uint64, target func(*ms.Position) float32) []Sample {
	r := rand.New(rand.NewPCG(seed, 3))
	var out []Sample
	var ml ms.MoveList
	for len(out) < n {
		pos := ms.StartPosition()
		for ply := 0; ply < 60 && len(out) < n; ply++ {
			pos.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			pos.MakeMove(ml.Moves[r.IntN(ml.N)])
			stm := pos.SideToMove()
			out = append(out, Sample{Us: nnue.Features(&pos, stm, nil), Them: nnue.Features(&pos, stm.Opponent(), nil),
				Target: target(&pos), Weight: 1})
		}
	}
	return out
}

// TestGradientMatchesFiniteDifferences checks the backward pass against central
// differences of the loss, parameter by parameter, on a small network.
func TestGradientMatchesFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	samples := randomSamples(6, 2, func(*ms.Position) float32 { return float32(r.Float64()*2 - 1) })
	p := newParams(3, 2, 0)
	p.init(r)
	for i := range p.w1 { // larger first-layer weights, virtual rows too, so that they matter
		p.w1[i] = r.NormFloat64() * 0.05
	}
	w := newWorker(3, 2, 0, 0)
	for i := range samples {
		w.loss(p, &samples[i], true)
	}
	rows := map[int32]bool{}
	for _, row := range w.touched {
		rows[row] = true
	}
	if checked := checkGradient(t, w, p, samples, func(k, i int) bool { return k != 0 || rows[int32(i/p.h1)] }); checked < 100 {
		t.Errorf("%d parameters checked", checked)
	}
}

// checkGradient compares the gradient w holds, from backward passes over samples, with
// central differences of the loss, parameter by parameter; a parameter that no sample
// reaches (reached false) must have none. It returns how many it compared.
func checkGradient(t *testing.T, w *worker, p *params, samples []Sample, reached func(k, i int) bool) (checked int) {
	t.Helper()
	total := func() float64 {
		var s float64
		for i := range samples {
			s += w.loss(p, &samples[i], false)
		}
		return s
	}
	const eps = 1e-6
	for k, xs := range p.all {
		for i := range xs {
			got := w.grad.all[k][i]
			if !reached(k, i) {
				if got != 0 {
					t.Fatalf("parameter %d[%d]: gradient %v, and no sample reaches it", k, i, got)
				}
				continue
			}
			old := xs[i]
			xs[i] = old + eps
			up := total()
			xs[i] = old - eps
			down := total()
			xs[i] = old
			num := (up - down) / (2 * eps)
			checked++
			if math.Abs(num-got) > 1e-6+1e-4*math.Abs(num) {
				t.Errorf("parameter %d[%d]: gradient %.8f, finite differences %.8f", k, i, got, num)
			}
		}
	}
	return checked
}

// material is a planted target: tanh of the material balance for the side to move, in
// tenths of the usual shogi values (pawn 1, silver 5, gold 6, bishop 8, rook 10, a
// promoted piece 2 more than its base, a piece in hand as on the board). It is a sum over
// pieces, which the network's virtual features represent exactly.
func material(pos *ms.Position) float32 {
	val := [...]float64{ms.Pawn: 1, ms.Silver: 5, ms.Gold: 6, ms.Bishop: 8, ms.Rook: 10,
		ms.Tokin: 3, ms.ProSilver: 7, ms.Horse: 10, ms.Dragon: 12, ms.King: 0}
	us := pos.SideToMove()
	var s float64
	for b := pos.Occupied(); b != 0; b &= b - 1 {
		pc := pos.PieceAt(b.First())
		if pc.Color() == us {
			s += val[pc.Type()]
		} else {
			s -= val[pc.Type()]
		}
	}
	for pt := ms.Pawn; pt <= ms.Rook; pt++ {
		s += val[pt] * float64(pos.Hand(us, pt)-pos.Hand(us.Opponent(), pt))
	}
	return float32(math.Tanh(s / 10))
}

// TestFitRecoversPlantedTarget: on positions of random games valued by the material
// target, the fit brings the held-out loss to a small part of the targets' variance (the
// loss of the best constant).
func TestFitRecoversPlantedTarget(t *testing.T) {
	n := 40000
	if testing.Short() {
		n = 20000
	}
	train := randomSamples(n, 4, material)
	held := randomSamples(2000, 5, material)
	var mean, variance float64
	for _, s := range held {
		mean += float64(s.Target)
	}
	mean /= float64(len(held))
	for _, s := range held {
		d := float64(s.Target) - mean
		variance += d * d
	}
	variance /= float64(len(held))
	o := DefaultOptions()
	o.Hidden1, o.Hidden2, o.Epochs, o.LearningRate = 16, 8, 8, 3e-3
	model, epochs, err := Fit(train, held, o)
	if err != nil {
		t.Fatal(err)
	}
	best := math.Inf(1)
	for _, e := range epochs {
		best = min(best, e.HeldLoss)
	}
	t.Logf("targets' variance %.4f; held-out loss by epoch %v", variance, epochs)
	if best > variance/20 {
		t.Errorf("held-out loss %.4f; want under a twentieth of the variance %.4f", best, variance)
	}
	if epochs[len(epochs)-1].TrainLoss >= epochs[0].TrainLoss {
		t.Errorf("training loss did not fall: %v", epochs)
	}
	// The model returned is the best epoch's, and the quantised network agrees with it.
	net, err := nnue.Quantise(model, nnue.Header{})
	if err != nil {
		t.Fatal(err)
	}
	acc := net.NewAccumulator()
	pos := ms.StartPosition()
	if q, f := acc.Evaluate(&pos), model.Value(&pos); math.Abs(float64(q-f)) > 0.05 {
		t.Errorf("start: quantised %v, float %v", q, f)
	}
}

// TestFitReproducible: the same samples and options give the same model, bit for bit; the
// seed is used (another seed, another model); and the shards only split a sum (package
// doc): on one thread and on three the fit is the same up to rounding, so the held-out
// losses of the two models agree to a millionth.
func TestFitReproducible(t *testing.T) {
	train := randomSamples(1500, 6, material)
	held := randomSamples(300, 7, material)
	o := DefaultOptions()
	o.Hidden1, o.Hidden2, o.Epochs = 8, 4, 2
	fit := func(o Options) *nnue.Model {
		t.Helper()
		m, _, err := Fit(train, held, o)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := fit(o), fit(o)
	if !slices.Equal(a.W1, b.W1) || !slices.Equal(a.B1, b.B1) || !slices.Equal(a.W2, b.W2) || !slices.Equal(a.B2, b.B2) || !slices.Equal(a.W3, b.W3) || a.B3 != b.B3 {
		t.Error("two fits with the same seed differ")
	}
	seeded := o
	seeded.Seed = o.Seed + 1
	if slices.Equal(fit(seeded).W1, a.W1) {
		t.Error("a fit with another seed gives the same model")
	}
	for _, threads := range []int{1, 3} {
		sharded := o
		sharded.Threads = threads
		if la, lt := Loss(a, held, 0), Loss(fit(sharded), held, 0); math.Abs(la-lt) > 1e-6*la {
			t.Errorf("held-out loss %.9f on %d threads, %.9f on %d", lt, threads, la, o.Threads)
		}
	}
}

// pawnSample returns a position of two kings and Sente's pawn as a sample with target 1,
// and a feature of Sente's perspective that Gote's lacks.
func pawnSample(t *testing.T) (Sample, int32) {
	t.Helper()
	pos, err := ms.ParseSFEN("4k/5/5/5/K3P b - 1")
	if err != nil {
		t.Fatal(err)
	}
	s := Sample{Us: nnue.Features(&pos, ms.Sente, nil), Them: nnue.Features(&pos, ms.Gote, nil), Target: 1, Weight: 1}
	for _, f := range s.Us {
		if !slices.Contains(s.Them, f) {
			return s, f
		}
	}
	t.Fatalf("features %v and %v: none of Sente's alone", s.Us, s.Them)
	return s, 0
}

// TestWeightLimits: Adam's first step moves every weight with a gradient by the learning
// rate (lr·ĝ/√(ĝ²)), so one step of a rate of 1000 drives each such weight to its limit:
// the first layer's king rows, virtual rows and biases to ±MaxWeight1/4 = ±5. A feature's
// weight in the model, a king row plus a virtual row, is then at most ±10, and exactly that
// where both rows were pushed the same way; the network still quantises (MaxWeight1 = 20).
func TestWeightLimits(t *testing.T) {
	o := Options{Hidden1: 8, Hidden2: 4, Epochs: 1, Patience: 1, Batch: 1, LearningRate: 1000, Threads: 1, Seed: 3}
	s, _ := pawnSample(t)
	m, _, err := Fit([]Sample{s}, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	const limit = nnue.MaxWeight1 / 4
	atLimit := 0
	for i, w := range m.W1 {
		switch a := math.Abs(float64(w)); {
		case a == 2*limit:
			atLimit++
		case a > 2*limit:
			t.Fatalf("W1[%d] = %v, beyond ±%v", i, w, 2*limit)
		}
	}
	for i, b := range m.B1 {
		if math.Abs(float64(b)) != limit {
			t.Errorf("B1[%d] = %v; want ±%v", i, b, limit)
		}
	}
	if atLimit == 0 {
		t.Fatal("no first-layer weight at the limit: the test proves nothing")
	}
	if _, err := nnue.Quantise(m, nnue.Header{}); err != nil {
		t.Errorf("the fitted network does not quantise: %v", err)
	}
}

// TestKingRowDecay: a start model whose first layer is A = 0.3 on the row of a feature of
// Sente's perspective alone (pawnSample) and 0 elsewhere splits into a virtual row of A/25 (the mean over the 25 king
// squares) and a king row of 24A/25 (Options.Start). One step of learning rate η = 0.001
// with Decay 500 shrinks the king row by ηDecay = 1/2 and moves both rows by at most η
// (Adam's first step), so the model's weight becomes 12A/25 + A/25 = 0.156 ± 2η; without
// decay it stays 0.3 ± 2η. The biases keep the accumulator inside (0, 1), where the
// gradient passes.
func TestKingRowDecay(t *testing.T) {
	const h1, h2, a = 2, 1, 0.3
	s, f := pawnSample(t)
	start, err := nnue.NewModel(h1, h2)
	if err != nil {
		t.Fatal(err)
	}
	row := start.W1[int(f)*h1 : int(f+1)*h1]
	for i := range row {
		row[i] = a
	}
	for i := range start.B1 {
		start.B1[i] = 0.5 - a // accumulators 0.5 (Sente's side) and 0.2 (Gote's)
	}
	for i := range start.W2 {
		start.W2[i] = 0.1
	}
	start.B2[0], start.W3[0] = 0.5, 0.5
	for _, c := range []struct {
		decay, want float64
	}{{500, 0.156}, {0, 0.3}} {
		t.Run(fmt.Sprintf("decay=%g", c.decay), func(t *testing.T) {
			o := Options{Hidden1: h1, Hidden2: h2, Epochs: 1, Patience: 1, Batch: 1, LearningRate: 0.001, Threads: 1, Seed: 1, Decay: c.decay, Start: start}
			m, _, err := Fit([]Sample{s}, nil, o)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range m.W1[int(f)*h1 : int(f+1)*h1] {
				if math.Abs(float64(w)-c.want) > 2.1*o.LearningRate {
					t.Errorf("decay %v: the feature's weight %d is %v; want %v ± %v", c.decay, i, w, c.want, 2*o.LearningRate)
				}
			}
		})
	}
}

func TestFitErrors(t *testing.T) {
	if _, _, err := Fit(nil, nil, DefaultOptions()); err == nil || err.Error() != "netfit: no training samples" {
		t.Errorf("no samples: %v", err)
	}
	o := DefaultOptions()
	o.Batch = 0
	if _, _, err := Fit(randomSamples(10, 1, material), nil, o); err == nil || err.Error() != "netfit: batch 0: need 1 or more" {
		t.Errorf("batch 0: %v", err)
	}
}

// TestWarmStart: the split of a start model into king and virtual rows folds back to the
// model, and a fit started from a model fitted to the same target begins where that one
// ended (its first epoch's held-out loss is near the model's, far below a fresh fit's).
func TestWarmStart(t *testing.T) {
	train := randomSamples(4000, 8, material)
	held := randomSamples(500, 9, material)
	o := DefaultOptions()
	o.Hidden1, o.Hidden2, o.Epochs, o.LearningRate = 8, 4, 6, 3e-3
	first, eps, err := Fit(train, held, o)
	if err != nil {
		t.Fatal(err)
	}
	p := newParams(8, 4, 0)
	p.from(first)
	back := p.model()
	for i := range first.W1 {
		if d := math.Abs(float64(back.W1[i] - first.W1[i])); d > 1e-6 {
			t.Fatalf("W1[%d]: %v split and folded back is %v", i, first.W1[i], back.W1[i])
		}
	}
	if !slices.Equal(back.W2, first.W2) || !slices.Equal(back.B1, first.B1) || back.B3 != first.B3 {
		t.Error("the later layers changed in the split")
	}
	fitted := math.Inf(1)
	for _, e := range eps {
		fitted = min(fitted, e.HeldLoss)
	}
	o.Epochs, o.Start = 1, first
	_, warm, err := Fit(train, held, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Start = nil
	_, cold, _ := Fit(train, held, o)
	t.Logf("held-out loss: fitted %.4f; one more epoch from it %.4f; one epoch from scratch %.4f", fitted, warm[0].HeldLoss, cold[0].HeldLoss)
	if warm[0].HeldLoss > 1.5*fitted || warm[0].HeldLoss > cold[0].HeldLoss/2 {
		t.Errorf("warm start's first epoch: held-out loss %.4f; want near %.4f and far below %.4f", warm[0].HeldLoss, fitted, cold[0].HeldLoss)
	}
	o.Start, o.Hidden1 = first, 16
	if _, _, err := Fit(train, held, o); err == nil || !strings.Contains(err.Error(), "netfit: start model is 8×4, the options ask for 16×4") {
		t.Errorf("a start model of other sizes: %v", err)
	}
}
