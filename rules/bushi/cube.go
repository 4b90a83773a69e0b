package bushi

import "fmt"

// Dir is one of the six axis directions of a frame: the outward normal of a cube face, a
// samurai's gaze, or a sword's edge. Each player's frame is its own (docs/rules.md#bushi-cubes):
// +x = the owner's right, +y = forward (toward the opponent), +z = up.
type Dir uint8

// The six directions, paired so that d^1 is the opposite of d.
const (
	PlusX Dir = iota
	MinusX
	PlusY
	MinusY
	PlusZ
	MinusZ
)

// NumDirs is the number of axis directions.
const NumDirs = 6

var dirNames = [NumDirs]string{"+x", "-x", "+y", "-y", "+z", "-z"}

// String returns the direction as "+x", "-y", and so on; the layout format uses these names.
func (d Dir) String() string {
	if d >= NumDirs {
		return fmt.Sprintf("Dir(%d)", uint8(d))
	}
	return dirNames[d]
}

// Opposite returns −d.
func (d Dir) Opposite() Dir { return d ^ 1 }

// axis returns 0, 1 or 2 for x, y or z.
func (d Dir) axis() int { return int(d) >> 1 }

// vector returns d as an integer vector.
func (d Dir) vector() [3]int {
	var v [3]int
	v[d.axis()] = 1 - 2*int(d&1)
	return v
}

// dirOf returns the direction of an axis-aligned unit vector; it panics on any other vector,
// which would be a programming error in the rotation tables.
func dirOf(v [3]int) Dir {
	for axis := range 3 {
		if v[axis] != 0 {
			d := Dir(2 * axis)
			if v[axis] < 0 {
				d++
			}
			if d.vector() != v {
				break
			}
			return d
		}
	}
	panic(fmt.Sprintf("bushi: %v is not an axis direction", v))
}

// Cross returns a × b. It panics if a and b are parallel, since their product is no direction.
func Cross(a, b Dir) Dir {
	u, v := a.vector(), b.vector()
	return dirOf([3]int{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]})
}

// Perpendicular reports whether a and b are at right angles.
func Perpendicular(a, b Dir) bool { return a.axis() != b.axis() }

// perpendiculars lists, for each normal, the four directions at right angles to it in Dir
// order; a face's gaze is stored as an index into this list.
var perpendiculars = func() (p [NumDirs][4]Dir) {
	for n := range Dir(NumDirs) {
		k := 0
		for d := range Dir(NumDirs) {
			if Perpendicular(n, d) {
				p[n][k] = d
				k++
			}
		}
	}
	return p
}()

// Orientation is one of the 24 proper rotations of a cube: the rotation that carries the
// cube's body frame to its owner's frame. Orientation o is the one that puts body face
// o.Up() on top and body face o.Forward() toward the opponent; the index is
// 4·Up + (rank of Forward among the directions perpendicular to Up).
type Orientation uint8

// NumOrientations is the number of proper rotations of a cube.
const NumOrientations = 24

// Identity is the reference orientation: body frame = owner's frame.
var Identity = OrientationOf(PlusZ, PlusY)

// rotations[o][d] is the image R·d of body direction d under orientation o.
var rotations = func() (t [NumOrientations]frameMap) {
	for up := range Dir(NumDirs) {
		for k, fwd := range perpendiculars[up] {
			// A proper rotation keeps cross products: R(fwd × up) = R·fwd × R·up = +y × +z = +x.
			right := Cross(fwd, up)
			r := &t[4*int(up)+k]
			r[up], r[up.Opposite()] = PlusZ, MinusZ
			r[fwd], r[fwd.Opposite()] = PlusY, MinusY
			r[right], r[right.Opposite()] = PlusX, MinusX
		}
	}
	return t
}()

// OrientationOf returns the orientation with body face up on top and body face forward toward
// the opponent. It panics if the two are not perpendicular.
func OrientationOf(up, forward Dir) Orientation {
	for k, d := range perpendiculars[up] {
		if d == forward {
			return Orientation(4*int(up) + k)
		}
	}
	panic(fmt.Sprintf("bushi: faces %v and %v are not perpendicular", up, forward))
}

// Apply returns R·d, where body direction d points in the owner's frame.
func (o Orientation) Apply(d Dir) Dir { return rotations[o][d] }

// Up returns the body face on top.
func (o Orientation) Up() Dir { return Dir(o / 4) }

// Forward returns the body face toward the opponent.
func (o Orientation) Forward() Dir { return perpendiculars[o.Up()][o%4] }

// Inverse returns the body direction that o carries to owner direction d.
func (o Orientation) Inverse(d Dir) Dir {
	return rotations[o].inverse(d)
}

// String names o by its up and forward body faces, e.g. "+z/+y" for the identity.
func (o Orientation) String() string {
	if o >= NumOrientations {
		return fmt.Sprintf("Orientation(%d)", uint8(o))
	}
	return o.Up().String() + "/" + o.Forward().String()
}

// ParseOrientation reads the "+z/+y" form written by Orientation.String.
func ParseOrientation(s string) (Orientation, error) {
	if len(s) != 5 || s[2] != '/' {
		return 0, fmt.Errorf("bushi: orientation %q: want up/forward faces like +z/+y", s)
	}
	up, err := ParseDir(s[:2])
	if err != nil {
		return 0, err
	}
	fwd, err := ParseDir(s[3:])
	if err != nil {
		return 0, err
	}
	if !Perpendicular(up, fwd) {
		return 0, fmt.Errorf("bushi: orientation %q: faces %v and %v are not perpendicular", s, up, fwd)
	}
	return OrientationOf(up, fwd), nil
}

// ParseDir reads "+x", "-y", ...
func ParseDir(s string) (Dir, error) {
	for d, name := range dirNames {
		if s == name {
			return Dir(d), nil
		}
	}
	return 0, fmt.Errorf("bushi: direction %q: want one of +x -x +y -y +z -z", s)
}

// then returns the orientation reached by applying the owner-frame rotation m after o:
// (m∘o)·d = m·(o·d).
func (o Orientation) then(m frameMap) Orientation {
	return OrientationOf(o.Inverse(m.inverse(PlusZ)), o.Inverse(m.inverse(PlusY)))
}

// inverse for a rotation given as a direction map.
func (m frameMap) inverse(d Dir) Dir {
	for b, w := range m {
		if w == d {
			return Dir(b)
		}
	}
	panic("bushi: rotation is not a permutation")
}

// frameMap is a rotation given by the image of each direction.
type frameMap [NumDirs]Dir

// mapOf builds the direction map of the linear map f, given as the formula docs/rules.md#bushi-model states.
func mapOf(f func(x, y, z int) (int, int, int)) (m frameMap) {
	for d := range Dir(NumDirs) {
		v := d.vector()
		x, y, z := f(v[0], v[1], v[2])
		m[d] = dirOf([3]int{x, y, z})
	}
	return m
}
