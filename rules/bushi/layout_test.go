package bushi

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestDefaultLayoutText(t *testing.T) {
	// The default as docs/rules.md#bushi-layouts tabulates it, typed in by hand.
	text := `# the default layout
+z LFR +y
-z F -y
+y L +z   # forward face
-y R +z

+x L +z
-x R +z
`
	l, err := ParseLayout(text)
	if err != nil {
		t.Fatal(err)
	}
	if l != DefaultLayout() {
		t.Errorf("parsed %v, want the default", l.Compact())
	}
}

func TestLayoutRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2))
	for range 1000 {
		l := LayoutFromCode(LayoutCode(rng.IntN(NumLayouts)))
		for _, text := range []string{l.String(), l.Compact()} {
			back, err := ParseLayout(text)
			if err != nil {
				t.Fatalf("ParseLayout(%q): %v", text, err)
			}
			if back != l || back.Code() != l.Code() {
				t.Fatalf("round trip of %q gave %q", text, back.Compact())
			}
		}
	}
}

func TestMalformedLayouts(t *testing.T) {
	def := DefaultLayout().String()
	cases := []struct{ text, want string }{
		{strings.Replace(def, "+y L +z", "+y L -y", 1), "line 3: face +y: gaze -y is along the face's normal"},
		{strings.Replace(def, "-y R +z", "-y Q +z", 1), "line 4: face -y: type \"Q\""},
		{strings.Replace(def, "+x L +z", "+x L", 1), "line 5: want \"normal type gaze\", got 2 fields"},
		{strings.Replace(def, "-x R +z", "+x R +z", 1), "line 6: face +x given twice"},
		{strings.Replace(def, "-z F -y", "-w F -y", 1), "line 2: face normal \"-w\""},
		{strings.Replace(def, "+z LFR +y", "+z LFR up", 1), "line 1: face +z: gaze \"up\""},
		{strings.Replace(def, "-x R +z\n", "", 1), "face -x missing"},
		{"", "face +x missing"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			_, err := ParseLayout(c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bushi: layout") {
				t.Errorf("ParseLayout(%q) error %v, want one containing %q", c.text, err, c.want)
			}
		})
	}
	bad := DefaultLayout()
	bad[PlusZ].Gaze = MinusZ
	if err := bad.Validate(); err == nil {
		t.Error("Validate accepted a gaze along the normal")
	}
	if _, err := NewRules(bad); err == nil {
		t.Error("NewRules accepted a gaze along the normal")
	}
}

func FuzzParseLayout(f *testing.F) {
	f.Add(DefaultLayout().String())
	f.Add(DefaultLayout().Compact())
	f.Add("+z F +x; -z F +x; +x F +y; -x F +y; +y F +z; -y F +z")
	f.Add("# nothing\n\n")
	f.Fuzz(func(t *testing.T, text string) {
		l, err := ParseLayout(text)
		if err != nil {
			return
		}
		if err := l.Validate(); err != nil {
			t.Fatalf("parsed an invalid layout: %v", err)
		}
		back, err := ParseLayout(l.String())
		if err != nil || back != l {
			t.Fatalf("re-parse of %q: %v, %v", l.String(), back, err)
		}
	})
}

// A layout rotated by q, in orientation o, shows exactly what the original shows in o∘q.
func TestRotatedLayoutsPlayTheSameGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 3))
	for range 200 {
		l := LayoutFromCode(LayoutCode(rng.IntN(NumLayouts)))
		q := Orientation(rng.IntN(NumOrientations))
		a, _ := NewRules(l)
		b, _ := NewRules(l.Rotated(q))
		for o := range Orientation(NumOrientations) {
			// o∘q puts up the body face d with o(q(d)) = +z, and forward the one with +y.
			oq := OrientationOf(q.Inverse(o.Inverse(PlusZ)), q.Inverse(o.Inverse(PlusY)))
			_, ga, sa := a.Top(oq)
			_, gb, sb := b.Top(o)
			if ga != gb || !slices.Equal(sa, sb) {
				t.Fatalf("layout %v rotated by %v differs in %v", l.Compact(), q, o)
			}
		}
		canon, _ := l.Canonical()
		rc, _ := l.Rotated(q).Canonical()
		if canon != rc {
			t.Fatalf("%v and its rotation have different canonical forms", l.Compact())
		}
	}
}

// Burnside's lemma over the 24 rotations, by hand: the identity fixes all 16^6 layouts; a
// rotation about a face axis (9 of them) fixes none, since the faces on its axis would need
// a gaze it leaves alone; a rotation about a vertex axis (8, of order 3, two 3-cycles of faces)
// fixes 16^2; one about an edge axis (6, order 2, three 2-cycles) fixes 16^3. So
// (16^6 + 8·16^2 + 6·16^3)/24 = 700,160 classes.
func TestCanonicalLayoutCount(t *testing.T) {
	if testing.Short() {
		t.Skip("walks all 16.8 million layouts")
	}
	classes, total := 0, 0
	for l, orbit := range CanonicalLayouts() {
		classes++
		total += orbit
		if classes%5000 == 0 {
			if c, n := l.Canonical(); c != l || n != orbit {
				t.Fatalf("%v: Canonical gives %v (orbit %d), iterator orbit %d", l.Compact(), c.Compact(), n, orbit)
			}
		}
	}
	if classes != 700160 || total != NumLayouts {
		t.Errorf("%d classes covering %d layouts, want 700160 covering %d", classes, total, NumLayouts)
	}
}
