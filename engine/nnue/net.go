package nnue

import (
	"fmt"
	"math"

	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// Quantisation scales, as in Stockfish's NNUE: an activation in [0, 1] is an integer
// 0..QA; the feature transformer's weights and biases are multiplied by QA (so the
// accumulator is the activation's scale), the later layers' weights by QB, their biases by
// QA·QB (the scale of a weighted sum of activations).
//
// The policy head's weights are scaled by QP, four times QB: its logits are not squashed
// by a tanh, so their rounding shows more than the value's (policy_test.go states the
// bound), and the same float bound MaxWeight2 still fits an int16 (127·256 = 32512).
const (
	QA = 127
	QB = 64
	QP = 256
)

// MaxWeight1 bounds the feature transformer's weights and biases (in float) so that an
// accumulator of the bias and MaxActive features, QA·(MaxActive+1)·MaxWeight1 = 30480,
// cannot overflow an int16. MaxWeight2 bounds the later layers' weights (QB·MaxWeight2
// fits an int16 with room to spare). A trainer keeps its weights within them.
const (
	MaxWeight1 = 20
	MaxWeight2 = 127
)

// Net is a quantised network: the form the search evaluates and evaluation files hold.
// It is read-only once made, so one Net serves every search goroutine; each goroutine
// evaluates through an Accumulator of its own.
type Net struct {
	Header Header
	h1, h2 int
	w1     []int16 // NumFeatures rows of h1
	b1     []int16
	w2     []int16 // 2·h1 rows of h2
	b2     []int32
	w3     []int16
	b3     int32
	// The policy head (hp = 0: none): its hidden layer's weights (2·h1 rows of hp, at
	// scale QP) and biases (at QA·QP), the move table (NumMoveFeatures rows of hp) and the
	// move features' biases. The file holds the table at scale QP; the search keeps it in
	// float32 (ef, cf), since a move's logit is a few short dot products of floats.
	hp int
	wp []int16
	bp []int32
	e  []int16
	c  []int32
	ef []float32
	cf []float32
}

// HasPolicy reports whether n has a policy head.
func (n *Net) HasPolicy() bool { return n.hp > 0 }

// PolicySize returns the policy head's hidden size, 0 without one.
func (n *Net) PolicySize() int { return n.hp }

// Sizes returns the accumulator size (per perspective) and the hidden layer's.
func (n *Net) Sizes() (hidden1, hidden2 int) { return n.h1, n.h2 }

// Quantise rounds m to a Net with header h (whose sizes and feature set it fills in). It
// fails if a weight lies outside MaxWeight1 or MaxWeight2.
func Quantise(m *Model, h Header) (*Net, error) {
	if err := checkSizes(m.Hidden1, m.Hidden2); err != nil {
		return nil, err
	}
	n := &Net{h1: m.Hidden1, h2: m.Hidden2}
	h.Version, h.Family, h.FeatureSet, h.Hidden1, h.Hidden2 = versionValueOnly, Family, FeatureSet, m.Hidden1, m.Hidden2
	h.Policy, h.MoveFeatureSet = 0, ""
	if pol := m.Policy; pol != nil {
		if pol.Hidden < 1 || pol.Hidden > MaxPolicyHidden {
			return nil, fmt.Errorf("nnue: quantise: policy size %d: need 1 to %d", pol.Hidden, MaxPolicyHidden)
		}
		h.Version, h.Policy, h.MoveFeatureSet = Version, pol.Hidden, MoveFeatureSet
	}
	n.Header = h
	var err error
	q16 := func(name string, xs []float32, scale, limit float64) []int16 {
		out := make([]int16, len(xs))
		for i, x := range xs {
			if !(math.Abs(float64(x)) <= limit) && err == nil {
				err = fmt.Errorf("nnue: quantise: %s[%d] is %v, beyond ±%v", name, i, x, limit)
			}
			out[i] = int16(math.Round(float64(x) * scale))
		}
		return out
	}
	n.w1 = q16("W1", m.W1, QA, MaxWeight1)
	n.b1 = q16("B1", m.B1, QA, MaxWeight1)
	n.w2 = q16("W2", m.W2, QB, MaxWeight2)
	n.w3 = q16("W3", m.W3, QB, MaxWeight2)
	n.b2 = make([]int32, len(m.B2))
	for i, x := range m.B2 {
		n.b2[i] = int32(math.Round(float64(x) * QA * QB))
	}
	n.b3 = int32(math.Round(float64(m.B3) * QA * QB))
	if pol := m.Policy; pol != nil {
		// The policy's weights are scaled by QP, its hidden biases by QA·QP (the scale
		// of a weighted sum of activations), the move biases by QP.
		n.hp = pol.Hidden
		n.wp = q16("policy W", pol.W, QP, MaxWeight2)
		n.e = q16("policy E", pol.E, QP, MaxWeight2)
		n.bp = make([]int32, len(pol.B))
		n.c = make([]int32, len(pol.C))
		for name, xs := range map[string][]float32{"policy B": pol.B, "policy C": pol.C} {
			for i, x := range xs {
				if !(math.Abs(float64(x)) <= MaxWeight2) && err == nil {
					err = fmt.Errorf("nnue: quantise: %s[%d] is %v, beyond ±%v", name, i, x, MaxWeight2)
				}
			}
		}
		for i, x := range pol.B {
			n.bp[i] = int32(math.Round(float64(x) * QA * QP))
		}
		for i, x := range pol.C {
			n.c[i] = int32(math.Round(float64(x) * QP))
		}
		if err == nil {
			err = n.checkPolicySums()
		}
		n.floatTable()
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// Accumulator evaluates positions with a Net, keeping the feature transformer's output
// (one int16 vector per perspective) for the last position it saw. Evaluating another
// position updates it by the difference: the pieces that left or reached a square and the
// hand counts that changed, so that making or unmaking a few moves costs a few rows of
// additions; a perspective whose king moved is recomputed (every one of its features
// depends on the king's square). The search descends from the root on every playout, so
// consecutive leaves differ by a few pieces. Not safe for concurrent use.
type Accumulator struct {
	net   *Net
	acc   [2][]int16
	board [ms.NumSquares]ms.Piece
	hand  [2][ms.Rook + 1]uint8
	king  [2]ms.Square
	valid bool
	in    []int32   // scratch: the clamped activations, side to move first
	hid   []int32   // scratch: the hidden layer's sums
	pol   []float32 // the policy's hidden layer for the last EvaluatePolicy, in [0, 1]
	psum  []int32   // scratch: the policy's hidden sums
}

// NewAccumulator returns an accumulator for n, holding no position yet.
func (n *Net) NewAccumulator() *Accumulator {
	return &Accumulator{
		net:  n,
		acc:  [2][]int16{make([]int16, n.h1), make([]int16, n.h1)},
		in:   make([]int32, 2*n.h1),
		hid:  make([]int32, n.h2),
		pol:  make([]float32, n.hp),
		psum: make([]int32, n.hp),
	}
}

// Refresh recomputes the accumulator for pos from nothing.
func (a *Accumulator) Refresh(pos *ms.Position) {
	for c := ms.Sente; c <= ms.Gote; c++ {
		a.refresh(pos, c)
	}
	a.snapshot(pos)
	a.valid = true
}

func (a *Accumulator) refresh(pos *ms.Position, c ms.Color) {
	acc := a.acc[c]
	copy(acc, a.net.b1)
	var buf [MaxActive]int32
	for _, f := range Features(pos, c, buf[:0]) {
		a.add(c, f)
	}
}

func (a *Accumulator) snapshot(pos *ms.Position) {
	for s := range ms.Square(ms.NumSquares) {
		a.board[s] = pos.PieceAt(s)
	}
	for c := ms.Sente; c <= ms.Gote; c++ {
		for pt := ms.Pawn; pt <= ms.Rook; pt++ {
			a.hand[c][pt] = uint8(pos.Hand(c, pt))
		}
		a.king[c] = pos.KingSquare(c)
	}
}

func (a *Accumulator) add(c ms.Color, f int32) {
	acc := a.acc[c]
	h1 := len(acc)
	row := a.net.w1[int(f)*h1 : int(f)*h1+h1]
	for i := range acc {
		acc[i] += row[i]
	}
}

func (a *Accumulator) sub(c ms.Color, f int32) {
	acc := a.acc[c]
	h1 := len(acc)
	row := a.net.w1[int(f)*h1 : int(f)*h1+h1]
	for i := range acc {
		acc[i] -= row[i]
	}
}

// Update brings the accumulator from the last position it saw to pos by their difference
// (a Refresh when it has seen none).
func (a *Accumulator) Update(pos *ms.Position) {
	if !a.valid {
		a.Refresh(pos)
		return
	}
	var keep [2]bool // the perspectives updated by difference
	var base [2]int32
	for c := ms.Sente; c <= ms.Gote; c++ {
		keep[c] = pos.KingSquare(c) == a.king[c]
		base[c] = kingBase(a.king[c], c)
	}
	if keep[0] || keep[1] {
		for s := range ms.Square(ms.NumSquares) {
			old, now := a.board[s], pos.PieceAt(s)
			if old == now {
				continue
			}
			// A kept perspective's king stands on the same square in both
			// positions, so old and now are never that king.
			for c := ms.Sente; c <= ms.Gote; c++ {
				if !keep[c] {
					continue
				}
				if old != ms.NoPiece {
					a.sub(c, base[c]+boardFeature(old, s, c))
				}
				if now != ms.NoPiece {
					a.add(c, base[c]+boardFeature(now, s, c))
				}
			}
		}
		for owner := ms.Sente; owner <= ms.Gote; owner++ {
			for pt := ms.Pawn; pt <= ms.Rook; pt++ {
				old, now := int(a.hand[owner][pt]), pos.Hand(owner, pt)
				for c := ms.Sente; c <= ms.Gote; c++ {
					if !keep[c] {
						continue
					}
					for i := now; i < old; i++ {
						a.sub(c, base[c]+handFeature(owner, pt, i, c))
					}
					for i := old; i < now; i++ {
						a.add(c, base[c]+handFeature(owner, pt, i, c))
					}
				}
			}
		}
	}
	for c := ms.Sente; c <= ms.Gote; c++ {
		if !keep[c] {
			a.refresh(pos, c)
		}
	}
	a.snapshot(pos)
}

// Sums returns the accumulator of perspective c (read only), for tests and tools.
func (a *Accumulator) Sums(c ms.Color) []int16 { return a.acc[c] }

// Evaluate updates the accumulator to pos and returns the network's value of pos for its
// side to move, in (-1, 1).
func (a *Accumulator) Evaluate(pos *ms.Position) float32 { return a.forward(pos, false) }

// EvaluatePolicy is Evaluate that also computes the policy head's hidden layer for pos, so
// that MoveLogit then scores pos's moves. The network must have a policy head.
func (a *Accumulator) EvaluatePolicy(pos *ms.Position) float32 { return a.forward(pos, true) }

// MoveLogit returns the policy head's logit of a move of the position last given to
// EvaluatePolicy, from the move's active features (MoveContext.MoveFeatures).
func (a *Accumulator) MoveLogit(feats []int32) float32 {
	n := a.net
	hp := n.hp
	pol := a.pol
	var z float32
	for _, f := range feats {
		z += n.cf[f]
		z += dot(pol, n.ef[int(f)*hp:int(f)*hp+hp])
	}
	return z
}

// dot is the dot product of x and y (len(y) ≥ len(x)), in four running sums, which the
// processor adds side by side.
func dot(x, y []float32) float32 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float32
	j := 0
	for ; j+4 <= len(x); j += 4 {
		s0 += x[j] * y[j]
		s1 += x[j+1] * y[j+1]
		s2 += x[j+2] * y[j+2]
		s3 += x[j+3] * y[j+3]
	}
	for ; j < len(x); j++ {
		s0 += x[j] * y[j]
	}
	return (s0 + s1) + (s2 + s3)
}

func (a *Accumulator) forward(pos *ms.Position, policy bool) float32 {
	a.Update(pos)
	n := a.net
	stm := pos.SideToMove()
	in := a.in
	h1 := n.h1
	for i, x := range a.acc[stm] {
		in[i] = int32(min(max(x, 0), QA))
	}
	for i, x := range a.acc[stm.Opponent()] {
		in[h1+i] = int32(min(max(x, 0), QA))
	}
	hid := a.hid
	copy(hid, n.b2)
	h2 := n.h2
	if policy {
		// Both heads' hidden layers in one pass over the activations.
		hp := n.hp
		sum := a.psum
		copy(sum, n.bp)
		for i, x := range in {
			if x == 0 {
				continue
			}
			row := n.w2[i*h2 : i*h2+h2]
			row = row[:len(hid)]
			for j := range hid {
				hid[j] += x * int32(row[j])
			}
			prow := n.wp[i*hp : i*hp+hp]
			prow = prow[:len(sum)]
			for j := range sum {
				sum[j] += x * int32(prow[j])
			}
		}
		for j, s := range sum {
			a.pol[j] = float32(min(max(s, 0), QA*QP)) / (QA * QP)
		}
	} else {
		for i, x := range in {
			if x == 0 {
				continue
			}
			row := n.w2[i*h2 : i*h2+h2]
			row = row[:len(hid)]
			for j := range hid {
				hid[j] += x * int32(row[j])
			}
		}
	}
	z := n.b3
	for j, s := range hid {
		z += min(max(s/QB, 0), QA) * int32(n.w3[j])
	}
	return float32(math.Tanh(float64(z) / (QA * QB)))
}

// checkPolicySums refuses a policy head whose hidden sums could overflow an int32: with
// every activation at QA, a unit's bias and weights must stay within it. MaxWeight2 alone
// does not ensure it for the largest accumulators (2·MaxHidden1 inputs), but any trained
// network is far inside.
func (n *Net) checkPolicySums() error {
	for j := range n.hp {
		bound := int64(n.bp[j])
		if bound < 0 {
			bound = -bound
		}
		for i := range 2 * n.h1 {
			w := int64(n.wp[i*n.hp+j])
			bound += QA * max(w, -w)
		}
		if bound > math.MaxInt32 {
			return fmt.Errorf("nnue: policy unit %d: its weights could overflow the integer sums", j)
		}
	}
	return nil
}

// floatTable fills the float copy of the move table that MoveLogit reads.
func (n *Net) floatTable() {
	n.ef = make([]float32, len(n.e))
	for i, x := range n.e {
		n.ef[i] = float32(x) / QP
	}
	n.cf = make([]float32, len(n.c))
	for i, x := range n.c {
		n.cf[i] = float32(x) / QP
	}
}

// Model returns n in floating point: every weight divided by the scale Quantise
// multiplied it by. Quantising the result gives n again; a trainer starts from it to
// refine a network (a warm start).
func (n *Net) Model() *Model {
	m, _ := NewModel(n.h1, n.h2) // n's sizes were checked when it was made
	for i, x := range n.w1 {
		m.W1[i] = float32(x) / QA
	}
	for i, x := range n.b1 {
		m.B1[i] = float32(x) / QA
	}
	for i, x := range n.w2 {
		m.W2[i] = float32(x) / QB
	}
	for i, x := range n.w3 {
		m.W3[i] = float32(x) / QB
	}
	for i, x := range n.b2 {
		m.B2[i] = float32(x) / (QA * QB)
	}
	m.B3 = float32(n.b3) / (QA * QB)
	if n.hp > 0 {
		_ = m.AddPolicy(n.hp) // n's policy size was checked when it was made
		pol := m.Policy
		for i, x := range n.wp {
			pol.W[i] = float32(x) / QP
		}
		copy(pol.E, n.ef)
		for i, x := range n.bp {
			pol.B[i] = float32(x) / (QA * QP)
		}
		copy(pol.C, n.cf)
	}
	return m
}
