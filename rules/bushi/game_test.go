package bushi

import (
	"fmt"
	"slices"
	"testing"
)

func defaultRules(t testing.TB) *Rules {
	t.Helper()
	r, err := NewRules(DefaultLayout())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Hand-derived with the default layout: the top face, gaze and swords after a sequence of
// moves from the reference orientation.
func TestTopFaceAfterMoves(t *testing.T) {
	r := defaultRules(t)
	cases := []struct {
		moves  []Move
		face   Dir
		gaze   Dir
		swords []Dir // in Dir order
		check  bool
	}{
		// The +z face, three swords gazing forward: left −x, front +y, right +x.
		{nil, PlusZ, PlusY, []Dir{PlusX, MinusX, PlusY}, true},
		// Rolling forward brings up −y (R, gaze +z): its top edge tips forward, so it gazes +y
		// with its sword on the right.
		{[]Move{RollForward}, MinusY, PlusY, []Dir{PlusX}, false},
		// Two forward rolls bring up −z (F, gaze −y), now gazing forward: sword forward.
		{[]Move{RollForward, RollForward}, MinusZ, PlusY, []Dir{PlusY}, true},
		// A turn puts −y at the left; left-up brings it on top gazing +x (its old top edge went
		// right). An R face gazing east has its sword south.
		{[]Move{Turn, LeftUp}, MinusY, PlusX, []Dir{MinusY}, false},
		// Left-up brings −x (R, gaze +z) on top gazing +x; half a turn makes it gaze −x, and
		// the sword right of a westward gaze points north: check, gazing left.
		{[]Move{LeftUp, Turn, Turn}, MinusX, MinusX, []Dir{PlusY}, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.moves), func(t *testing.T) {
			o := Identity
			for _, m := range c.moves {
				o = Roll(o, m)
			}
			face, gaze, swords := r.Top(o)
			if face != c.face || gaze != c.gaze || !slices.Equal(swords, c.swords) || r.Checks(o) != c.check {
				t.Errorf("after %v: top %v gaze %v swords %v check %v; want %v %v %v %v",
					c.moves, face, gaze, swords, r.Checks(o), c.face, c.gaze, c.swords, c.check)
			}
		})
	}
}

// With a layout whose faces carry k swords in total, a face with s swords gives check in s of
// its four turns, so exactly k of the 24 orientations give check. The default has 3+5·1 = 8,
// leaving 16 placements.
func TestSetupExcludesCheck(t *testing.T) {
	r := defaultRules(t)
	moves := r.LegalMoves(Start(), nil)
	if len(moves) != 16 {
		t.Fatalf("Black has %d placements, want 16", len(moves))
	}
	for _, m := range moves {
		if !m.IsPlacement() || r.Checks(m.Orientation()) {
			t.Errorf("placement %v gives check", m)
		}
	}
	p := r.Play(Start(), moves[3])
	if p.Phase != PlaceWhite || p.Cube[Black] != moves[3].Orientation() {
		t.Fatalf("after Black places: %v", p)
	}
	if got := len(r.LegalMoves(p, nil)); got != 16 {
		t.Errorf("White has %d placements, want 16", got)
	}
	p = r.Play(p, moves[5])
	if p.Phase != Playing || p.ToMove != Black || p.Cube[White] != moves[5].Orientation() {
		t.Errorf("after setup: %v, want Black to move", p)
	}
}

func TestForcedMoves(t *testing.T) {
	r := defaultRules(t)
	mated := OrientationOf(MinusZ, MinusY)    // two forward rolls: F face gazing forward
	quiet := OrientationOf(MinusY, PlusZ)     // one forward roll: no check
	leftGaze := OrientationOf(MinusX, MinusY) // left-up, turn, turn: check while gazing left
	rightGaze := OrientationOf(PlusX, MinusY) // right-up, turn, turn: check while gazing right
	if got := Roll(Roll(Roll(Identity, LeftUp), Turn), Turn); got != leftGaze {
		t.Fatalf("left-up, turn, turn gives %v, want %v", got, leftGaze)
	}
	if _, gaze, swords := r.Top(rightGaze); gaze != PlusX || !slices.Equal(swords, []Dir{PlusY}) {
		t.Fatalf("right-up, turn, turn: gaze %v swords %v, want +x [+y]", gaze, swords)
	}
	cases := []struct {
		name         string
		black, white Orientation
		toMove       Color
		want         []Move
	}{
		{"nobody checks", quiet, quiet, Black, []Move{Turn, RollForward, LeftUp, RightUp}},
		{"only the mover checks", leftGaze, quiet, Black, []Move{Turn, RollForward, LeftUp, RightUp}},
		{"checked, no check back: turn", quiet, mated, Black, []Move{Turn}},
		{"checked, no check back (white)", mated, quiet, White, []Move{Turn}},
		// Both check: roll over the edge the samurai gazes at. Gazing left tips the top face
		// left, so the right face comes up.
		{"both check, gaze left", leftGaze, mated, Black, []Move{RightUp}},
		{"both check, gaze right", mated, rightGaze, White, []Move{LeftUp}},
		{"both check, gaze forward", mated, leftGaze, Black, []Move{RollForward}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := Position{Phase: Playing, Cube: [2]Orientation{c.black, c.white}, ToMove: c.toMove}
			if got := r.LegalMoves(p, nil); !slices.Equal(got, c.want) {
				t.Errorf("%s (%v): moves %v, want %v", c.name, p, got, c.want)
			}
		})
	}
}

// Hand-derived mate: Black's F face lies on top gazing left (body −z up, +x forward); one
// clockwise turn makes it gaze forward with its sword forward. White already gazes forward
// with a forward sword, so Black, checked and not checking, must turn, and that turn mates.
func TestMate(t *testing.T) {
	r := defaultRules(t)
	mated := OrientationOf(MinusZ, MinusY)
	black := OrientationOf(MinusZ, PlusX)
	p := Position{Phase: Playing, Cube: [2]Orientation{black, mated}, ToMove: Black}
	if _, over := r.Winner(p); over {
		t.Fatalf("%v is already over", p)
	}
	if got := r.LegalMoves(p, nil); !slices.Equal(got, []Move{Turn}) {
		t.Fatalf("moves %v, want [turn]", got)
	}
	p = r.Play(p, Turn)
	if p.Cube[Black] != mated {
		t.Fatalf("after the turn Black is %v, want %v", p.Cube[Black], mated)
	}
	winner, over := r.Winner(p)
	if !over || winner != Black {
		t.Errorf("Winner(%v) = %v, %v; want black, true", p, winner, over)
	}
	if got := r.LegalMoves(p, nil); len(got) != 0 {
		t.Errorf("mated position has moves %v", got)
	}
	// Both gazing forward is not enough: a forward gaze without a forward sword is no mate.
	sideSword := OrientationOf(MinusY, PlusZ) // R face gazing forward, sword right
	if _, over := r.Winner(Position{Phase: Playing, Cube: [2]Orientation{sideSword, mated}}); over {
		t.Error("a forward gaze with a side sword counted as mate")
	}
}

func TestPositionCodes(t *testing.T) {
	for c := range NumPositions {
		p := PositionFromCode(c)
		if p.Code() != c {
			t.Fatalf("code %d decodes to %v which encodes to %d", c, p, p.Code())
		}
	}
	if got := Start().Code(); got != 0 {
		t.Errorf("start has code %d", got)
	}
}

func TestMoveStrings(t *testing.T) {
	moves := []Move{Turn, RollForward, LeftUp, RightUp, RollBack}
	for o := range Orientation(NumOrientations) {
		moves = append(moves, Place(o))
	}
	for _, m := range moves {
		t.Run(m.String(), func(t *testing.T) {
			back, err := ParseMove(m.String())
			if err != nil || back != m {
				t.Errorf("ParseMove(%q) = %v, %v", m.String(), back, err)
			}
		})
	}
	if _, err := ParseMove("jump"); err == nil {
		t.Error("ParseMove accepted \"jump\"")
	}
}
