// Package netfit trains an nnue.Model on examples by minibatch gradient descent with
// Adam, on every core, stopping early when the held-out loss stops falling.
//
// A tour:
//
//	samples := netfit.Samples(set.Train, 0.5)          // features and targets (λ = 0.5)
//	held := netfit.Samples(set.Held, 0.5)
//	model, epochs, err := netfit.Fit(samples, held, netfit.DefaultOptions())
//	net, err := nnue.Quantise(model, nnue.Header{...})  // for the search and the file
//
// The loss is the squared error of the model's value, tanh of its output, against the
// target. Besides the features of halfkp-5x5, training sees for every feature a "virtual"
// one that ignores the king's square (the piece, owner and square alone); its weights are
// added into every king block at the end. It is the factorisation Stockfish's trainer uses
// (nnue-pytorch, "HalfKP^"): a piece's worth is learnt from every king position at once,
// which matters with few examples per king square.
//
// Each minibatch is cut into one shard per thread; the shards' gradients are summed in
// shard order, so a fit depends on the examples, the options and the thread count only.
package netfit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/shogilab/shogilab/engine/nnue"
	ms "github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/train/data"
)

// Sample is one training example as the network sees it.
type Sample struct {
	Us, Them []int32 // active features of the side to move and of the other side
	Target   float32 // in [-1, 1], for the side to move
	Weight   float32 // the example's weight in the loss (1 for each distinct position)
	// The policy target, when the example has one (Probs nil: none): every legal move's
	// active features (nnue.MoveContext.MoveFeatures), move k's being
	// MoveFeats[MoveEnds[k-1]:MoveEnds[k]], and its probability Probs[k].
	MoveFeats []int32
	MoveEnds  []int32
	Probs     []float32
}

// Samples turns examples into samples with target λ·result + (1-λ)·root value, without
// their policy targets (a fit of the value alone).
func Samples(exs []data.Example, lambda float32) []Sample {
	out := make([]Sample, len(exs))
	for i := range exs {
		pos := &exs[i].Pos
		stm := pos.SideToMove()
		out[i] = Sample{
			Us:     nnue.Features(pos, stm, nil),
			Them:   nnue.Features(pos, stm.Opponent(), nil),
			Target: exs[i].Target(lambda),
			Weight: 1,
		}
	}
	return out
}

// PolicySamples is Samples with the policy target of every example that has one, spread
// over its position's legal moves.
func PolicySamples(exs []data.Example, lambda float32) []Sample {
	out := Samples(exs, lambda)
	var ml ms.MoveList
	for i := range exs {
		if exs[i].Policy == nil {
			continue
		}
		pos := &exs[i].Pos
		pos.GenerateLegal(&ml)
		out[i].setPolicy(pos, ml.Slice(), exs[i].Policy)
	}
	return out
}

// setPolicy fills s's policy target from t, a distribution over moves, legal moves of pos.
// A move of t that is not among moves is left out (the rest are not renormalised: t was
// made over the same legal moves).
func (s *Sample) setPolicy(pos *ms.Position, moves []ms.Move, t data.PolicyTarget) {
	ctx := nnue.NewMoveContext(pos)
	s.MoveEnds = make([]int32, len(moves))
	s.Probs = make([]float32, len(moves))
	var scratch [nnue.MaxMoveActive]int32
	for k, m := range moves {
		f, _ := ctx.MoveFeatures(m, scratch[:0])
		s.MoveFeats = append(s.MoveFeats, f...)
		s.MoveEnds[k] = int32(len(s.MoveFeats))
		for _, mp := range t {
			if mp.Move == m {
				s.Probs[k] += mp.P
			}
		}
	}
	s.MoveFeats = slices.Clip(s.MoveFeats)
}

// Options of a fit.
type Options struct {
	Hidden1, Hidden2 int
	// Policy is the policy head's hidden size (nnue.Policy), 0 for a network without one.
	// The head learns from the samples with a policy target.
	Policy int
	// PolicyWeight weighs the policy's cross-entropy against the value's squared error
	// in the loss.
	PolicyWeight float64
	// PolicyOnly trains the policy head alone: the feature transformer and the value's
	// layers keep Start's weights (the value network is left as it is, and the head
	// learns on its accumulator).
	PolicyOnly   bool
	Epochs       int     // the most epochs
	Patience     int     // epochs without a better held-out loss before stopping
	Batch        int     // examples per minibatch
	LearningRate float64 // Adam's step size
	Threads      int     // shards of a minibatch, computed at once
	Seed         uint64  // the initial weights and the order of examples
	// Decay is the decoupled weight decay (AdamW: Loshchilov and Hutter, "Decoupled
	// Weight Decay Regularization", 2019) of the first layer's king-square rows: each
	// step shrinks them by LearningRate·Decay, so that what does not depend on the
	// king is left to the virtual rows, which see every example.
	Decay float64
	// OnBatch, if set, is called after every minibatch with the batches done and the
	// batches the fit has at most (Epochs of them).
	OnBatch func(done, total int)
	// OnEpoch, if set, is called after every epoch.
	OnEpoch func(Epoch)
	// Start, if set, is the model the fit starts from (a warm start, as the generations
	// of a self-play loop refine the last network) instead of random weights; its sizes
	// must be Hidden1 and Hidden2. Its first layer is split into the virtual rows, the
	// mean of a feature's rows over the king squares, and the king rows, the rest.
	Start *nnue.Model
	// Done, if set, stops the fit with ErrStopped when it is closed (a context's Done).
	Done <-chan struct{}
}

// Validate reports the first option out of its range, by name and value (a command maps the
// names to its flags): one line, never the whole struct.
func (o Options) Validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("netfit: %s %v: %s", name, v, want)
	}
	switch {
	case o.Hidden1 < 1 || o.Hidden1 > nnue.MaxHidden1:
		return bad("hidden1", o.Hidden1, fmt.Sprintf("need 1 to %d", nnue.MaxHidden1))
	case o.Hidden2 < 1 || o.Hidden2 > nnue.MaxHidden2:
		return bad("hidden2", o.Hidden2, fmt.Sprintf("need 1 to %d", nnue.MaxHidden2))
	case o.Policy < 0 || o.Policy > nnue.MaxPolicyHidden:
		return bad("policy", o.Policy, fmt.Sprintf("need 0 (none) to %d", nnue.MaxPolicyHidden))
	case !(o.PolicyWeight >= 0) || math.IsInf(o.PolicyWeight, 1):
		return bad("policy weight", o.PolicyWeight, "need 0 or more")
	case o.PolicyOnly && (o.Policy == 0 || o.Start == nil || o.PolicyWeight == 0):
		return bad("policy only", o.PolicyOnly, "needs a policy head, a start model and a policy weight above 0")
	case o.Epochs < 1:
		return bad("epochs", o.Epochs, "need 1 or more")
	case o.Patience < 1:
		return bad("patience", o.Patience, "need 1 or more")
	case o.Batch < 1:
		return bad("batch", o.Batch, "need 1 or more")
	case o.Threads < 1:
		return bad("threads", o.Threads, "need 1 or more")
	case !(o.LearningRate > 0) || math.IsInf(o.LearningRate, 1):
		return bad("learning rate", o.LearningRate, "need a positive number")
	case !(o.Decay >= 0) || o.LearningRate*o.Decay >= 1:
		return bad("decay", o.Decay, fmt.Sprintf("need 0 or more, below 1/learning rate (%g)", 1/o.LearningRate))
	}
	return nil
}

// ErrStopped is returned by Fit when Options.Done was closed.
var ErrStopped = errors.New("netfit: stopped")

// DefaultOptions are the sizes and settings chosen for Minishogi by measurement (see
// datasets/README.md).
func DefaultOptions() Options {
	return Options{Hidden1: 64, Hidden2: 16, Epochs: 20, Patience: 3, Batch: 256, LearningRate: 1e-3, Threads: 2, Seed: 1, Decay: 100,
		PolicyWeight: 0.1}
}

// Epoch is the losses after one pass over the training samples.
type Epoch struct {
	N         int     `json:"epoch"`
	TrainLoss float64 `json:"train_loss"` // mean over the epoch's minibatches, before each step
	// HeldLoss is the loss the fit minimises on the held-out samples: the value's squared
	// error plus PolicyWeight times the policy's cross-entropy (NaN without held-out
	// samples). The early stop watches it.
	HeldLoss float64 `json:"held_loss"`
	Held     Metrics `json:"held"`
	Seconds  float64 `json:"seconds"`
}

// Metrics are a model's figures on some samples.
type Metrics struct {
	Value float64 `json:"value_loss"` // mean squared error of the value (NaN for no samples)
	// The policy's figures on the samples with a policy target (NaN for none, or for a
	// model without a policy head): the mean cross-entropy of the softmax of the logits
	// against the target, and how often the target's most probable move is the model's
	// first, or among its first three.
	Policy   float64 `json:"policy_cross_entropy"`
	Top1     float64 `json:"top1"`
	Top3     float64 `json:"top3"`
	Labelled int     `json:"labelled"` // samples with a policy target
}

// params are the trainable numbers in float64: the model's, with the virtual features'
// rows after the NumFeatures rows of W1.
type params struct {
	h1, h2 int
	w1     []float64 // (NumFeatures + PieceFeatures) × h1
	b1     []float64
	w2     []float64 // 2·h1 × h2, input-major
	b2     []float64
	w3     []float64
	b3     []float64 // one
	// The policy head (hp = 0: none), as nnue.Policy: W, B, E, C.
	hp             int
	pw, pb, pe, pc []float64
	all            [][]float64
}

// firstPolicy is the index in params.all of the policy head's first parameter.
const firstPolicy = 6

const virtualBase = nnue.NumFeatures

func newParams(h1, h2, hp int) *params {
	p := &params{h1: h1, h2: h2, hp: hp,
		w1: make([]float64, (nnue.NumFeatures+nnue.PieceFeatures)*h1), b1: make([]float64, h1),
		w2: make([]float64, 2*h1*h2), b2: make([]float64, h2), w3: make([]float64, h2), b3: make([]float64, 1)}
	p.all = [][]float64{p.w1, p.b1, p.w2, p.b2, p.w3, p.b3}
	if hp > 0 {
		p.pw, p.pb = make([]float64, 2*h1*hp), make([]float64, hp)
		p.pe, p.pc = make([]float64, nnue.NumMoveFeatures*hp), make([]float64, nnue.NumMoveFeatures)
		p.all = append(p.all, p.pw, p.pb, p.pe, p.pc)
	}
	return p
}

func (p *params) clone() *params {
	q := newParams(p.h1, p.h2, p.hp)
	for i := range p.all {
		copy(q.all[i], p.all[i])
	}
	return q
}

// init draws the starting weights: the accumulator starts mid-range (biases 0.5, small
// feature weights), the later layers at the scale that keeps their outputs' variance.
func (p *params) init(r *rand.Rand) {
	for i := range p.w1[:virtualBase*p.h1] {
		p.w1[i] = r.NormFloat64() * 0.01
	}
	for i := range p.b1 {
		p.b1[i] = 0.5
	}
	s2 := 1 / math.Sqrt(float64(2*p.h1))
	for i := range p.w2 {
		p.w2[i] = r.NormFloat64() * s2
	}
	for i := range p.b2 {
		p.b2[i] = 0.5
	}
	s3 := 1 / math.Sqrt(float64(p.h2))
	for i := range p.w3 {
		p.w3[i] = r.NormFloat64() * s3
	}
	p.initPolicy(r)
}

// initPolicy draws the policy head's starting weights: its hidden layer as the value's,
// the move table small, so that the first priors are near uniform; the move biases 0.
func (p *params) initPolicy(r *rand.Rand) {
	s := 1 / math.Sqrt(float64(2*p.h1))
	for i := range p.pw {
		p.pw[i] = r.NormFloat64() * s
	}
	for i := range p.pb {
		p.pb[i] = 0.5
	}
	for i := range p.pe {
		p.pe[i] = r.NormFloat64() * 0.01
	}
	clear(p.pc)
}

// from sets p to m's weights: each first-layer row's mean over the king squares goes
// to its virtual row and the rest stays in the king rows, so that p.model() is m again.
func (p *params) from(m *nnue.Model) {
	h1 := p.h1
	kings := nnue.NumFeatures / nnue.PieceFeatures
	for f := range nnue.PieceFeatures {
		v := p.w1[(virtualBase+f)*h1 : (virtualBase+f+1)*h1]
		clear(v)
		for k := range kings {
			row := m.W1[(k*nnue.PieceFeatures+f)*h1 : (k*nnue.PieceFeatures+f+1)*h1]
			for i, x := range row {
				v[i] += float64(x) / float64(kings)
			}
		}
		for k := range kings {
			at := (k*nnue.PieceFeatures + f) * h1
			for i := range h1 {
				p.w1[at+i] = float64(m.W1[at+i]) - v[i]
			}
		}
	}
	conv := func(dst []float64, src []float32) {
		for i, x := range src {
			dst[i] = float64(x)
		}
	}
	conv(p.b1, m.B1)
	conv(p.w2, m.W2)
	conv(p.b2, m.B2)
	conv(p.w3, m.W3)
	p.b3[0] = float64(m.B3)
	if pol := m.Policy; pol != nil && p.hp == pol.Hidden {
		conv(p.pw, pol.W)
		conv(p.pb, pol.B)
		conv(p.pe, pol.E)
		conv(p.pc, pol.C)
	}
}

// model folds the virtual features into the king blocks and returns the float model.
func (p *params) model() *nnue.Model {
	m, _ := nnue.NewModel(p.h1, p.h2) // sizes were checked by Fit
	for f := range nnue.NumFeatures {
		v := virtualBase + f%nnue.PieceFeatures
		for i := range p.h1 {
			m.W1[f*p.h1+i] = float32(p.w1[f*p.h1+i] + p.w1[v*p.h1+i])
		}
	}
	conv := func(dst []float32, src []float64) {
		for i, x := range src {
			dst[i] = float32(x)
		}
	}
	conv(m.B1, p.b1)
	conv(m.W2, p.w2)
	conv(m.B2, p.b2)
	conv(m.W3, p.w3)
	m.B3 = float32(p.b3[0])
	if p.hp > 0 {
		_ = m.AddPolicy(p.hp) // the size was checked by Fit
		conv(m.Policy.W, p.pw)
		conv(m.Policy.B, p.pb)
		conv(m.Policy.E, p.pe)
		conv(m.Policy.C, p.pc)
	}
	return m
}

// worker holds one shard's scratch and gradient.
type worker struct {
	grad         *params
	policyWeight float64
	touched      []int32 // W1 rows with a gradient, to clear
	acc          []float64
	hid          []float64
	da           []float64
	pre          []float64 // the policy's hidden sums, then their gradient
	ph           []float64 // the policy's hidden layer, clamped
	dph          []float64 // the gradient of the loss by ph
	z            []float64 // the legal moves' logits, then their softmax
	last         parts     // the parts of the last sample's loss
}

// parts are one sample's loss by head, unweighted, and the policy's agreement with its
// target.
type parts struct {
	value, policy float64
	labelled      bool // the sample has a policy target (policy, top1, top3 are set)
	top1, top3    bool
}

func newWorker(h1, h2, hp int, policyWeight float64) *worker {
	return &worker{grad: newParams(h1, h2, hp), policyWeight: policyWeight,
		acc: make([]float64, 2*h1), hid: make([]float64, h2), da: make([]float64, 2*h1),
		pre: make([]float64, hp), ph: make([]float64, hp), dph: make([]float64, hp)}
}

// loss returns the weighted loss of one sample, the value's squared error plus the
// policy's cross-entropy times policyWeight, and, when grad is set, adds its gradient to
// w.grad. w.last gets the loss's parts.
func (w *worker) loss(p *params, s *Sample, grad bool) float64 {
	h1, h2 := p.h1, p.h2
	acc := w.acc
	for half, feats := range [2][]int32{s.Us, s.Them} {
		a := acc[half*h1 : (half+1)*h1]
		copy(a, p.b1)
		for _, f := range feats {
			for _, row := range [2]int32{f, virtualBase + f%nnue.PieceFeatures} {
				r := p.w1[int(row)*h1 : int(row+1)*h1]
				for i := range a {
					a[i] += r[i]
				}
			}
		}
	}
	hid := w.hid
	copy(hid, p.b2)
	for i, x := range acc {
		x = clamp01(x)
		if x == 0 {
			continue
		}
		r := p.w2[i*h2 : (i+1)*h2]
		for j := range hid {
			hid[j] += x * r[j]
		}
	}
	z := p.b3[0]
	for j, h := range hid {
		z += clamp01(h) * p.w3[j]
	}
	v := math.Tanh(z)
	diff := v - float64(s.Target)
	wt := float64(s.Weight)
	w.last = parts{value: diff * diff}
	policy := p.hp > 0 && s.Probs != nil
	if policy {
		w.policyForward(p, s)
	}
	total := wt * (w.last.value + w.policyWeight*w.last.policy)
	if !grad {
		return total
	}
	g := w.grad
	dz := wt * 2 * diff * (1 - v*v)
	g.b3[0] += dz
	for j, h := range hid {
		g.w3[j] += dz * clamp01(h)
		if h > 0 && h < 1 {
			hid[j] = dz * p.w3[j] // now dL/dh
		} else {
			hid[j] = 0
		}
	}
	for j, d := range hid {
		g.b2[j] += d
	}
	if policy {
		w.policyBackward(p, s, wt*w.policyWeight) // w.pre becomes the gradient by the policy's sums
	}
	hp := p.hp
	da := w.da
	for i, x := range acc {
		da[i] = 0
		if x <= 0 {
			continue // no input: no gradient to its weights, none through the clamp
		}
		r := p.w2[i*h2 : (i+1)*h2]
		gr := g.w2[i*h2 : (i+1)*h2]
		a := min(x, 1)
		var sum float64
		for j, d := range hid {
			gr[j] += d * a
			sum += d * r[j]
		}
		if policy {
			r := p.pw[i*hp : (i+1)*hp]
			gr := g.pw[i*hp : (i+1)*hp]
			for j, d := range w.pre {
				gr[j] += d * a
				sum += d * r[j]
			}
		}
		if x < 1 {
			da[i] = sum // the clamp passes a gradient inside (0, 1) only
		}
	}
	for half, feats := range [2][]int32{s.Us, s.Them} {
		d := da[half*h1 : (half+1)*h1]
		for i, x := range d {
			g.b1[i] += x
		}
		for _, f := range feats {
			for _, row := range [2]int32{f, virtualBase + f%nnue.PieceFeatures} {
				gr := g.w1[int(row)*h1 : int(row+1)*h1]
				for i, x := range d {
					gr[i] += x
				}
				w.touched = append(w.touched, row)
			}
		}
	}
	return total
}

// policyForward computes the policy head on the activations in w.acc (nnue.Model gives
// the formula): its hidden layer, each legal move's logit and their softmax (in w.z), and
// the cross-entropy against the sample's target and the agreement into w.last.
func (w *worker) policyForward(p *params, s *Sample) {
	hp := p.hp
	pre := w.pre
	copy(pre, p.pb)
	for i, x := range w.acc {
		x = clamp01(x)
		if x == 0 {
			continue
		}
		r := p.pw[i*hp : (i+1)*hp]
		for j := range pre {
			pre[j] += x * r[j]
		}
	}
	for j, x := range pre {
		w.ph[j] = clamp01(x)
	}
	w.z = w.z[:0]
	lo := int32(0)
	hi := math.Inf(-1)
	for _, end := range s.MoveEnds {
		var z float64
		for _, f := range s.MoveFeats[lo:end] {
			z += p.pc[f]
			r := p.pe[int(f)*hp : int(f+1)*hp]
			for j, x := range w.ph {
				z += x * r[j]
			}
		}
		lo = end
		w.z = append(w.z, z)
		hi = max(hi, z)
	}
	// The target's most probable move, and how many moves the model ranks above it.
	label := 0
	for k, t := range s.Probs {
		if t > s.Probs[label] {
			label = k
		}
	}
	above := 0
	for k, z := range w.z {
		if z > w.z[label] || (z == w.z[label] && k < label) {
			above++
		}
	}
	var sum float64
	for k, z := range w.z {
		w.z[k] = math.Exp(z - hi)
		sum += w.z[k]
	}
	logSum := math.Log(sum)
	var ce float64
	for k, t := range s.Probs {
		if t > 0 {
			ce -= float64(t) * (math.Log(w.z[k]) - logSum)
		}
		w.z[k] /= sum
	}
	w.last.policy, w.last.labelled = ce, true
	w.last.top1, w.last.top3 = above == 0, above < 3
}

// policyBackward adds the gradient of scale times the cross-entropy to the policy head's
// move table and biases, and leaves in w.pre the gradient by the head's hidden sums (zero
// where the clamp passes none), for its hidden weights and the accumulator.
func (w *worker) policyBackward(p *params, s *Sample, scale float64) {
	hp := p.hp
	g := w.grad
	clear(w.dph)
	lo := int32(0)
	for k, end := range s.MoveEnds {
		dz := scale * (w.z[k] - float64(s.Probs[k])) // softmax's gradient of the cross-entropy
		feats := s.MoveFeats[lo:end]
		lo = end
		if dz == 0 {
			continue
		}
		for _, f := range feats {
			g.pc[f] += dz
			r := p.pe[int(f)*hp : int(f+1)*hp]
			gr := g.pe[int(f)*hp : int(f+1)*hp]
			for j, x := range w.ph {
				gr[j] += dz * x
				w.dph[j] += dz * r[j]
			}
		}
	}
	for j, x := range w.pre {
		d := 0.0
		if x > 0 && x < 1 {
			d = w.dph[j]
		}
		w.pre[j] = d
		g.pb[j] += d
	}
}

func clamp01(x float64) float64 { return min(max(x, 0), 1) }

// adam is Adam (Kingma and Ba, "Adam: A Method for Stochastic Optimization", 2015) with
// its usual constants.
type adam struct {
	first  int // the first of params.all it moves (firstPolicy: the policy head alone)
	lr     float64
	decay  float64 // on the first layer's king rows
	m, v   [][]float64
	t      int
	b1, b2 float64
}

func newAdam(p *params, lr, decay float64) *adam {
	a := &adam{lr: lr, decay: decay, b1: 0.9, b2: 0.999}
	for _, x := range p.all {
		a.m = append(a.m, make([]float64, len(x)))
		a.v = append(a.v, make([]float64, len(x)))
	}
	return a
}

// step moves p against the gradient g; the weights are kept within what the search's
// quantisation holds (nnue.MaxWeight1 for the first layer, a fourth of it with the
// virtual rows added in twice, nnue.MaxWeight2 after).
func (a *adam) step(p, g *params) {
	a.t++
	c1 := 1 - math.Pow(a.b1, float64(a.t))
	c2 := 1 - math.Pow(a.b2, float64(a.t))
	shrink := 1 - a.lr*a.decay
	kingRows := virtualBase * p.h1
	for k, x := range p.all {
		if k < a.first {
			continue
		}
		gk, m, v := g.all[k], a.m[k], a.v[k]
		limit := float64(nnue.MaxWeight2)
		if k < 2 {
			limit = nnue.MaxWeight1 / 4
		}
		for i := range x {
			gi := gk[i]
			if gi == 0 && m[i] == 0 {
				continue // a row never reached: Adam would not move it
			}
			if k == 0 && i < kingRows {
				x[i] *= shrink
			}
			m[i] = a.b1*m[i] + (1-a.b1)*gi
			v[i] = a.b2*v[i] + (1-a.b2)*gi*gi
			x[i] -= a.lr * (m[i] / c1) / (math.Sqrt(v[i]/c2) + 1e-8)
			x[i] = min(max(x[i], -limit), limit)
		}
	}
}

// Fit trains a model on train, measuring held after every epoch and returning the model
// of the epoch with the least held-out loss (the last epoch's without held-out samples).
func Fit(train, held []Sample, o Options) (*nnue.Model, []Epoch, error) {
	if len(train) == 0 {
		return nil, nil, errors.New("netfit: no training samples")
	}
	if err := o.Validate(); err != nil {
		return nil, nil, err
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x6e6e7565))
	p := newParams(o.Hidden1, o.Hidden2, o.Policy)
	p.init(r) // also with a start: the order of examples is drawn from r alike
	if m := o.Start; m != nil {
		if m.Hidden1 != o.Hidden1 || m.Hidden2 != o.Hidden2 {
			return nil, nil, fmt.Errorf("netfit: start model is %d×%d, the options ask for %d×%d", m.Hidden1, m.Hidden2, o.Hidden1, o.Hidden2)
		}
		// A start without a policy head keeps the drawn one: its value is refined and
		// its policy learnt.
		if m.Policy != nil && m.Policy.Hidden != o.Policy {
			return nil, nil, fmt.Errorf("netfit: start model's policy head has %d units, the options ask for %d", m.Policy.Hidden, o.Policy)
		}
		p.from(m)
	}
	opt := newAdam(p, o.LearningRate, o.Decay)
	if o.PolicyOnly {
		opt.first = firstPolicy
	}
	workers := make([]*worker, o.Threads)
	for i := range workers {
		workers[i] = newWorker(o.Hidden1, o.Hidden2, o.Policy, o.PolicyWeight)
	}
	total := newParams(o.Hidden1, o.Hidden2, o.Policy)
	var touched []int32 // the rows of total.w1 with a gradient
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	batches := (len(train) + o.Batch - 1) / o.Batch
	var epochs []Epoch
	best, bestLoss, since := p.clone(), math.Inf(1), 0
	for e := 1; e <= o.Epochs; e++ {
		start := time.Now()
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var sum float64
		for b := range batches {
			idx := order[b*o.Batch : min((b+1)*o.Batch, len(order))]
			select {
			case <-o.Done: // a nil channel never is ready
				return nil, epochs, ErrStopped
			default:
			}
			sum += batchStep(p, total, &touched, workers, train, idx)
			opt.step(p, total)
			if o.OnBatch != nil {
				o.OnBatch((e-1)*batches+b+1, o.Epochs*batches)
			}
		}
		ep := Epoch{N: e, TrainLoss: sum / float64(batches)}
		ep.HeldLoss, ep.Held = measure(p, held, workers[0])
		ep.Seconds = time.Since(start).Seconds()
		epochs = append(epochs, ep)
		if o.OnEpoch != nil {
			o.OnEpoch(ep)
		}
		if len(held) == 0 {
			best = p
			continue
		}
		if ep.HeldLoss < bestLoss {
			best, bestLoss, since = p.clone(), ep.HeldLoss, 0
		} else if since++; since >= o.Patience {
			break
		}
	}
	return best.model(), epochs, nil
}

// batchStep computes the mean gradient of the samples idx into total, the shards on
// their own goroutines, and returns their mean loss.
func batchStep(p, total *params, touched *[]int32, workers []*worker, samples []Sample, idx []int) float64 {
	n := len(workers)
	losses := make([]float64, n)
	var wg sync.WaitGroup
	for k, w := range workers {
		lo, hi := k*len(idx)/n, (k+1)*len(idx)/n
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, i := range idx[lo:hi] {
				losses[k] += w.loss(p, &samples[i], true)
			}
		}()
	}
	wg.Wait()
	scale := 1 / float64(len(idx))
	h1 := p.h1
	for _, t := range total.all[1:] {
		clear(t)
	}
	// The first layer's gradient lives only on the rows a batch touched: clear the last
	// batch's rows, then fill this batch's.
	for _, row := range *touched {
		clear(total.w1[int(row)*h1 : int(row+1)*h1])
	}
	*touched = (*touched)[:0]
	var loss float64
	for k, w := range workers {
		for j := 1; j < len(total.all); j++ {
			dst, src := total.all[j], w.grad.all[j]
			for i, x := range src {
				dst[i] += x * scale
			}
			clear(src)
		}
		loss += losses[k]
	}
	for _, w := range workers {
		for _, row := range w.touched {
			src := w.grad.w1[int(row)*h1 : int(row+1)*h1]
			dst := total.w1[int(row)*h1 : int(row+1)*h1]
			for i, x := range src {
				dst[i] += x * scale
			}
			clear(src)
		}
		*touched = append(*touched, w.touched...)
		w.touched = w.touched[:0]
	}
	return loss * scale
}

// Loss is the mean loss of model m on samples (NaN for none) with the given policy
// weight: the held-out loss a fit would report for it.
func Loss(m *nnue.Model, samples []Sample, policyWeight float64) float64 {
	p, w := paramsOf(m, policyWeight)
	loss, _ := measure(p, samples, w)
	return loss
}

// paramsOf returns m's parameters and a worker for them.
func paramsOf(m *nnue.Model, policyWeight float64) (*params, *worker) {
	hp := 0
	if m.Policy != nil {
		hp = m.Policy.Hidden
	}
	p := newParams(m.Hidden1, m.Hidden2, hp)
	p.from(m)
	return p, newWorker(m.Hidden1, m.Hidden2, hp, policyWeight)
}

// Measure returns the figures of model m on samples.
func Measure(m *nnue.Model, samples []Sample) Metrics {
	p, w := paramsOf(m, 0)
	_, out := measure(p, samples, w)
	return out
}

// measure returns the mean loss of p on samples as the fit minimises it with w's policy
// weight (NaN for no samples), and its figures.
func measure(p *params, samples []Sample, w *worker) (float64, Metrics) {
	nan := math.NaN()
	if len(samples) == 0 {
		return nan, Metrics{Value: nan, Policy: nan, Top1: nan, Top3: nan}
	}
	var sum, wt, value, pol, top1, top3, pwt float64
	n := 0
	for i := range samples {
		s := &samples[i]
		sum += w.loss(p, s, false)
		x := float64(s.Weight)
		wt += x
		value += x * w.last.value
		if w.last.labelled {
			n++
			pwt += x
			pol += x * w.last.policy
			if w.last.top1 {
				top1 += x
			}
			if w.last.top3 {
				top3 += x
			}
		}
	}
	out := Metrics{Value: value / wt, Policy: nan, Top1: nan, Top3: nan, Labelled: n}
	if n > 0 {
		out.Policy, out.Top1, out.Top3 = pol/pwt, top1/pwt, top3/pwt
	}
	return sum / wt, out
}

// MarshalJSON writes a figure that is NaN (no samples for it) as null.
func (m Metrics) MarshalJSON() ([]byte, error) {
	num := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	return json.Marshal(struct {
		Value    *float64 `json:"value_loss"`
		Policy   *float64 `json:"policy_cross_entropy"`
		Top1     *float64 `json:"top1"`
		Top3     *float64 `json:"top3"`
		Labelled int      `json:"labelled"`
	}{num(m.Value), num(m.Policy), num(m.Top1), num(m.Top3), m.Labelled})
}

// Hyper is a fit's hyperparameters: the one type of the settings train fit and train loop
// share (their flags are made from it, cmd/train), with the targets' mix and the held-out
// split beside the optimiser's. A loop's provenance keeps it under these keys.
type Hyper struct {
	Epochs       int     `json:"epochs"`        // the most passes over the training positions
	Patience     int     `json:"patience"`      // epochs without a better held-out loss before stopping
	Batch        int     `json:"batch"`         // positions per minibatch
	LearningRate float64 `json:"learning_rate"` // Adam's step size
	Threads      int     `json:"threads"`       // shards of a minibatch (the result depends on it)
	Decay        float64 `json:"decay"`         // AdamW's decay of the king-square rows (Options.Decay)
	PolicyWeight float64 `json:"policy_weight"` // the policy's cross-entropy against the value's squared error
	// Lambda is the weight of the game's result in the value's target, the rest the
	// search's root value (data.Example.Target): lc0's and KataGo's mix of the two.
	Lambda  float64 `json:"lambda"`
	HeldOut float64 `json:"held_out"` // fraction of games held out, by a hash of the game id
}

// DefaultHyper is DefaultOptions' optimiser with λ = 0.5 and a tenth of the games held out.
func DefaultHyper() Hyper {
	d := DefaultOptions()
	return Hyper{Epochs: d.Epochs, Patience: d.Patience, Batch: d.Batch, LearningRate: d.LearningRate,
		Threads: d.Threads, Decay: d.Decay, PolicyWeight: d.PolicyWeight, Lambda: 0.5, HeldOut: 0.1}
}

// Apply sets o's optimiser settings to h's.
func (h Hyper) Apply(o *Options) {
	o.Epochs, o.Patience, o.Batch, o.LearningRate, o.Threads, o.Decay, o.PolicyWeight =
		h.Epochs, h.Patience, h.Batch, h.LearningRate, h.Threads, h.Decay, h.PolicyWeight
}

// Validate reports the first of h's settings out of range, by the name of its flag.
func (h Hyper) Validate() error {
	switch {
	case !(h.Lambda >= 0 && h.Lambda <= 1):
		return fmt.Errorf("netfit: lambda %v: need 0 to 1", h.Lambda)
	case !(h.HeldOut >= 0 && h.HeldOut < 1):
		return fmt.Errorf("netfit: held-out %v: need 0 to below 1", h.HeldOut)
	}
	o := DefaultOptions()
	h.Apply(&o)
	return o.Validate()
}
