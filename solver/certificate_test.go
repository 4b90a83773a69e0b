package solver

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestCertificateByBruteForce: two silvers against a lone king mate in 5 (brute force, see
// smallMates), so there is no mate within 3. The certificate of that must pass the checker
// and survive a write and read; replacing any of its defender replies by one after which
// the brute force finds a mate in 1 must be rejected, and so must removing the root reply.
func TestCertificateByBruteForce(t *testing.T) {
	root := mustSFEN(t, "2k2/5/5/5/K4 b 2S 1")
	if plainMinimalMate(root, minishogi.Sente, 5) != 5 {
		t.Fatal("the brute force does not find the mate in 5")
	}
	d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 5, Certificate: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Minimal || d.Plies != 5 || d.Lower != 3 || d.Certificate == nil {
		t.Fatalf("got mate %d (minimal %v), lower %d, certificate %v", d.Plies, d.Minimal, d.Lower, d.Certificate != nil)
	}
	var buf bytes.Buffer
	if err := WriteCertificate(&buf, root, minishogi.Sente, d.Certificate); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), CertificateFormat+"\n") {
		t.Fatalf("the file starts %q", buf.String()[:40])
	}
	r2, _, cert, err := ReadCertificate(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckCertificate(r2, cert); err != nil {
		t.Fatalf("the certificate read back is rejected: %v", err)
	}
	rejected := 0
	for code, reply := range cert.Replies {
		q, _ := code.Decode()
		for _, m := range q.LegalMoves(nil) {
			c := q
			c.MakeMove(m)
			if m == reply || !plainMates(c, minishogi.Sente, 1) {
				continue
			}
			bad := *cert
			bad.Replies = maps.Clone(cert.Replies)
			bad.Replies[code] = m
			if CheckCertificate(root, &bad) == nil {
				t.Fatalf("at %s the reply %s is mated in 1, the checker accepts it", q.SFEN(), m)
			}
			rejected++
		}
	}
	if rejected == 0 {
		t.Fatal("no reply could be corrupted; the test needs another position")
	}
}

// TestCertificateTooLarge: a limit below the certificate's size leaves it out, with a note.
func TestCertificateTooLarge(t *testing.T) {
	root := mustSFEN(t, "2k2/5/5/5/K4 b 2S 1")
	d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 5, Certificate: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d.Certificate != nil || d.CertificateNote == "" {
		t.Fatalf("certificate %v, note %q", d.Certificate != nil, d.CertificateNote)
	}
}
