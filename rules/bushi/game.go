package bushi

import (
	"fmt"
	"strings"
)

// Color is a player. Black places first and, after setup, moves first.
type Color uint8

// The two players.
const (
	Black Color = iota
	White
)

// Opponent returns the other player.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "black" or "white".
func (c Color) String() string {
	if c == Black {
		return "black"
	}
	return "white"
}

// Move is a move packed in a byte: one of the five rolls and turns, or the placement of the
// cube in an orientation during setup.
type Move uint8

// The moves of play. Each is a rotation applied in the mover's own frame (docs/rules.md#bushi-moves).
const (
	Turn        Move = iota // rotate 90° clockwise about the vertical, seen from above
	RollForward             // the top face turns to face the opponent, the rear face comes up
	LeftUp                  // roll so that the left face comes up
	RightUp                 // roll so that the right face comes up
	RollBack                // roll so that the front face comes up; only ever a forced roll
	numRolls
)

// placeBase is the first placement move; placements are Move(placeBase + orientation).
const placeBase Move = 8

// Place returns the setup move that puts the cube down in orientation o.
func Place(o Orientation) Move { return placeBase + Move(o) }

// IsPlacement reports whether m is a setup move.
func (m Move) IsPlacement() bool { return m >= placeBase }

// Orientation returns the orientation a placement puts the cube in.
func (m Move) Orientation() Orientation { return Orientation(m - placeBase) }

var moveNames = [numRolls]string{"turn", "forward", "left-up", "right-up", "back"}

// String names a play move (turn, forward, left-up, right-up, back) or, for a placement, the
// orientation it places ("+z/+y").
func (m Move) String() string {
	switch {
	case m < numRolls:
		return moveNames[m]
	case m.IsPlacement() && m.Orientation() < NumOrientations:
		return m.Orientation().String()
	}
	return fmt.Sprintf("Move(%d)", uint8(m))
}

// ParseMove reads a move in the form String writes.
func ParseMove(s string) (Move, error) {
	for m, name := range moveNames {
		if s == name {
			return Move(m), nil
		}
	}
	o, err := ParseOrientation(s)
	if err != nil {
		return 0, fmt.Errorf("bushi: move %q: want %s or a placement like +z/+y", s, strings.Join(moveNames[:], ", "))
	}
	return Place(o), nil
}

// moveMaps are the rotations of docs/rules.md#bushi-model, written as the formulas there.
var moveMaps = [numRolls]frameMap{
	Turn:        mapOf(func(x, y, z int) (int, int, int) { return y, -x, z }),
	RollForward: mapOf(func(x, y, z int) (int, int, int) { return x, z, -y }),
	LeftUp:      mapOf(func(x, y, z int) (int, int, int) { return z, y, -x }),
	RightUp:     mapOf(func(x, y, z int) (int, int, int) { return -z, y, x }),
	RollBack:    mapOf(func(x, y, z int) (int, int, int) { return x, -z, y }),
}

// afterMove[m][o] is the orientation that move m leaves a cube in orientation o in.
var afterMove = func() (t [numRolls][NumOrientations]Orientation) {
	for m := range numRolls {
		for o := range Orientation(NumOrientations) {
			t[m][o] = o.then(moveMaps[m])
		}
	}
	return t
}()

// Roll returns the orientation o is left in by the play move m. It panics on a placement.
func Roll(o Orientation, m Move) Orientation {
	if m >= numRolls {
		panic(fmt.Sprintf("bushi: Roll: %v is not a play move", m))
	}
	return afterMove[m][o]
}

// rollToward is the forced roll that tips the top face onto a horizontal gaze g (docs/rules.md#bushi-check).
var rollToward = [NumDirs]Move{PlusX: LeftUp, MinusX: RightUp, PlusY: RollForward, MinusY: RollBack}

// cubeFacts is what the rules need to know about a cube in one orientation under one layout.
type cubeFacts struct {
	gaze   Dir   // the top face's gaze, in the owner's frame
	swords uint8 // the top face's sword directions in the owner's frame, one bit per Dir
	check  bool  // a sword on the forward edge
	mate   bool  // gazing forward with a sword on the forward edge
	forced Move  // the roll toward the gaze, forced when both cubes give check
}

// Rules is the game for one layout. It is immutable and safe for concurrent use.
type Rules struct {
	layout Layout
	facts  [NumOrientations]cubeFacts
}

// NewRules returns the game played with two cubes of layout l, or the error Validate finds.
func NewRules(l Layout) (*Rules, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	r := &Rules{layout: l}
	for o := range Orientation(NumOrientations) {
		top := o.Up()
		f := &r.facts[o]
		f.gaze = o.Apply(l[top].Gaze)
		for _, s := range l[top].Swords(top) {
			f.swords |= 1 << o.Apply(s)
		}
		f.check = f.swords>>PlusY&1 != 0
		f.mate = f.check && f.gaze == PlusY
		f.forced = rollToward[f.gaze]
	}
	return r, nil
}

// Layout returns the layout the rules were made with.
func (r *Rules) Layout() Layout { return r.layout }

// Top describes the top face of a cube in orientation o, in the owner's frame: which body
// face it is, its samurai's gaze, and its swords.
func (r *Rules) Top(o Orientation) (face Dir, gaze Dir, swords []Dir) {
	f := &r.facts[o]
	for d := range Dir(NumDirs) {
		if f.swords>>d&1 != 0 {
			swords = append(swords, d)
		}
	}
	return o.Up(), f.gaze, swords
}

// Checks reports whether a cube in orientation o gives check: a sword on its forward edge.
func (r *Rules) Checks(o Orientation) bool { return r.facts[o].check }

// ForcedRoll returns the roll toward o's gaze, the only move when both cubes give check.
func (r *Rules) ForcedRoll(o Orientation) Move { return r.facts[o].forced }

// Phase is the stage of a game.
type Phase uint8

// The stages: Black places its cube, White places its cube, then the players move in turn,
// Black first.
const (
	PlaceBlack Phase = iota
	PlaceWhite
	Playing
)

// Position is the whole state of a game: the stage, both cubes' orientations (each in its
// owner's frame; meaningful once placed) and, in play, the side to move.
type Position struct {
	Phase  Phase
	Cube   [2]Orientation // indexed by Color
	ToMove Color
}

// Start returns the empty board with Black to place.
func Start() Position { return Position{} }

// NumPositions is the number of positions: the empty board, the 24 with only Black's cube
// placed, and 24·24 orientations × 2 sides to move in play.
const NumPositions = 1 + NumOrientations + 2*NumOrientations*NumOrientations

// Code packs p into [0, NumPositions): 0 the empty board, 1+o Black placed in o, and
// 25 + 2·(24·black + white) + side in play. It is exact: PositionFromCode inverts it.
func (p Position) Code() int {
	switch p.Phase {
	case PlaceBlack:
		return 0
	case PlaceWhite:
		return 1 + int(p.Cube[Black])
	}
	return 1 + NumOrientations + 2*(NumOrientations*int(p.Cube[Black])+int(p.Cube[White])) + int(p.ToMove)
}

// PositionFromCode returns the position with code c; it panics if c is out of range.
func PositionFromCode(c int) Position {
	switch {
	case c < 0 || c >= NumPositions:
		panic(fmt.Sprintf("bushi: position code %d out of range [0,%d)", c, NumPositions))
	case c == 0:
		return Start()
	case c <= NumOrientations:
		return Position{Phase: PlaceWhite, Cube: [2]Orientation{Orientation(c - 1), 0}, ToMove: White}
	}
	c -= 1 + NumOrientations
	pair := c / 2
	return Position{
		Phase:  Playing,
		Cube:   [2]Orientation{Orientation(pair / NumOrientations), Orientation(pair % NumOrientations)},
		ToMove: Color(c % 2),
	}
}

// String describes p, e.g. "black +x/+y, white +z/-x, white to move".
func (p Position) String() string {
	switch p.Phase {
	case PlaceBlack:
		return "empty board, black to place"
	case PlaceWhite:
		return fmt.Sprintf("black %v, white to place", p.Cube[Black])
	}
	return fmt.Sprintf("black %v, white %v, %v to move", p.Cube[Black], p.Cube[White], p.ToMove)
}

// LegalMoves appends the legal moves of p to dst: in setup, the placements in orientations
// that give no check; in play, all four moves, except that a player in check who gives none
// may only turn, and a player who gives check while in check must roll toward its gaze. A
// mated position has no moves.
func (r *Rules) LegalMoves(p Position, dst []Move) []Move {
	if p.Phase != Playing {
		for o := range Orientation(NumOrientations) {
			if !r.facts[o].check {
				dst = append(dst, Place(o))
			}
		}
		return dst
	}
	if _, over := r.Winner(p); over {
		return dst
	}
	mine, theirs := &r.facts[p.Cube[p.ToMove]], &r.facts[p.Cube[p.ToMove.Opponent()]]
	switch {
	case theirs.check && mine.check:
		return append(dst, mine.forced)
	case theirs.check:
		return append(dst, Turn)
	}
	return append(dst, Turn, RollForward, LeftUp, RightUp)
}

// Play returns the position after the legal move m.
func (r *Rules) Play(p Position, m Move) Position {
	switch p.Phase {
	case PlaceBlack:
		return Position{Phase: PlaceWhite, Cube: [2]Orientation{m.Orientation(), 0}, ToMove: White}
	case PlaceWhite:
		p.Phase, p.Cube[White], p.ToMove = Playing, m.Orientation(), Black
		return p
	}
	p.Cube[p.ToMove] = Roll(p.Cube[p.ToMove], m)
	p.ToMove = p.ToMove.Opponent()
	return p
}

// Winner reports whether p is mate, and who won it: both top faces gaze forward with a sword
// on the forward edge, and the player who made the last move (not the side to move) wins.
func (r *Rules) Winner(p Position) (winner Color, over bool) {
	if p.Phase == Playing && r.facts[p.Cube[Black]].mate && r.facts[p.Cube[White]].mate {
		return p.ToMove.Opponent(), true
	}
	return 0, false
}
