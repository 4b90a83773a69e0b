package nnue

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shogilab/shogilab/internal/bounded/boundedtest"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// randomModel returns a model whose weights are of the size a trained one has.
func randomModel(t testing.TB, h1, h2 int, seed uint64) *Model {
	t.Helper()
	m, err := NewModel(h1, h2)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	fill := func(xs []float32, scale float64) {
		for i := range xs {
			xs[i] = float32(r.NormFloat64() * scale)
		}
	}
	fill(m.W1, 0.2)
	fill(m.B1, 0.2)
	fill(m.W2, 0.3)
	fill(m.B2, 0.1)
	fill(m.W3, 0.5)
	m.B3 = 0.05
	return m
}

func quantised(t testing.TB, m *Model) *Net {
	t.Helper()
	n, err := Quantise(m, Header{Data: "random weights", Command: "go test"})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestFeaturesByHand checks indices worked out by hand from the layout in features.go.
func TestFeaturesByHand(t *testing.T) {
	pos := ms.StartPosition() // rbsgk/4p/5/P4/KGSBR b
	s := Features(&pos, ms.Sente, nil)
	if len(s) != MaxActive {
		t.Fatalf("start position: %d features for Sente, want %d (ten pieces and the enemy king)", len(s), MaxActive)
	}
	// Sente's king is on 5e (square 20): block 20·520 = 10400. Sente's pawn on 5d is
	// square 15, own (0), pawn (kind 0): 10415. Gote's king on 1a, square 4, the
	// opponent's (260) king (kind 9, 225): 10400+260+225+4 = 10889.
	for _, want := range []int32{10415, 10889} {
		if !slices.Contains(s, want) {
			t.Errorf("Sente's features %v lack %d", s, want)
		}
	}
	// Gote sees the board turned: its king on 1a is its own 5e, block 10400 too; Sente's
	// pawn on square 15 turns to square 9 and is the opponent's: 10400+260+9 = 10669.
	g := Features(&pos, ms.Gote, nil)
	if !slices.Contains(g, 10669) {
		t.Errorf("Gote's features %v lack 10669", g)
	}
	// The start position is the same for both sides after a half turn and a change of
	// colours (docs/rules.md), so both perspectives see the same features.
	slices.Sort(s)
	slices.Sort(g)
	if !slices.Equal(s, g) {
		t.Errorf("start position: Sente's features %v, Gote's %v; want the same", s, g)
	}
	// A pawn in Gote's hand, for Sente: opponent's (260), hand slots after the 250 board
	// features, pawn (0), first (0): 10400+260+250 = 10910.
	p, err := ms.ParseSFEN("rbsgk/4p/5/5/KGSBR b p 1")
	if err != nil {
		t.Fatal(err)
	}
	if f := Features(&p, ms.Sente, nil); !slices.Contains(f, 10910) {
		t.Errorf("pawn in Gote's hand: Sente's features %v lack 10910", f)
	}
}

// randomWalk plays and takes back random legal moves from the start, calling fn after
// each, n times.
func randomWalk(seed uint64, n int, fn func(pos *ms.Position)) {
	r := rand.New(rand.NewPCG(seed, 2))
	pos := ms.StartPosition()
	var moves []ms.Move
	var undos []ms.Undo
	var ml ms.MoveList
	for range n {
		pos.GenerateLegal(&ml)
		if len(moves) > 0 && (ml.N == 0 || r.IntN(3) == 0) {
			k := len(moves) - 1
			pos.UnmakeMove(moves[k], undos[k])
			moves, undos = moves[:k], undos[:k]
		} else if ml.N > 0 {
			m := ml.Moves[r.IntN(ml.N)]
			undos = append(undos, pos.MakeMove(m))
			moves = append(moves, m)
		}
		fn(&pos)
	}
}

// TestIncrementalMatchesRefresh is the property that the accumulator updated by
// differences equals one computed from nothing, after every move made or taken back in
// random games, and after jumps between unrelated positions.
func TestIncrementalMatchesRefresh(t *testing.T) {
	n := quantised(t, randomModel(t, 32, 8, 1))
	inc := n.NewAccumulator()
	steps := 20000
	if testing.Short() {
		steps = 3000
	}
	var saved []ms.Position
	check := func(pos *ms.Position, step int) {
		t.Helper()
		inc.Update(pos)
		full := n.NewAccumulator()
		full.Refresh(pos)
		for c := ms.Sente; c <= ms.Gote; c++ {
			if !slices.Equal(inc.Sums(c), full.Sums(c)) {
				t.Fatalf("step %d, %s: perspective %s: incremental %v, refreshed %v", step, pos.SFEN(), c, inc.Sums(c), full.Sums(c))
			}
		}
	}
	step := 0
	randomWalk(3, steps, func(pos *ms.Position) {
		step++
		check(pos, step)
		if step%97 == 0 {
			saved = append(saved, *pos)
		}
	})
	for i := range saved { // jumps: positions of the walk in another order
		check(&saved[(i*7)%len(saved)], i)
	}
}

// quantTolerance is the stated bound on |quantised - float| value: 0.05 is about 35
// centipawns at the engine's value scale, below what a search of some hundred playouts
// resolves. Rounding moves each feature-transformer weight by at most 0.5/QA and each
// later weight by 0.5/QB, and the hidden layer's floor division by 1/QA; summed over a
// position's dozen features and the layers' widths these stay well inside it.
const quantTolerance = 0.05

// TestQuantisedNearFloat checks the search's integer evaluation against the float model
// within quantTolerance, on positions of random games.
func TestQuantisedNearFloat(t *testing.T) {
	m := randomModel(t, 32, 8, 2)
	n := quantised(t, m)
	acc := n.NewAccumulator()
	bound := quantTolerance
	var worst, sum float64
	count := 0
	randomWalk(5, 3000, func(pos *ms.Position) {
		q, f := acc.Evaluate(pos), m.Value(pos)
		d := math.Abs(float64(q - f))
		if d > bound {
			t.Fatalf("%s: quantised %v, float %v: off by %v, beyond the bound %v", pos.SFEN(), q, f, d, bound)
		}
		worst = max(worst, d)
		sum += d
		count++
	})
	t.Logf("quantised vs float: largest difference %.4f, mean %.4f, bound %.4f", worst, sum/float64(count), bound)
	if mean := sum / float64(count); mean > bound/5 {
		t.Errorf("quantised vs float: mean difference %.4f; want under %.4f", mean, bound/5)
	}
}

func TestFileRoundTrip(t *testing.T) {
	n := quantised(t, randomModel(t, 16, 4, 3))
	n.Header.Generation = 7
	data, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The size follows from the layout in file.go: 8+2 magic and version, two strings
	// (2+4 "nnue", 2+10 "halfkp-5x5"), 4+2+2+2+2+4 sizes, scales and generation, the
	// data and command strings, the weights, the checksum.
	want := 10 + 6 + 12 + 16 + 2 + len("random weights") + 2 + len("go test") +
		2*(NumFeatures*16+16+2*16*4+4) + 4*(4+1) + 4
	if len(data) != want {
		t.Errorf("file has %d bytes, want %d", len(data), want)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Header != n.Header {
		t.Errorf("header %+v read back as %+v", n.Header, back.Header)
	}
	again, _ := back.MarshalBinary()
	if !bytes.Equal(data, again) {
		t.Error("the file read back does not write the same bytes")
	}
	a, b := n.NewAccumulator(), back.NewAccumulator()
	randomWalk(9, 200, func(pos *ms.Position) {
		if x, y := a.Evaluate(pos), b.Evaluate(pos); x != y {
			t.Fatalf("%s: %v before writing, %v after reading", pos.SFEN(), x, y)
		}
	})
}

func TestFileErrors(t *testing.T) {
	n := quantised(t, randomModel(t, 8, 4, 4))
	good, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not an evaluation file"},
		{"foreign", []byte("#!/bin/sh\necho hello\n"), "not an evaluation file"},
		{"version", edit(func(b []byte) []byte { b[8] = 3; return b }), "version 3"},
		{"family", edit(func(b []byte) []byte { b[12] = 'm'; return b }), `family "mnue"`},
		{"truncated", good[:len(good)/2], "truncated: W1"},
		{"no checksum", good[:len(good)-2], "truncated: checksum"},
		{"corrupted", edit(func(b []byte) []byte { b[len(b)/2] ^= 1; return b }), "corrupted"},
		{"trailing", append(append([]byte(nil), good...), 0), "1 bytes after the checksum"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.data)
			if err == nil || !strings.HasPrefix(err.Error(), "nnue: ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
			}
		})
	}
	if _, err := ReadFile(t.TempDir() + "/none.nnue"); err == nil || !strings.Contains(err.Error(), "none.nnue") {
		t.Errorf("missing file: error %v, want one naming the file", err)
	}
}

// FuzzDecode: no input makes the reader panic, and whatever it accepts writes back as the
// same bytes.
func FuzzDecode(f *testing.F) {
	n := quantised(f, randomModel(f, 1, 1, 5))
	good, _ := n.MarshalBinary()
	f.Add(good)
	f.Add(good[:40])
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		net, err := Decode(data)
		if err != nil {
			return
		}
		back, err := net.MarshalBinary()
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("accepted %d bytes that write back as %d (%v)", len(data), len(back), err)
		}
	})
}

func TestQuantiseRefusesLargeWeights(t *testing.T) {
	m := randomModel(t, 4, 2, 6)
	m.W1[17] = MaxWeight1 + 1
	if _, err := Quantise(m, Header{}); err == nil || !strings.Contains(err.Error(), "W1[17]") {
		t.Errorf("error %v, want one naming W1[17]", err)
	}
}

// BenchmarkEvaluate measures an evaluation after one move and after taking it back, the
// step between a search's consecutive leaves.
func BenchmarkEvaluate(b *testing.B) {
	for _, size := range []struct{ h1, h2 int }{{32, 16}, {64, 16}, {128, 16}} {
		b.Run(strings.Join([]string{itoa(size.h1), itoa(size.h2)}, "x"), func(b *testing.B) {
			n := quantised(b, randomModel(b, size.h1, size.h2, 7))
			acc := n.NewAccumulator()
			var positions []ms.Position
			randomWalk(11, 512, func(pos *ms.Position) { positions = append(positions, *pos) })
			b.ResetTimer()
			cpu := cpuTime()
			for i := range b.N {
				acc.Evaluate(&positions[i%len(positions)])
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the CPU time this process has used: unlike wall time, other load on the
// machine barely changes it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestModelRequantises: a network dequantised and quantised again is the same network
// (every weight is an integer over its scale, which Quantise rounds back exactly), and the
// float model's values are the quantised net's within its rounding.
func TestModelRequantises(t *testing.T) {
	n := quantised(t, randomModel(t, 8, 4, 5))
	m := n.Model()
	back, err := Quantise(m, n.Header)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := n.MarshalBinary()
	y, _ := back.MarshalBinary()
	if !bytes.Equal(x, y) {
		t.Error("Quantise(n.Model()) differs from n")
	}
	a := n.NewAccumulator()
	randomWalk(11, 100, func(pos *ms.Position) {
		if q, f := a.Evaluate(pos), m.Value(pos); math.Abs(float64(q-f)) > 0.05 {
			t.Fatalf("%s: quantised %v, dequantised float %v", pos.SFEN(), q, f)
		}
	})
}

// TestReadFileBounded: ReadFile takes regular files of at most MaxFileBytes, checked by their
// size before they are read, and checks the magic before the rest: issue 33's /dev/zero (read
// whole before, 23.6 GB in 3 minutes), a sparse gigabyte with the magic, and 20 MB of zeros,
// within MaxFileBytes, each end in an error having allocated at most a megabyte.
func TestReadFileBounded(t *testing.T) {
	dir := t.TempDir()
	sized := func(name string, head []byte, size int64) string {
		path := dir + "/" + name
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Write(head); err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, c := range []struct{ name, path, want string }{
		{"/dev/zero", "/dev/zero", "not a regular file (a device)"},
		{"a sparse gigabyte with the magic", sized("huge.nnue", []byte(Magic), 1<<30), "more than the"},
		{"20 MB of zeros", sized("zeros.nnue", nil, 20e6), "not an evaluation file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			boundedtest.Within(t, "ReadFile", 1<<20, func() { _, err = ReadFile(c.path) })
			if err == nil || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 200 {
				t.Errorf("%v; want a short error with %q", err, c.want)
			}
		})
	}
	if MaxFileBytes < 29e6 || MaxFileBytes > 31e6 {
		// 13,000 inputs × 1,024 × 2 bytes of W1 alone are 26.6 MB, W2 1 MB; the largest
		// policy head adds 2 × 2,048 × 256 × 2 bytes of its hidden weights (1 MB) and
		// 1,665 × 256 × 2 of its move table (0.85 MB); the rest is smaller.
		t.Errorf("MaxFileBytes %d, want some 30 MB", MaxFileBytes)
	}
}
