package solver

import (
	"os"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestProofsDocExample reads the worked examples of docs/proofs.md and holds them to what the
// page says of them, worked by hand there: the proof holds; without its second entry it has a
// hole after 1e1a+ 3a4b; with 5e4e (onto Sente's own gold) an illegal move there; with plies 1
// the defender still has a move after 1e1a+ and no ply is left. The certificate holds; with
// the reply 1a1b it fails on an illegal reply; with plies 5 it has a hole after 1a2a 5e4d.
func TestProofsDocExample(t *testing.T) {
	example, certExample := docExamples(t)
	for _, c := range []struct{ name, old, new, want string }{
		{"certificate as shown", "", "", ""},
		{"certificate reply 1a1b", " 1a2a\n", " 1a1b\n", "after the root the certificate's reply 1a1b is illegal"},
		{"certificate plies 5", "plies 3", "plies 5", "after 1a2a 5e4d the certificate has no defender reply (a hole)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, _, cert, err := ReadCertificate(strings.NewReader(strings.Replace(certExample, c.old, c.new, 1)))
			if err != nil {
				t.Fatal(err)
			}
			err = CheckCertificate(root, cert)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("the example fails: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
	for _, c := range []struct{ name, old, new, want string }{
		{"as shown", "", "", ""},
		{"second entry removed", "entries 2\n", "entries 1\n", "after 1e1a+ 3a4b the proof has no attacker move (a hole)"},
		{"5e4e", " 5e4d", " 5e4e", "after 1e1a+ 3a4b the proof's move 5e4e is illegal"},
		{"plies 1", "plies 3", "plies 1", "after 1e1a+ the defender is not mated and no plies are left"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(example, c.old, c.new, 1)
			if c.name == "second entry removed" {
				text = text[:strings.LastIndex(strings.TrimSuffix(text, "\n"), "\n")+1]
			}
			root, _, proof, err := ReadProof(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			err = CheckProof(root, proof)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("the example fails: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}

// docExamples returns the worked examples of docs/proofs.md: the proof and the certificate.
func docExamples(t *testing.T) (example, certExample string) {
	t.Helper()
	page, err := os.ReadFile("../docs/proofs.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), `<a id="example"></a>`)
	if !ok {
		t.Fatal(`docs/proofs.md has no <a id="example"> section`)
	}
	blocks := strings.Split(section, "```")
	if len(blocks) < 4 {
		t.Fatal("the example section has fewer than two code blocks")
	}
	example, certExample = strings.TrimPrefix(blocks[1], "\n"), strings.TrimPrefix(blocks[3], "\n")
	if !strings.HasPrefix(example, ProofFormat+"\n") || !strings.HasPrefix(certExample, CertificateFormat+"\n") {
		t.Fatalf("the example section's blocks are not a proof and a certificate:\n%s\n%s", example, certExample)
	}
	return example, certExample
}

// TestProofsDocSplitExample: docs/proofs.md (split certificates) says the worked certificate,
// no mate within 3 plies of the bare-king start, is what a split of it after 1 ply merges
// to: the two subproblems need no entries and the first longest defence, 1a2a, is the root's.
func TestProofsDocSplitExample(t *testing.T) {
	_, certExample := docExamples(t)
	root := mustSFEN(t, "4k/5/5/P4/KGSBR w - 1")
	results := map[minishogi.Code]LeafResult{}
	for _, l := range SplitLeaves(root, 1) {
		d, err := SolveDFPN(l, minishogi.Sente, DFPNOptions{MaxPlies: 2, Certificate: MaxEntries})
		if err != nil {
			t.Fatal(err)
		}
		if d.Found || d.Certificate == nil || len(d.Certificate.Replies) != 0 {
			t.Fatalf("the subproblem %s: mate %v, certificate %v; the page says no mate within 2 and no entries", l.SFEN(), d.Found, d.Certificate)
		}
		results[l.Code()] = LeafResult{Certificate: d.Certificate}
	}
	if len(results) != 2 {
		t.Fatalf("%d subproblems after 1 ply; the page says two (1a2a, 1a2b)", len(results))
	}
	d, err := MergeCertificate(root, minishogi.Sente, 1, 3, nil, results)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := WriteCertificate(&buf, root, minishogi.Sente, d); err != nil {
		t.Fatal(err)
	}
	if buf.String() != certExample {
		t.Errorf("merged:\n%s\nthe page:\n%s", buf.String(), certExample)
	}
}
