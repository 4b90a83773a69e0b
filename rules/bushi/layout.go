package bushi

import (
	"fmt"
	"iter"
	"strings"
)

// FaceType says where a face's swords are, relative to its samurai's gaze.
type FaceType uint8

// The four face types of docs/rules.md#bushi-cubes.
const (
	SwordLeft   FaceType = iota // L: one sword left of the gaze
	SwordRight                  // R: one sword right of the gaze
	SwordFront                  // F: one sword at the far edge, in the gaze direction
	ThreeSwords                 // LFR: swords left, front and right
)

// NumFaceTypes is the number of face types.
const NumFaceTypes = 4

var faceTypeNames = [NumFaceTypes]string{"L", "R", "F", "LFR"}

// String returns the type's name in the layout format: L, R, F or LFR.
func (t FaceType) String() string {
	if t >= NumFaceTypes {
		return fmt.Sprintf("FaceType(%d)", uint8(t))
	}
	return faceTypeNames[t]
}

// Face is what one face of the cube shows: its type and its samurai's gaze, in the body frame.
type Face struct {
	Type FaceType
	Gaze Dir
}

// Swords returns the directions of the face's swords when its outward normal is n:
// left = n × gaze, right = −left, front = gaze (docs/rules.md#bushi-model).
func (f Face) Swords(n Dir) []Dir {
	left := Cross(n, f.Gaze)
	switch f.Type {
	case SwordLeft:
		return []Dir{left}
	case SwordRight:
		return []Dir{left.Opposite()}
	case SwordFront:
		return []Dir{f.Gaze}
	default:
		return []Dir{left, f.Gaze, left.Opposite()}
	}
}

// Layout says what each face of a cube shows, indexed by the face's outward normal in the
// body frame. Both players' cubes share the layout (the set has two identical cubes).
type Layout [NumDirs]Face

// DefaultLayout returns the layout the toolkit ships (docs/rules.md#bushi-layouts). The sources lose the real
// layout; this one is a decision, and others can be read with ParseLayout.
func DefaultLayout() Layout {
	var l Layout
	l[PlusZ] = Face{ThreeSwords, PlusY}
	l[MinusZ] = Face{SwordFront, MinusY}
	l[PlusY] = Face{SwordLeft, PlusZ}
	l[MinusY] = Face{SwordRight, PlusZ}
	l[PlusX] = Face{SwordLeft, PlusZ}
	l[MinusX] = Face{SwordRight, PlusZ}
	return l
}

// Validate reports the first face whose type is unknown or whose gaze is not perpendicular to
// its normal (a samurai cannot gaze out of its own face).
func (l Layout) Validate() error {
	for n, f := range l {
		if f.Type >= NumFaceTypes {
			return fmt.Errorf("bushi: layout: face %v has unknown type %d", Dir(n), f.Type)
		}
		if f.Gaze >= NumDirs || !Perpendicular(Dir(n), f.Gaze) {
			return fmt.Errorf("bushi: layout: face %v has gaze %v, which is not perpendicular to the face", Dir(n), f.Gaze)
		}
	}
	return nil
}

// writeOrder lists the faces top, bottom, front, back, right, left, as docs/rules.md tabulates them.
var writeOrder = [NumDirs]Dir{PlusZ, MinusZ, PlusY, MinusY, PlusX, MinusX}

// String writes the layout in the text format ParseLayout reads, one face a line.
func (l Layout) String() string {
	var b strings.Builder
	for _, n := range writeOrder {
		fmt.Fprintf(&b, "%v %v %v\n", n, l[n].Type, l[n].Gaze)
	}
	return b.String()
}

// Compact writes the layout on one line, faces separated by "; ", which ParseLayout also
// reads; reports use it.
func (l Layout) Compact() string {
	return strings.ReplaceAll(strings.TrimSuffix(l.String(), "\n"), "\n", "; ")
}

// ParseLayout reads a layout in the text format:
//
//	# comment; blank lines are ignored
//	# normal  type  gaze       (one line per face, each of the six faces once)
//	+z LFR +y
//	-z F   -y
//	+y L   +z
//	-y R   +z
//	+x L   +z
//	-x R   +z
//
// Normals and gazes are +x -x +y -y +z -z in the body frame (+x right, +y forward, +z up when
// the cube stands in the reference orientation); types are L, R, F or LFR. The lines above are
// DefaultLayout. A ';' also separates faces, so a layout fits on one line (Compact). Errors
// name the line and the reason.
func ParseLayout(text string) (Layout, error) {
	var l Layout
	var seen [NumDirs]bool
	lineNo := 0
	for line := range strings.SplitSeq(text, "\n") {
		lineNo++
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		for entry := range strings.SplitSeq(line, ";") {
			if err := l.parseFace(entry, &seen); err != nil {
				return Layout{}, fmt.Errorf("bushi: layout line %d: %w", lineNo, err)
			}
		}
	}
	for n, ok := range seen {
		if !ok {
			return Layout{}, fmt.Errorf("bushi: layout: face %v missing (want all six faces)", Dir(n))
		}
	}
	return l, nil
}

// parseFace reads one "normal type gaze" entry into l; an empty entry is skipped.
func (l *Layout) parseFace(entry string, seen *[NumDirs]bool) error {
	fields := strings.Fields(entry)
	if len(fields) == 0 {
		return nil
	}
	if len(fields) != 3 {
		return fmt.Errorf("want \"normal type gaze\", got %d fields", len(fields))
	}
	n, err := ParseDir(fields[0])
	if err != nil {
		return fmt.Errorf("face normal %q is not one of +x -x +y -y +z -z", fields[0])
	}
	if seen[n] {
		return fmt.Errorf("face %v given twice", n)
	}
	seen[n] = true
	t, ok := parseFaceType(fields[1])
	if !ok {
		return fmt.Errorf("face %v: type %q is not one of L R F LFR", n, fields[1])
	}
	g, err := ParseDir(fields[2])
	if err != nil {
		return fmt.Errorf("face %v: gaze %q is not one of +x -x +y -y +z -z", n, fields[2])
	}
	if !Perpendicular(n, g) {
		return fmt.Errorf("face %v: gaze %v is along the face's normal, not across the face", n, g)
	}
	l[n] = Face{t, g}
	return nil
}

func parseFaceType(s string) (FaceType, bool) {
	for t, name := range faceTypeNames {
		if s == name {
			return FaceType(t), true
		}
	}
	return 0, false
}

// LayoutCode packs a valid layout into 24 bits: 4 bits per face in Dir order, the type in
// the high 2 bits and the gaze's rank among the face's four perpendicular directions in the
// low 2. Every 24-bit value is a valid layout, so the codes 0..NumLayouts-1 enumerate all.
type LayoutCode uint32

// NumLayouts is the number of layouts: each of six faces has one of four types and one of
// four gazes, 16^6.
const NumLayouts = 1 << 24

// Code returns the layout's code; l must be valid.
func (l Layout) Code() LayoutCode {
	var c LayoutCode
	for n, f := range l {
		c |= LayoutCode(f.Type)<<2<<(4*n) | LayoutCode(gazeRank(Dir(n), f.Gaze))<<(4*n)
	}
	return c
}

func gazeRank(n, g Dir) int {
	for k, d := range perpendiculars[n] {
		if d == g {
			return k
		}
	}
	panic(fmt.Sprintf("bushi: gaze %v of face %v is not perpendicular to it", g, n))
}

// LayoutFromCode unpacks a code made by Code.
func LayoutFromCode(c LayoutCode) Layout {
	var l Layout
	for n := range Dir(NumDirs) {
		nibble := c >> (4 * n) & 15
		l[n] = Face{FaceType(nibble >> 2), perpendiculars[n][nibble&3]}
	}
	return l
}

// Rotated returns the layout of the same physical cube relabelled by the rotation q: the face
// with normal n and gaze g becomes the face with normal q·n and gaze q·g. A proper rotation
// keeps n × g, so types are unchanged. Playing with l in orientation o·q is the same game as
// playing with l.Rotated(q) in orientation o: rotated layouts have identical games.
func (l Layout) Rotated(q Orientation) Layout {
	var r Layout
	for n, f := range l {
		r[q.Apply(Dir(n))] = Face{f.Type, q.Apply(f.Gaze)}
	}
	return r
}

// Canonical returns the layout with the least code among l's 24 rotations, and how many
// distinct layouts those rotations give (the orbit's size).
//
// Mirror images are not identified: a reflection would turn the clockwise rotate move into an
// anticlockwise one, which is not a move of the game, so a mirrored layout can play a
// different game.
func (l Layout) Canonical() (canon Layout, orbit int) {
	codes := l.orbitCodes()
	best, distinct := codes[0], 0
	for i, c := range codes {
		best = min(best, c)
		if !containsCode(codes[:i], c) {
			distinct++
		}
	}
	return LayoutFromCode(best), distinct
}

func (l Layout) orbitCodes() (codes [NumOrientations]LayoutCode) {
	for q := range Orientation(NumOrientations) {
		r := l.Rotated(q)
		codes[q] = r.Code()
	}
	return codes
}

func containsCode(codes []LayoutCode, c LayoutCode) bool {
	for _, d := range codes {
		if d == c {
			return true
		}
	}
	return false
}

// CanonicalLayouts yields, in increasing code order, each canonical layout (the least code of
// its rotation class) once, with the size of its class; the sizes sum to NumLayouts. It keeps a
// 2 MiB bitmap of the layouts already covered.
func CanonicalLayouts() iter.Seq2[Layout, int] {
	return func(yield func(Layout, int) bool) {
		covered := make([]uint64, NumLayouts/64)
		for c := range LayoutCode(NumLayouts) {
			if covered[c/64]>>(c%64)&1 != 0 {
				continue
			}
			// c is the least uncovered code, so no rotation of it came earlier: it is canonical.
			l := LayoutFromCode(c)
			orbit := 0
			for _, r := range l.orbitCodes() {
				if covered[r/64]>>(r%64)&1 == 0 {
					covered[r/64] |= 1 << (r % 64)
					orbit++
				}
			}
			if !yield(l, orbit) {
				return
			}
		}
	}
}
