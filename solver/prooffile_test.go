package solver

import (
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// goldDropProof is a proof file written by hand for smallMates' "gold drop mate": Gote's
// king on 1a, Sente's gold on 1c and a gold in hand; G*1b mates at once.
const goldDropProof = `shogilab-mate-proof 1
root 4k/5/4G/5/K4 b G 1
attacker b
plies 1
entries 1
4k/5/4G/5/K4 b G G*1b
`

// TestReadProofRejects: proof files whose header and lines disagree, with a line twice, of
// the other format or with a negative length are refused, each for its reason.
func TestReadProofRejects(t *testing.T) {
	root, attacker, p, err := ReadProof(strings.NewReader(goldDropProof))
	if err != nil {
		t.Fatalf("the hand-written proof: %v", err)
	}
	if attacker != minishogi.Sente || p.Plies != 1 || len(p.Moves) != 1 || !p.AttackerToMove {
		t.Fatalf("read attacker %v, plies %d, %d moves, attacker to move %v", attacker, p.Plies, len(p.Moves), p.AttackerToMove)
	}
	if err := CheckProof(root, p); err != nil {
		t.Fatalf("the hand-written proof does not check: %v", err)
	}
	line := "4k/5/4G/5/K4 b G G*1b\n"
	for _, c := range []struct{ name, text, want string }{
		{"header counts more lines", strings.Replace(goldDropProof, "entries 1", "entries 2", 1),
			"solver: proof: the header says 2 entries, the file has 1"},
		{"header counts fewer lines", strings.Replace(goldDropProof, "entries 1", "entries 0", 1),
			"solver: proof line 6: more entries than the 0 the header declares"},
		{"a line twice", strings.Replace(goldDropProof, "entries 1", "entries 2", 1) + line,
			"solver: proof line 7: position 4k/5/4G/5/K4 b G appears twice"},
		{"a position twice with two moves", strings.Replace(goldDropProof, "entries 1", "entries 2", 1) + "4k/5/4G/5/K4 b G G*2b\n",
			"solver: proof line 7: position 4k/5/4G/5/K4 b G appears twice"},
		{"a certificate", strings.Replace(goldDropProof, ProofFormat, CertificateFormat, 1),
			`solver: proof line 1: got "shogilab-nomate-certificate 1", want "shogilab-mate-proof 1"`},
		{"negative plies", strings.Replace(goldDropProof, "plies 1", "plies -1", 1),
			`solver: proof: plies "-1" is not a count`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, err := ReadProof(strings.NewReader(c.text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v; want %q", err, c.want)
			}
		})
	}
}
