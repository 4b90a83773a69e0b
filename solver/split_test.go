package solver

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestSplitMergeFourPiece splits the four-piece handicap (a minimal mate in 10, Gote to move
// first; datasets/README.md) after one and after two plies, solves every subproblem within
// the plies left, in two shards (alternate leaves), and merges: the root must be the mate in
// 10 of the unsplit solve, with one proof the checker accepts.
func TestSplitMergeFourPiece(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	for _, k := range []int{1, 2} {
		leaves := SplitLeaves(root, k)
		if len(leaves) == 0 {
			t.Fatalf("k=%d: no leaves", k)
		}
		results := map[minishogi.Code]LeafResult{}
		for shard := range 2 {
			for i := shard; i < len(leaves); i += 2 {
				d, err := SolveDFPN(leaves[i], minishogi.Sente, DFPNOptions{MaxPlies: 10 - k})
				if err != nil {
					t.Fatal(err)
				}
				results[leaves[i].Code()] = LeafResult{Found: d.Found, Plies: d.Plies, Proof: d.Proof}
			}
		}
		found, plies, proof, err := MergeSplit(root, minishogi.Sente, k, 10, results)
		if err != nil {
			t.Fatal(err)
		}
		if !found || plies != 10 {
			t.Fatalf("k=%d: merged mate %v in %d, want 10", k, found, plies)
		}
		if err := CheckProof(root, proof); err != nil {
			t.Fatalf("k=%d: merged proof rejected: %v", k, err)
		}
		// Below the mate's length the merge must find none.
		if found, _, _, err := MergeSplit(root, minishogi.Sente, k, 9, results); err != nil || found {
			t.Fatalf("k=%d: within 9 plies: found %v, %v", k, found, err)
		}
		delete(results, leaves[0].Code())
		if _, _, _, err := MergeSplit(root, minishogi.Sente, k, 10, results); err == nil || !strings.Contains(err.Error(), "solver: merge: no result for the subproblem "+leaves[0].SFEN()) {
			t.Fatalf("k=%d: without the first subproblem's result: %v; want it named as missing", k, err)
		}
	}
}

// solveLeaves solves every subproblem of root split after k plies within bound-k, each with
// its proof and its certificate, as solve shard does.
func solveLeaves(t *testing.T, root minishogi.Position, k, bound int) ([]minishogi.Position, map[minishogi.Code]LeafResult) {
	t.Helper()
	leaves := SplitLeaves(root, k)
	return leaves, solveEach(t, leaves, k, bound)
}

// solveEach solves the subproblems leaves of a split after k plies within bound-k, as
// solveLeaves.
func solveEach(t *testing.T, leaves []minishogi.Position, k, bound int) map[minishogi.Code]LeafResult {
	t.Helper()
	results := map[minishogi.Code]LeafResult{}
	for _, l := range leaves {
		d, err := SolveDFPN(l, minishogi.Sente, DFPNOptions{MaxPlies: bound - k, Certificate: MaxEntries})
		if err != nil {
			t.Fatal(err)
		}
		r := LeafResult{Found: d.Found, Plies: d.Plies, Proof: d.Proof, Certificate: d.Certificate}
		if d.Certificate != nil {
			r.CertificateSize = len(d.Certificate.Replies)
		}
		results[l.Code()] = r
	}
	return results
}

// fourPieceCertificate reads the shipped certificate of the four-piece handicap of an unsplit
// solve, datasets/handicap/four-piece.cert (no mate within 8 plies; datasets/README.md).
func fourPieceCertificate(t *testing.T) (minishogi.Position, minishogi.Color, *Certificate) {
	t.Helper()
	f, err := OpenFile("../datasets/handicap/four-piece.cert")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	root, attacker, cert, err := ReadCertificate(f)
	if err != nil {
		t.Fatal(err)
	}
	return root, attacker, cert
}

// TestMergeCertificateFourPiece: the four-piece handicap mates in 10 at the least (the shipped
// datasets/handicap/four-piece.cert, of an unsplit solve, claims no mate within 8 for the
// same root and attacker; datasets/README.md). Split after 1 and after 2 plies within 10
// (the mate is found: the certificate is of its length minus 2) and within 8 (nothing
// mates: the certificate is of the whole bound), the merged certificate must claim the
// shipped one's root, attacker and plies, and both must pass the checker. Their entries
// differ (2,126 in the shipped one): each leaf's search chose its own replies, and where a
// position is reached from several leaves the merge keeps one of theirs, not the reply an
// unsplit search would have read off its table.
func TestMergeCertificateFourPiece(t *testing.T) {
	shipRoot, shipAttacker, shipped := fourPieceCertificate(t)
	if err := CheckCertificate(shipRoot, shipped); err != nil {
		t.Fatalf("the shipped certificate is rejected: %v", err)
	}
	root, _ := minishogi.Handicap("four-piece")
	if shipRoot.SFEN() != root.SFEN() || shipAttacker != minishogi.Sente || shipped.Plies != 8 {
		t.Fatalf("the shipped certificate is of %s, attacker %v, %d plies; want the four-piece start, Sente, 8", shipRoot.SFEN(), shipAttacker, shipped.Plies)
	}
	for _, bound := range []int{10, 8} {
		for _, k := range []int{1, 2} {
			t.Run(fmt.Sprintf("within %d split after %d", bound, k), func(t *testing.T) {
				_, results := solveLeaves(t, root, k, bound)
				cert, err := MergeCertificate(root, minishogi.Sente, k, bound, nil, results)
				if err != nil {
					t.Fatal(err)
				}
				if cert.Plies != shipped.Plies || cert.AttackerToMove != shipped.AttackerToMove {
					t.Fatalf("merged: no mate within %d plies, attacker to move %v; the shipped certificate: %d, %v", cert.Plies, cert.AttackerToMove, shipped.Plies, shipped.AttackerToMove)
				}
				if err := CheckCertificate(root, cert); err != nil {
					t.Fatalf("the merged certificate is rejected: %v", err)
				}
				var buf bytes.Buffer
				if err := WriteCertificate(&buf, root, minishogi.Sente, cert); err != nil {
					t.Fatal(err)
				}
				if _, _, back, err := ReadCertificate(&buf); err != nil || !maps.Equal(back.Replies, cert.Replies) {
					t.Fatalf("read back: %v", err)
				}
			})
		}
	}
}

// TestMergeCertificateRejects corrupts one subproblem's certificate at a time (the four-piece
// start split after 2 plies within 10): each merge must fail naming the subproblem and what
// is wrong with its certificate.
func TestMergeCertificateRejects(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	_, results := solveLeaves(t, root, 2, 10)
	// A subproblem the merged certificate's check reaches, whose certificate answers at its
	// own position (the defender to move, with 2 plies or more to escape over).
	reached, err := CertificateLeaves(root, minishogi.Sente, 2, 10, nil, results)
	if err != nil {
		t.Fatal(err)
	}
	var leaf minishogi.Position
	for _, c := range reached {
		if _, ok := results[c].Certificate.Replies[c]; ok {
			leaf, _ = c.Decode()
			break
		}
	}
	// The certificates of the subproblems the check does not reach are not read: without
	// one of them the merge is the same.
	merged, err := MergeCertificate(root, minishogi.Sente, 2, 10, nil, results)
	if err != nil {
		t.Fatal(err)
	}
	if len(reached) == len(results) {
		t.Fatal("the check reaches every subproblem; the test needs another split")
	}
	for c, r := range results {
		if r.Certificate != nil && !slices.Contains(reached, c) {
			without := maps.Clone(results)
			r.Certificate = nil
			without[c] = r
			if d, err := MergeCertificate(root, minishogi.Sente, 2, 10, nil, without); err != nil || !maps.Equal(d.Replies, merged.Replies) {
				t.Fatalf("without the certificate of a subproblem the check does not reach: %v", err)
			}
			break
		}
	}
	good := results[leaf.Code()]
	if good.Certificate.Plies < 4 {
		t.Fatalf("the subproblem %s has a certificate of %d plies; the test needs 4 or more", leaf.SFEN(), good.Certificate.Plies)
	}
	// A move of the attacker's pieces (the same position, Sente to move): not the defender's.
	f := strings.Fields(leaf.SFEN())
	f[1] = "b"
	var illegal minishogi.Move
	sente := mustSFEN(t, strings.Join(f, " "))
	for _, m := range sente.LegalMoves(nil) {
		if !slices.Contains(leaf.LegalMoves(nil), m) {
			illegal = m
			break
		}
	}
	key := strings.Join(strings.Fields(leaf.SFEN())[:3], " ") // as the entries name positions
	name := "solver: merge: the subproblem " + key + ": its certificate: "
	for _, c := range []struct {
		name    string
		corrupt func(r *LeafResult)
		want    string
	}{
		{"reply removed", func(r *LeafResult) { delete(r.Certificate.Replies, leaf.Code()) },
			name + "retro: disproof: after the root the certificate has no defender reply (a hole)"},
		{"illegal reply", func(r *LeafResult) { r.Certificate.Replies[leaf.Code()] = illegal },
			name + "retro: disproof: after the root the certificate's reply " + illegal.String() + " is illegal"},
		{"no certificate", func(r *LeafResult) { r.Certificate = nil },
			fmt.Sprintf("solver: merge: the subproblem %s: no certificate (of no mate within %d plies)", key, good.Certificate.Plies)},
		{"too few plies", func(r *LeafResult) { r.Certificate.Plies -= 2 },
			fmt.Sprintf("solver: merge: the subproblem %s: a certificate of no mate within %d plies; its result needs %d", key, good.Certificate.Plies-2, good.Certificate.Plies)},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := good
			bad.Certificate = &Certificate{Plies: good.Certificate.Plies, AttackerToMove: good.Certificate.AttackerToMove, Replies: maps.Clone(good.Certificate.Replies)}
			c.corrupt(&bad)
			corrupted := maps.Clone(results)
			corrupted[leaf.Code()] = bad
			if _, err := MergeCertificate(root, minishogi.Sente, 2, 10, nil, corrupted); err == nil || err.Error() != c.want {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

// shownPlies walks certificate d from s by the definition of docs/proofs.md (certificate
// check) with no memo of the most plies (only of a position and its plies together), and
// returns, for each defender position that needs an entry, the most plies it is met with.
func shownPlies(s minishogi.Position, attacker minishogi.Color, d *Certificate) map[minishogi.Code]int {
	out := map[minishogi.Code]int{}
	type node struct {
		code  minishogi.Code
		plies int
	}
	seen := map[node]bool{}
	var walk func(p minishogi.Position, n int)
	walk = func(p minishogi.Position, n int) {
		c := p.Code()
		if seen[node{c, n}] {
			return
		}
		seen[node{c, n}] = true
		moves := p.LegalMoves(nil)
		if len(moves) == 0 || n <= 0 {
			return
		}
		if p.SideToMove() == attacker {
			for _, m := range moves {
				q := p
				q.MakeMove(m)
				walk(q, n-1)
			}
			return
		}
		if n == 1 {
			return
		}
		out[c] = max(out[c], n)
		if m, ok := d.Replies[c]; ok {
			q := p
			q.MakeMove(m)
			walk(q, n-1)
		}
	}
	walk(s, d.Plies)
	return out
}

// TestMergeCertificateConflicts: split after 2 plies within 10, the certificates of the
// four-piece start's subproblems that the merge uses (CertificateLeaves) give some positions
// different replies, met with different plies (found by shownPlies). The merge must keep, at
// each, the reply of the certificate that meets it with the most plies; and at one of them
// at least, the other reply must break the merged certificate (an escape over fewer plies
// only), so that the rule is needed here.
func TestMergeCertificateConflicts(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	_, results := solveLeaves(t, root, 2, 10)
	merged, err := MergeCertificate(root, minishogi.Sente, 2, 10, nil, results)
	if err != nil {
		t.Fatal(err)
	}
	reached, err := CertificateLeaves(root, minishogi.Sente, 2, 10, nil, results)
	if err != nil {
		t.Fatal(err)
	}
	type source struct {
		reply minishogi.Move
		plies int
	}
	sources := map[minishogi.Code][]source{}
	for _, code := range reached {
		l, _ := code.Decode()
		d := results[code].Certificate
		for c, n := range shownPlies(l, minishogi.Sente, d) {
			sources[c] = append(sources[c], source{d.Replies[c], n})
		}
	}
	conflicts, needed := 0, 0
	for c, ss := range sources {
		reply, ok := merged.Replies[c]
		if !ok || c == root.Code() {
			continue // not used, or the start's own reply (from the first ply's AND/OR rule)
		}
		most := slices.MaxFunc(ss, func(a, b source) int { return cmp.Compare(a.plies, b.plies) })
		for _, s := range ss {
			if s.reply == most.reply || s.plies == most.plies {
				continue
			}
			conflicts++
			if reply != most.reply {
				p, _ := c.Decode()
				t.Fatalf("at %s the merge keeps %s; the certificate meeting it with %d plies has %s", p.SFEN(), reply, most.plies, most.reply)
			}
			swapped := &Certificate{Plies: merged.Plies, AttackerToMove: merged.AttackerToMove, Replies: maps.Clone(merged.Replies)}
			swapped.Replies[c] = s.reply
			if CheckCertificate(root, swapped) != nil {
				needed++
			}
		}
	}
	if conflicts == 0 || needed == 0 {
		t.Fatalf("%d conflicting replies, %d of them needed the rule; the test needs another split", conflicts, needed)
	}
	t.Logf("%d conflicting replies, %d of them would break the merged certificate", conflicts, needed)
}

// TestSplitUnderFixedReplies splits the four-piece start (a minimal mate in 10; the shipped
// datasets/handicap/four-piece.cert shows no mate within 8) after 2 plies within 10 with the
// defender's first reply fixed. Under the shipped certificate's reply the split has a leaf
// for each attacker answer to it, and the merged certificate claims what the shipped one
// does. Under each of the start's replies in turn, the merged bound is at most 8 (a bound
// past the true minimal mate would be false) and the best of them is 8: a fixed split can
// only lower the bound, and the right reply loses nothing. Entries of fixed at attacker
// positions are not followed (fixing the attacker's move would be unsound), and a fixed reply
// that is not a legal move is an error.
func TestSplitUnderFixedReplies(t *testing.T) {
	_, _, shipped := fourPieceCertificate(t)
	root, _ := minishogi.Handicap("four-piece")
	g := moveRules{}
	reply := shipped.Replies[root.Code()]
	after := g.Play(root, reply)
	want := map[minishogi.Code]bool{}
	for _, a := range g.Moves(after, nil) {
		leaf := g.Play(after, a)
		want[leaf.Code()] = true
	}

	t.Run("the certificate's reply", func(t *testing.T) {
		leaves, followed, err := SplitLeavesUnder(root, minishogi.Sente, 2, shipped.Replies)
		if err != nil {
			t.Fatal(err)
		}
		got := map[minishogi.Code]bool{}
		for _, l := range leaves {
			got[l.Code()] = true
		}
		if len(leaves) != len(want) || !maps.Equal(got, want) {
			t.Fatalf("%d leaves; want the %d positions after the reply %s and each attacker move", len(leaves), len(want), reply)
		}
		if len(followed) != 1 || followed[root.Code()] != reply {
			t.Fatalf("followed %v; want the root's reply %s alone", followed, reply)
		}
		cert, err := MergeCertificate(root, minishogi.Sente, 2, 10, followed, solveEach(t, leaves, 2, 10))
		if err != nil {
			t.Fatal(err)
		}
		if cert.Plies != shipped.Plies {
			t.Fatalf("merged: no mate within %d plies; the shipped certificate: %d", cert.Plies, shipped.Plies)
		}
		if err := CheckCertificate(root, cert); err != nil {
			t.Fatalf("the merged certificate is rejected: %v", err)
		}
	})

	t.Run("each reply", func(t *testing.T) {
		best := -1
		for _, r := range g.Moves(root, nil) {
			fixed := map[minishogi.Code]minishogi.Move{root.Code(): r}
			leaves, _, err := SplitLeavesUnder(root, minishogi.Sente, 2, fixed)
			if err != nil {
				t.Fatal(err)
			}
			cert, err := MergeCertificate(root, minishogi.Sente, 2, 10, fixed, solveEach(t, leaves, 2, 10))
			if err != nil {
				t.Fatalf("%s: %v", r, err)
			}
			lower := -1
			if cert != nil {
				if err := CheckCertificate(root, cert); err != nil {
					t.Fatalf("%s: the merged certificate is rejected: %v", r, err)
				}
				lower = cert.Plies
			}
			if lower > 8 {
				t.Fatalf("%s: no mate within %d plies, past the minimal mate in 10", r, lower)
			}
			best = max(best, lower)
		}
		if best != 8 {
			t.Fatalf("the best fixed reply shows no mate within %d plies; want 8", best)
		}
	})

	t.Run("attacker entries not followed", func(t *testing.T) {
		fixed := maps.Clone(shipped.Replies)
		fixed[after.Code()] = g.Moves(after, nil)[0] // an attacker position
		leaves, followed, err := SplitLeavesUnder(root, minishogi.Sente, 2, fixed)
		if err != nil {
			t.Fatal(err)
		}
		if len(leaves) != len(want) || len(followed) != 1 {
			t.Fatalf("%d leaves, %d replies followed; want %d and 1", len(leaves), len(followed), len(want))
		}
	})

	t.Run("an illegal fixed reply", func(t *testing.T) {
		illegal := g.Moves(after, nil)[0] // a move of the other side
		_, _, err := SplitLeavesUnder(root, minishogi.Sente, 2, map[minishogi.Code]minishogi.Move{root.Code(): illegal})
		if err == nil || !strings.Contains(err.Error(), "solver: split: the fixed reply "+illegal.String()+" is not a legal move of ") {
			t.Fatalf("err = %v; want the reply named as illegal", err)
		}
	})
}
