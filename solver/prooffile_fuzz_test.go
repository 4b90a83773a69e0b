package solver

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzReadProof feeds ReadProof arbitrary text: it must never panic, and whatever it accepts
// must survive a write and a second read unchanged.
func FuzzReadProof(f *testing.F) {
	f.Add("shogilab-mate-proof 1\nroot 4k/5/4G/5/K4 b G 1\nattacker b\nplies 1\nentries 1\n4k/5/4G/5/K4 b G G*1b\n")
	f.Add("shogilab-mate-proof 1\nroot 4k/5/5/P4/KGSBR w - 1\nattacker b\nplies 8\nentries 0\n")
	f.Add("not a proof")
	f.Fuzz(func(t *testing.T, text string) {
		root, attacker, proof, err := ReadProof(strings.NewReader(text))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteProof(&buf, root, attacker, proof); err != nil {
			t.Fatal(err)
		}
		root2, attacker2, proof2, err := ReadProof(&buf)
		if err != nil {
			t.Fatalf("re-reading a written proof: %v\n%s", err, buf.String())
		}
		if root2.SFEN() != root.SFEN() || attacker2 != attacker || proof2.Plies != proof.Plies || len(proof2.Moves) != len(proof.Moves) {
			t.Fatalf("round trip changed the proof")
		}
		for code, m := range proof.Moves {
			if proof2.Moves[code] != m {
				t.Fatalf("round trip changed a move")
			}
		}
	})
}
