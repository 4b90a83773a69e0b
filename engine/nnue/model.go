package nnue

import (
	"fmt"
	"math"

	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// Model is a network in floating point, the form a trainer fits. Its value for a position
// with feature sets us (the side to move's) and them (the other side's) is
//
//	a = clamp(B1 + Σ_{f∈us} W1[f], 0, 1) ‖ clamp(B1 + Σ_{f∈them} W1[f], 0, 1)   (2·Hidden1)
//	h = clamp(B2 + W2·a, 0, 1)                                                    (Hidden2)
//	v = tanh(B3 + W3·h)
//
// with clipped ReLUs as NNUE uses them (the clamp is what lets the search quantise the
// activations to 0..127).
//
// A model may have a policy head (Policy), which reads the same activations a:
//
//	p = clamp(PB + PW·a, 0, 1)                          (Policy.Hidden)
//	logit(m) = Σ_{f∈F(m)} (C[f] + E[f]·p)               for a legal move m
//
// where F(m) are the move's active features (moves.go). The search's prior of a move is
// the softmax of the logits over the legal moves (with a temperature, engine/eval).
type Model struct {
	Hidden1, Hidden2 int
	W1               []float32 // NumFeatures rows of Hidden1: the feature transformer
	B1               []float32 // Hidden1
	W2               []float32 // 2·Hidden1 rows of Hidden2: input-major, so that a zero input skips a row
	B2               []float32 // Hidden2
	W3               []float32 // Hidden2
	B3               float32
	Policy           *Policy // nil: no policy head (the evaluator's hand-set priors apply)
}

// Policy is the policy head of a Model.
type Policy struct {
	Hidden int
	W      []float32 // 2·Hidden1 rows of Hidden: input-major, as Model.W2
	B      []float32 // Hidden
	E      []float32 // NumMoveFeatures rows of Hidden: the move table
	C      []float32 // NumMoveFeatures: each move feature's bias
}

// MaxPolicyHidden bounds the policy head's hidden layer, as MaxHidden2 bounds the value's.
const MaxPolicyHidden = 256

// AddPolicy gives m a policy head of hidden units, every parameter zero (every legal move
// then has the same prior).
func (m *Model) AddPolicy(hidden int) error {
	if hidden < 1 || hidden > MaxPolicyHidden {
		return fmt.Errorf("nnue: policy size %d: need 1 to %d", hidden, MaxPolicyHidden)
	}
	m.Policy = &Policy{Hidden: hidden,
		W: make([]float32, 2*m.Hidden1*hidden), B: make([]float32, hidden),
		E: make([]float32, NumMoveFeatures*hidden), C: make([]float32, NumMoveFeatures)}
	return nil
}

// NewModel returns a model of the given sizes with every parameter zero.
func NewModel(hidden1, hidden2 int) (*Model, error) {
	if err := checkSizes(hidden1, hidden2); err != nil {
		return nil, err
	}
	return &Model{
		Hidden1: hidden1, Hidden2: hidden2,
		W1: make([]float32, NumFeatures*hidden1), B1: make([]float32, hidden1),
		W2: make([]float32, 2*hidden1*hidden2), B2: make([]float32, hidden2),
		W3: make([]float32, hidden2),
	}, nil
}

// Sizes above these are refused: they would break the search's speed long before its
// arithmetic, and a reader must not allocate what a corrupt header asks for.
const (
	MaxHidden1 = 1024
	MaxHidden2 = 256
)

func checkSizes(h1, h2 int) error {
	if h1 < 1 || h1 > MaxHidden1 || h2 < 1 || h2 > MaxHidden2 {
		return fmt.Errorf("nnue: sizes %d×%d: need 1 to %d and 1 to %d", h1, h2, MaxHidden1, MaxHidden2)
	}
	return nil
}

// Forward returns the model's value for the side to move, given the active features of
// the side to move (us) and of the other side (them).
func (m *Model) Forward(us, them []int32) float32 {
	return m.value(m.activations(us, them))
}

// activations is a: both halves of the feature transformer's output, clamped.
func (m *Model) activations(us, them []int32) []float32 {
	h1 := m.Hidden1
	a := make([]float32, 2*h1)
	for half, feats := range [2][]int32{us, them} {
		acc := a[half*h1 : (half+1)*h1]
		copy(acc, m.B1)
		for _, f := range feats {
			row := m.W1[int(f)*h1 : int(f+1)*h1]
			for i := range acc {
				acc[i] += row[i]
			}
		}
		for i := range acc {
			acc[i] = clamp01(acc[i])
		}
	}
	return a
}

func (m *Model) value(a []float32) float32 {
	h2 := m.Hidden2
	h := append([]float32(nil), m.B2...)
	for i, x := range a {
		if x == 0 {
			continue
		}
		row := m.W2[i*h2 : (i+1)*h2]
		for j := range h {
			h[j] += x * row[j]
		}
	}
	z := m.B3
	for j := range h {
		z += clamp01(h[j]) * m.W3[j]
	}
	return float32(math.Tanh(float64(z)))
}

// Value returns the model's value of pos for its side to move, in (-1, 1).
func (m *Model) Value(pos *ms.Position) float32 {
	stm := pos.SideToMove()
	var a, b [MaxActive]int32
	return m.Forward(Features(pos, stm, a[:0]), Features(pos, stm.Opponent(), b[:0]))
}

// Logits returns the policy head's logit of each move, given the active features of the
// side to move (us) and of the other side (them) and each move's features (MoveFeatures).
// The model must have a policy head.
func (m *Model) Logits(us, them []int32, moves [][]int32) []float32 {
	pol := m.Policy
	a := m.activations(us, them)
	hp := pol.Hidden
	p := append([]float32(nil), pol.B...)
	for i, x := range a {
		if x == 0 {
			continue
		}
		row := pol.W[i*hp : (i+1)*hp]
		for j := range p {
			p[j] += x * row[j]
		}
	}
	for j := range p {
		p[j] = clamp01(p[j])
	}
	out := make([]float32, len(moves))
	for k, feats := range moves {
		var z float32
		for _, f := range feats {
			z += pol.C[f]
			row := pol.E[int(f)*hp : int(f+1)*hp]
			for j, x := range p {
				z += x * row[j]
			}
		}
		out[k] = z
	}
	return out
}

// MoveLogits returns the policy head's logit of each of moves, legal moves of pos.
func (m *Model) MoveLogits(pos *ms.Position, moves []ms.Move) []float32 {
	stm := pos.SideToMove()
	var a, b [MaxActive]int32
	return m.Logits(Features(pos, stm, a[:0]), Features(pos, stm.Opponent(), b[:0]), MoveFeatures(pos, moves))
}

func clamp01(x float32) float32 { return min(max(x, 0), 1) }
