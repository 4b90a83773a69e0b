package bushi

import (
	"math/rand/v2"
	"testing"
)

// matrix is a plain 3×3 integer rotation matrix, a second implementation of the moves
// written in the test from the formulas of docs/rules.md#bushi-model.
type matrix [3][3]int

func (a matrix) mul(b matrix) (c matrix) {
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

func (a matrix) apply(v [3]int) (w [3]int) {
	for i := range 3 {
		for k := range 3 {
			w[i] += a[i][k] * v[k]
		}
	}
	return w
}

// Columns are the images of x, y, z.
var testMatrices = map[Move]matrix{
	Turn:        {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}, // (x,y,z) → (y,−x,z)
	RollForward: {{1, 0, 0}, {0, 0, 1}, {0, -1, 0}}, // (x,y,z) → (x,z,−y)
	LeftUp:      {{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}, // (x,y,z) → (z,y,−x)
	RightUp:     {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}}, // (x,y,z) → (−z,y,x)
	RollBack:    {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, // (x,y,z) → (x,−z,y)
}

var identityMatrix = matrix{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

func unit(d Dir) [3]int {
	return [6][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}[d]
}

func TestOrientationsAreTheTwentyFourRotations(t *testing.T) {
	seen := map[[NumDirs]Dir]bool{}
	for o := range Orientation(NumOrientations) {
		var img [NumDirs]Dir
		for d := range Dir(NumDirs) {
			img[d] = o.Apply(d)
			if o.Apply(d.Opposite()) != img[d].Opposite() {
				t.Errorf("%v does not map %v and its opposite to opposites", o, d)
			}
			if o.Inverse(img[d]) != d {
				t.Errorf("%v: Inverse(Apply(%v)) = %v", o, d, o.Inverse(img[d]))
			}
		}
		// Proper: R·x × R·y = R·z (a reflection would give −R·z).
		if Cross(img[PlusX], img[PlusY]) != img[PlusZ] {
			t.Errorf("%v is not a proper rotation", o)
		}
		if seen[img] {
			t.Errorf("%v repeats another orientation", o)
		}
		seen[img] = true
		if back, err := ParseOrientation(o.String()); err != nil || back != o {
			t.Errorf("ParseOrientation(%q) = %v, %v", o.String(), back, err)
		}
	}
	if Identity.Up() != PlusZ || Identity.Forward() != PlusY || Identity.Apply(PlusX) != PlusX {
		t.Errorf("Identity is %v, want body frame = owner frame", Identity)
	}
}

// Hand-derived: each move sends the reference cube's faces where docs/rules.md#bushi-moves says.
func TestMovesFromReference(t *testing.T) {
	cases := []struct {
		m           Move
		up, forward Dir // body faces on top and toward the opponent afterwards
	}{
		{Turn, PlusZ, MinusX},        // forward turns to the right, so the left face comes forward
		{RollForward, MinusY, PlusZ}, // the rear face comes up, the top faces the opponent
		{LeftUp, MinusX, PlusY},
		{RightUp, PlusX, PlusY},
		{RollBack, PlusY, MinusZ}, // the front face comes up, the bottom faces the opponent
	}
	for _, c := range cases {
		t.Run(c.m.String(), func(t *testing.T) {
			if got, want := Roll(Identity, c.m), OrientationOf(c.up, c.forward); got != want {
				t.Errorf("%v from the reference: got %v, want %v", c.m, got, want)
			}
		})
	}
}

func power(o Orientation, m Move, n int) Orientation {
	for range n {
		o = Roll(o, m)
	}
	return o
}

func TestMoveOrders(t *testing.T) {
	for _, m := range []Move{Turn, RollForward, LeftUp, RightUp, RollBack} {
		t.Run(m.String(), func(t *testing.T) {
			for o := range Orientation(NumOrientations) {
				if power(o, m, 4) != o {
					t.Errorf("%v four times from %v does not return", m, o)
				}
				if power(o, m, 1) == o || power(o, m, 2) == o {
					t.Errorf("%v has order below four at %v", m, o)
				}
			}
		})
	}
	for o := range Orientation(NumOrientations) {
		if Roll(Roll(o, RollForward), RollBack) != o || Roll(Roll(o, LeftUp), RightUp) != o {
			t.Errorf("opposite rolls do not cancel at %v", o)
		}
	}
}

// A sequence of moves composes like the product of the matrices written from docs/rules.md#bushi-model.
func TestMoveSequencesMatchMatrices(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	for range 500 {
		o, m := Identity, identityMatrix
		for range rng.IntN(12) {
			mv := Move(rng.IntN(int(numRolls)))
			o = Roll(o, mv)
			m = testMatrices[mv].mul(m) // the move acts in the owner's frame: on the left
		}
		for d := range Dir(NumDirs) {
			if unit(o.Apply(d)) != m.apply(unit(d)) {
				t.Fatalf("orientation %v disagrees with matrix %v on %v", o, m, d)
			}
		}
	}
}

func TestCross(t *testing.T) {
	if Cross(PlusX, PlusY) != PlusZ || Cross(PlusY, PlusZ) != PlusX || Cross(PlusZ, PlusX) != PlusY {
		t.Error("right-handed basis broken")
	}
	if Cross(PlusZ, PlusY) != MinusX { // left of a forward gaze on the top face
		t.Errorf("z × y = %v, want -x", Cross(PlusZ, PlusY))
	}
}
