package nnue

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// randomPolicyModel is randomModel with a policy head of hp units, its weights of the
// size a trained one has.
func randomPolicyModel(t testing.TB, h1, h2, hp int, seed uint64) *Model {
	t.Helper()
	m := randomModel(t, h1, h2, seed)
	if err := m.AddPolicy(hp); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 3))
	fill := func(xs []float32, scale float64) {
		for i := range xs {
			xs[i] = float32(r.NormFloat64() * scale)
		}
	}
	fill(m.Policy.W, 0.3)
	fill(m.Policy.B, 0.2)
	fill(m.Policy.E, 0.5)
	fill(m.Policy.C, 0.5)
	return m
}

func mustSFEN(t testing.TB, sfen string) ms.Position {
	t.Helper()
	pos, err := ms.ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

func mustMove(t testing.TB, pos *ms.Position, usi string) ms.Move {
	t.Helper()
	m, err := pos.ParseMove(usi)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMoveFeaturesByHand checks the rows of some moves worked out by hand from the layout
// in moves.go (squares: 0 is 5a, 4 is 1a, 20 is 5e, 24 is 1e; Gote sees square s as 24-s).
func TestMoveFeaturesByHand(t *testing.T) {
	cases := []struct {
		name, sfen, move string
		want             []int32
		check            bool
	}{
		// Sente's silver 3e (22) to 2d (18): move row 22·25+18 = 568; a silver (kind 1)
		// on 18: 1375+25+18 = 1418. Nothing of Gote's attacks 3e or 2d at the start.
		{"silver from the start", "rbsgk/4p/5/P4/KGSBR b - 1", "3e2d", []int32{568, 1418}, false},
		// Gote's silver 3a (2, seen as 22) to 4b (6, seen as 18): the same rows as Sente's
		// 3e2d, by the half turn.
		{"Gote's mirror move", "rbsgk/4p/5/P4/KGSBR w - 1", "3a4b", []int32{568, 1418}, false},
		// A silver drop on 3c (12) from Sente's hand: drop row 1250+1·25+12 = 1287, a
		// silver (kind 1) on 12: 1375+25+12 = 1412. Gote's bishop on 4a sees 3b, 2c, 1d.
		{"silver drop", "rbsgk/4p/5/P4/KG1BR b S 1", "S*3c", []int32{1287, 1412}, false},
		// The start position: Sente's rook 1e (24) takes Gote's pawn on 1b (9), which is
		// not in the promotion zone: move row 24·25+9 = 609; capture of a pawn (kind 0):
		// 1625; a rook (kind 4) on 9: 1375+100+9 = 1484; it checks the king on 1a: 1634;
		// 1b is attacked by Gote's king and gold and defended by nothing else of Sente's:
		// threat 1635+2·4+0 = 1643.
		{"rook takes, checking", "rbsgk/4p/5/P4/KGSBR b - 1", "1e1b", []int32{609, 1625, 1484, 1634, 1643}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pos := mustSFEN(t, c.sfen)
			m := mustMove(t, &pos, c.move)
			ctx := NewMoveContext(&pos)
			got, check := ctx.MoveFeatures(m, nil)
			if !slices.Equal(got, c.want) || check != c.check {
				t.Errorf("%s in %s: features %v, check %v; want %v, %v", c.move, c.sfen, got, check, c.want, c.check)
			}
		})
	}
}

// TestMoveFeaturesEscape: Gote's rook on 5a attacks file 5 down to Sente's silver on 5d
// (15); Sente's gold on 4d (16) guards 5c (10). The silver's step to 4c (11), which the rook
// does not reach, has the escape row of a silver (1655+1) and no threat row; its step to
// 5c, still on the rook's file, has the escape row and the defended threat row of a silver
// (1635+2·1+1).
func TestMoveFeaturesEscape(t *testing.T) {
	pos := mustSFEN(t, "r3k/5/5/SG3/4K b - 1")
	for _, c := range []struct {
		move string
		want []int32
	}{
		{"5d4c", []int32{15*25 + 11, escapeBase + 1, pieceToBase + 25 + 11}},
		{"5d5c", []int32{15*25 + 10, escapeBase + 1, pieceToBase + 25 + 10, threatBase + 3}},
	} {
		t.Run(c.move, func(t *testing.T) {
			ctx := NewMoveContext(&pos)
			if got, _ := ctx.MoveFeatures(mustMove(t, &pos, c.move), nil); !slices.Equal(got, c.want) {
				t.Errorf("%s: features %v, want %v", c.move, got, c.want)
			}
		})
	}
}

// TestMoveFeaturesAgree checks the rows that state facts against the rules' own answers,
// over every legal move of positions of random games: the check row against
// Position.GivesCheck (which makes the move), the capture row against the piece on the
// to-square, the threat and escape rows against Position.IsAttacked; and that every row
// is in range and no two moves of a position have the same features.
func TestMoveFeaturesAgree(t *testing.T) {
	moves := 0
	randomWalk(21, 2000, func(pos *ms.Position) {
		ctx := NewMoveContext(pos)
		them := pos.SideToMove().Opponent()
		seen := map[string]ms.Move{}
		for _, m := range pos.LegalMoves(nil) {
			moves++
			f, check := ctx.MoveFeatures(m, nil)
			if len(f) < 2 || len(f) > MaxMoveActive {
				t.Fatalf("%s %s: %d features", pos.SFEN(), m, len(f))
			}
			has := func(lo, hi int32) bool {
				return slices.ContainsFunc(f, func(x int32) bool { return x >= lo && x < hi })
			}
			for _, x := range f {
				if x < 0 || x >= NumMoveFeatures {
					t.Fatalf("%s %s: feature %d out of range", pos.SFEN(), m, x)
				}
			}
			if gives := pos.GivesCheck(m); check != gives || has(checkRow, checkRow+1) != gives {
				t.Fatalf("%s %s: check %v (row %v), GivesCheck %v", pos.SFEN(), m, check, has(checkRow, checkRow+1), gives)
			}
			capture := !m.IsDrop() && pos.PieceAt(m.To()) != ms.NoPiece
			if has(captureBase, checkRow) != capture {
				t.Fatalf("%s %s: capture row %v, capture %v", pos.SFEN(), m, has(captureBase, checkRow), capture)
			}
			if has(threatBase, escapeBase) != pos.IsAttacked(m.To(), them) {
				t.Fatalf("%s %s: threat row %v, to-square attacked %v", pos.SFEN(), m, has(threatBase, escapeBase), pos.IsAttacked(m.To(), them))
			}
			escape := !m.IsDrop() && pos.IsAttacked(m.From(), them)
			if has(escapeBase, NumMoveFeatures) != escape {
				t.Fatalf("%s %s: escape row %v, from-square attacked %v", pos.SFEN(), m, has(escapeBase, NumMoveFeatures), escape)
			}
			key := itoaSlice(f)
			if other, ok := seen[key]; ok {
				t.Fatalf("%s: %s and %s have the same features %v", pos.SFEN(), other, m, f)
			}
			seen[key] = m
		}
	})
	t.Logf("%d moves checked", moves)
}

func itoaSlice(f []int32) string {
	var b strings.Builder
	for _, x := range f {
		b.WriteString(itoa(int(x)))
		b.WriteByte(',')
	}
	return b.String()
}

// logits returns the quantised network's logit of every legal move of pos.
func logits(acc *Accumulator, pos *ms.Position, moves []ms.Move) []float32 {
	ctx := NewMoveContext(pos)
	out := make([]float32, len(moves))
	var buf [MaxMoveActive]int32
	for i, m := range moves {
		f, _ := ctx.MoveFeatures(m, buf[:0])
		out[i] = acc.MoveLogit(f)
	}
	return out
}

// TestIncrementalMatchesRefreshPolicy: for both heads, the accumulator updated by
// differences gives the same value and the same logit for every legal move as one
// computed from nothing, after every move made or taken back in random games.
func TestIncrementalMatchesRefreshPolicy(t *testing.T) {
	n := quantised(t, randomPolicyModel(t, 32, 8, 16, 1))
	inc := n.NewAccumulator()
	steps := 5000
	if testing.Short() {
		steps = 1000
	}
	step := 0
	randomWalk(4, steps, func(pos *ms.Position) {
		step++
		full := n.NewAccumulator()
		vi, vf := inc.EvaluatePolicy(pos), full.EvaluatePolicy(pos)
		moves := pos.LegalMoves(nil)
		li, lf := logits(inc, pos, moves), logits(full, pos, moves)
		if vi != vf || !slices.Equal(li, lf) {
			t.Fatalf("step %d, %s: incremental value %v logits %v; refreshed %v %v", step, pos.SFEN(), vi, li, vf, lf)
		}
		if v := inc.Evaluate(pos); v != vi {
			t.Fatalf("step %d, %s: Evaluate %v, EvaluatePolicy %v", step, pos.SFEN(), v, vi)
		}
	})
}

// policyTolerance is the stated bound on |quantised - float| logit. The quantised
// network's accumulator is off the float one's by the rounding of the feature transformer
// (0.5/QA a weight, over a dozen features: about 0.008 a unit), which the policy's hidden
// layer sums over 2·h1 inputs (about 0.03 a unit for h1 = 64 and weights near 0.3), and its
// own weights' rounding at QP adds less; a logit sums a move's three or so rows of 16 units
// weighted about 0.5 each, so it is off by about 0.1 (one standard deviation), and over
// tens of thousands of moves the largest difference stays within 0.5. What the search sees
// is the softmax: its probabilities are held within 0.06, and the mean logit difference
// within a tenth of the bound.
const policyTolerance = 0.5

// TestPolicyQuantisedNearFloat checks the quantised logits against the float model's, and
// the softmax probabilities, on every legal move of positions of random games.
func TestPolicyQuantisedNearFloat(t *testing.T) {
	m := randomPolicyModel(t, 64, 16, 16, 2)
	n := quantised(t, m)
	acc := n.NewAccumulator()
	var worst, worstP, sum float64
	count := 0
	randomWalk(5, 2000, func(pos *ms.Position) {
		moves := pos.LegalMoves(nil)
		acc.EvaluatePolicy(pos)
		q, f := logits(acc, pos, moves), m.MoveLogits(pos, moves)
		pq, pf := softmax(q), softmax(f)
		for i := range moves {
			d := math.Abs(float64(q[i] - f[i]))
			if d > policyTolerance {
				t.Fatalf("%s %s: quantised logit %v, float %v: off by %v, beyond %v", pos.SFEN(), moves[i], q[i], f[i], d, policyTolerance)
			}
			worst = max(worst, d)
			worstP = max(worstP, math.Abs(pq[i]-pf[i]))
			sum += d
			count++
		}
	})
	t.Logf("quantised vs float logits: largest difference %.4f, mean %.4f, bound %.2f; largest probability difference %.4f", worst, sum/float64(count), policyTolerance, worstP)
	if mean := sum / float64(count); mean > policyTolerance/10 {
		t.Errorf("mean logit difference %.4f; want under %.4f", mean, policyTolerance/10)
	}
	if worstP > 0.06 {
		t.Errorf("largest probability difference %.4f; want at most 0.06", worstP)
	}
}

func softmax(z []float32) []float64 {
	hi := math.Inf(-1)
	for _, x := range z {
		hi = max(hi, float64(x))
	}
	out := make([]float64, len(z))
	var sum float64
	for i, x := range z {
		out[i] = math.Exp(float64(x) - hi)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// TestPolicyByHand: a policy made by hand that likes captures: the capture rows' biases
// are 2, everything else 0; in a position with one capture, its logit is 2 and every
// other move's 0, in the float model and the quantised network alike.
func TestPolicyByHand(t *testing.T) {
	m, _ := NewModel(1, 1)
	if err := m.AddPolicy(1); err != nil {
		t.Fatal(err)
	}
	for k := range captureRows {
		m.Policy.C[captureBase+k] = 2
	}
	n := quantised(t, m)
	acc := n.NewAccumulator()
	// Sente's rook on 1e can take Gote's pawn on 1b; no other move captures.
	pos := mustSFEN(t, "rbsgk/4p/5/5/KGSB1 b - 1")
	moves := pos.LegalMoves(nil)
	acc.EvaluatePolicy(&pos)
	q, f := logits(acc, &pos, moves), m.MoveLogits(&pos, moves)
	for i, mv := range moves {
		want := float32(0)
		if s := mv.String(); s == "1e1b" || s == "1e1b+" {
			want = 2
		}
		if q[i] != want || f[i] != want {
			t.Errorf("%s: quantised %v, float %v; want %v", mv, q[i], f[i], want)
		}
	}
}

func TestPolicyFileRoundTrip(t *testing.T) {
	n := quantised(t, randomPolicyModel(t, 8, 4, 6, 3))
	data, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The version 1 layout (TestFileRoundTrip) plus the policy section of file.go: a
	// uint16 size, the string "moves-5x5" (2+9), a uint32 row count, the uint16 scale, PW (2·8·6 int16),
	// PB (6 int32), E (1665·6 int16), C (1665 int32).
	base := 10 + 6 + 12 + 16 + 2 + len("random weights") + 2 + len("go test") +
		2*(NumFeatures*8+8+2*8*4+4) + 4*(4+1) + 4
	want := base + 2 + 11 + 4 + 2 + 2*(2*8*6) + 4*6 + 2*(1665*6) + 4*1665
	if len(data) != want {
		t.Errorf("file has %d bytes, want %d", len(data), want)
	}
	if data[8] != 2 || n.Header.Version != 2 || n.Header.Policy != 6 || n.Header.MoveFeatureSet != "moves-5x5" {
		t.Errorf("version byte %d, header %+v; want version 2 with a policy of 6", data[8], n.Header)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Header != n.Header || !back.HasPolicy() {
		t.Errorf("header %+v read back as %+v", n.Header, back.Header)
	}
	if again, _ := back.MarshalBinary(); !bytes.Equal(data, again) {
		t.Error("the file read back does not write the same bytes")
	}
	a, b := n.NewAccumulator(), back.NewAccumulator()
	randomWalk(9, 200, func(pos *ms.Position) {
		moves := pos.LegalMoves(nil)
		x, y := a.EvaluatePolicy(pos), b.EvaluatePolicy(pos)
		if lx, ly := logits(a, pos, moves), logits(b, pos, moves); x != y || !slices.Equal(lx, ly) {
			t.Fatalf("%s: %v %v before writing, %v %v after reading", pos.SFEN(), x, lx, y, ly)
		}
	})
	// Requantising the dequantised model gives the same bytes.
	again, err := Quantise(back.Model(), back.Header)
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := again.MarshalBinary(); !bytes.Equal(x, data) {
		t.Error("Quantise(n.Model()) differs from n")
	}
}

// TestVersion1Files: a network without a policy head is written as version 1 (the bytes
// programs before the policy head wrote), and reads as a network without one.
func TestVersion1Files(t *testing.T) {
	with := randomPolicyModel(t, 8, 4, 6, 4)
	without := *with
	without.Policy = nil
	n := quantised(t, &without)
	data, _ := n.MarshalBinary()
	if data[8] != 1 || n.Header.Version != 1 {
		t.Fatalf("a network without a policy is version %d (header %d); want 1", data[8], n.Header.Version)
	}
	back, err := Decode(data)
	if err != nil || back.HasPolicy() || back.Header.Policy != 0 {
		t.Fatalf("version 1 read back: %v, policy %v", err, back != nil && back.HasPolicy())
	}
	// The value of the two is the same: the policy head is beside the value, not in it.
	a, b := quantised(t, with).NewAccumulator(), back.NewAccumulator()
	randomWalk(10, 100, func(pos *ms.Position) {
		if x, y := a.EvaluatePolicy(pos), b.Evaluate(pos); x != y {
			t.Fatalf("%s: value %v with the policy head, %v without", pos.SFEN(), x, y)
		}
	})
}

func TestPolicyFileErrors(t *testing.T) {
	n := quantised(t, randomPolicyModel(t, 8, 4, 4, 5))
	good, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The policy section starts after the version 1 body (the file's last 4 bytes are
	// the checksum).
	v1 := 10 + 6 + 12 + 16 + 2 + len("random weights") + 2 + len("go test") +
		2*(NumFeatures*8+8+2*8*4+4) + 4*(4+1)
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	oldBytes, _ := quantised(t, randomModel(t, 8, 4, 5)).MarshalBinary()
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"newer version", edit(func(b []byte) []byte { b[8] = 3; return b }), "version 3; this program reads versions 1 to 2"},
		{"version 0", edit(func(b []byte) []byte { b[8] = 0; return b }), "version 0"},
		{"policy size", edit(func(b []byte) []byte { b[v1] = 0; b[v1+1] = 0; return b }), "policy size 0"},
		{"move features", edit(func(b []byte) []byte { b[v1+4] = 'n'; return b }), `move feature set "noves-5x5"`},
		{"move rows", edit(func(b []byte) []byte { b[v1+2+11] = 0; return b }), "move rows"},
		{"truncated in the move table", good[:v1+2+11+4+2+2*2*8*4+4*4+100], "truncated: E"},
		{"policy scale", edit(func(b []byte) []byte { b[v1+2+11+4] = 1; return b }), "policy scale 257"},
		{"truncated before the policy", good[:v1+1], "truncated: policy size"},
		{"corrupted move table", edit(func(b []byte) []byte { b[len(b)-5000] ^= 4; return b }), "corrupted"},
		{"version 1 claiming a policy", func() []byte { b := append([]byte(nil), oldBytes...); b[8] = 2; return b }(), "policy size"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.data)
			if err == nil || !strings.HasPrefix(err.Error(), "nnue: ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

func TestQuantiseRefusesLargePolicyWeights(t *testing.T) {
	m := randomPolicyModel(t, 4, 2, 3, 6)
	m.Policy.E[40] = MaxWeight2 + 1
	if _, err := Quantise(m, Header{}); err == nil || !strings.Contains(err.Error(), "policy E[40]") {
		t.Errorf("error %v, want one naming policy E[40]", err)
	}
}

// BenchmarkEvaluatePolicy measures what an expansion asks of the network, after one move
// and after taking it back as in BenchmarkEvaluate: the value alone, and the value with
// the policy head's logit of every legal move (the move features included), for policy
// heads of 16 and 32 units on the shipped network's 64×16.
func BenchmarkEvaluatePolicy(b *testing.B) {
	var positions []ms.Position
	randomWalk(11, 512, func(pos *ms.Position) { positions = append(positions, *pos) })
	moves := make([][]ms.Move, len(positions))
	for i := range positions {
		moves[i] = positions[i].LegalMoves(nil)
	}
	for _, hp := range []int{0, 16, 32} {
		b.Run("policy="+itoa(hp), func(b *testing.B) {
			var n *Net
			if hp == 0 {
				n = quantised(b, randomModel(b, 64, 16, 7))
			} else {
				n = quantised(b, randomPolicyModel(b, 64, 16, hp, 7))
			}
			acc := n.NewAccumulator()
			var buf [MaxMoveActive]int32
			b.ResetTimer()
			cpu := cpuTime()
			for i := range b.N {
				pos := &positions[i%len(positions)]
				if hp == 0 {
					acc.Evaluate(pos)
					continue
				}
				acc.EvaluatePolicy(pos)
				ctx := NewMoveContext(pos)
				for _, m := range moves[i%len(positions)] {
					f, _ := ctx.MoveFeatures(m, buf[:0])
					acc.MoveLogit(f)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
