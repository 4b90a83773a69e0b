package solver

import (
	"bufio"
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

// FuzzPlainText reads arbitrary bytes as a proof or certificate file, plain or compressed, as
// solve verify does: nothing panics, a bad first line is quoted by a short prefix, and any
// other error quotes at most a field of one line (MaxLineBytes, Go-quoted: four times that
// at the most).
func FuzzPlainText(f *testing.F) {
	f.Add([]byte("shogilab-mate-proof 1\nroot 4k/5/4G/5/K4 b G 1\nattacker b\nplies 1\nentries 1\n4k/5/4G/5/K4 b G G*1b\n"))
	f.Add([]byte("shogilab-nomate-certificate 1\nroot 4k/5/5/P4/KGSBR w - 1\nattacker b\nplies 6\nentries 0\n"))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	f.Add([]byte{0xfd, '7', 'z', 'X', 'Z', 0, 0, 4})
	f.Add(bytes.Repeat([]byte{0}, 200))
	f.Fuzz(func(t *testing.T, data []byte) {
		plain, err := PlainText(bytes.NewReader(data))
		if err != nil {
			return
		}
		r := bufio.NewReader(plain)
		format, err := FileFormat(r)
		if err != nil {
			if len(err.Error()) > 400 {
				t.Fatalf("an error of %d bytes: %.100s...", len(err.Error()), err)
			}
			return
		}
		if format == ProofFormat {
			_, _, _, err = ReadProof(r)
		} else {
			_, _, _, err = ReadCertificate(r)
		}
		if err != nil && len(err.Error()) > 400+4*MaxLineBytes {
			t.Fatalf("an error of %d bytes: %.100s...", len(err.Error()), err)
		}
	})
}
