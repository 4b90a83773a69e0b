package selection

import (
	"strings"
	"testing"
)

// FuzzSetStart: any text either fails with a selection error or gives a
// start key that, read back as an SFEN (with a move number), gives itself.
func FuzzSetStart(f *testing.F) {
	for _, s := range []string{"startpos", "bare-king", "rbsgk/4p/5/P4/KGSBR b - 1", "4k/5/5/P4/KGSBR w - 1", "rbsgk/4p/5/P4 b - 1", "2025-01-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var a Filter
		if err := a.SetStart(s); err != nil {
			if !strings.HasPrefix(err.Error(), "selection: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			return
		}
		var b Filter
		if err := b.SetStart(a.Start() + " 1"); err != nil || b.Start() != a.Start() {
			t.Errorf("%q gives key %q, which reads back as %q (%v)", s, a.Start(), b.Start(), err)
		}
	})
}
