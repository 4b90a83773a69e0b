package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/solver"
)

// header returns the first five lines of a proof or certificate file: the format, root,
// attacker, plies and entries lines (docs/proofs.md#layout).
func header(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for len(lines) < 5 && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// shipped is the head of the four-piece handicap's certificate of an unsplit solve,
// datasets/handicap/four-piece.cert: no mate within 8 plies (the minimal mate is 10,
// datasets/README.md).
func shipped(t *testing.T) []string {
	return header(t, filepath.Join("..", "..", "datasets", "handicap", "four-piece.cert"))[:4]
}

// shardAll solves a split in shards 0/n .. n-1/n and returns the result files.
func shardAll(t *testing.T, split string, n int, extra ...string) []string {
	t.Helper()
	var results []string
	for i := range n {
		r := fmt.Sprintf("%s-%d.result", split, i)
		args := append([]string{"shard", split, "--shard", fmt.Sprintf("%d/%d", i, n), "-o", r}, extra...)
		if code, out, stderr := runSolve(args...); code != 0 {
			t.Fatalf("%v: exit %d, %s %s", args, code, out, stderr)
		}
		results = append(results, r)
	}
	return results
}

// TestMergeCertificate: the four-piece handicap split after 2 plies within 10 and after 3
// within 8 (where nothing mates), in two shards, merges with --certificate into a
// certificate of no mate within 8 plies of the same root and attacker as the shipped one of
// the unsplit solve, which solve verify accepts (and, when it is installed, with
// Fairy-Stockfish's moves). Their entries differ: each subproblem's search chose its own
// replies (solver.TestMergeCertificateFourPiece).
func TestMergeCertificate(t *testing.T) {
	dir := t.TempDir()
	want := shipped(t)
	for _, c := range []struct {
		name      string
		bound, k  string
		mergeSays string
	}{
		{"mate in 10, split after 2", "10", "2", "mate in 10 plies (minimal"},
		{"no mate within 8, split after 3", "8", "3", "no forced mate within 8 plies (proven)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sp := filepath.Join(dir, "four-"+c.bound+"-"+c.k+".split")
			if code, out, stderr := runSolve("handicap", "four-piece", "--max-plies", c.bound, "--split", c.k, "--split-file", sp); code != 0 {
				t.Fatalf("split: exit %d, %s %s", code, out, stderr)
			}
			cert := sp + ".cert"
			args := append([]string{"merge", sp, "--certificate", cert}, shardAll(t, sp, 2)...)
			code, out, stderr := runSolve(args...)
			if code != 0 || !strings.Contains(out, c.mergeSays) || !strings.Contains(out, "four-piece: no mate within 8 plies; merged certificate checked") {
				t.Fatalf("merge: exit %d, %s %s", code, out, stderr)
			}
			if got := header(t, cert)[:4]; strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("the merged certificate's header %q; the unsplit one's %q", got, want)
			}
			if code, out, stderr := runSolve("verify", cert); code != 0 || !strings.Contains(out, "no mate within 8 plies") || !strings.Contains(out, "holds") {
				t.Errorf("verify: exit %d, %s %s", code, out, stderr)
			}
			if fsf := fsftest.Optional(t); fsf != "" {
				if code, rep, stderr := verifyUSI(t, fsf, cert); code != 0 || !rep.OK || rep.USI.Unexplained != 0 {
					t.Errorf("verify --usi: exit %d, %s, %+v", code, stderr, rep)
				}
			}
		})
	}
}

// TestSplitReplies: the four-piece handicap split after 2 plies within 10, following only the
// defender's first reply of the shipped certificate (--split-replies), has 13 subproblems
// (the attacker's answers to that reply; 41 with every reply) and merges into a certificate
// of no mate within 8 plies with the shipped one's header, which solve verify accepts. Such a
// split shows a lower bound only: merge refuses --proof and wants --certificate; results of
// the split with every reply are refused, as are a certificate of another root and
// --split-replies without --split, each in one line.
func TestSplitReplies(t *testing.T) {
	dir := t.TempDir()
	shippedCert := filepath.Join("..", "..", "datasets", "handicap", "four-piece.cert")
	sp := filepath.Join(dir, "four.split")
	code, out, stderr := runSolve("handicap", "four-piece", "--max-plies", "10", "--split", "2", "--split-file", sp, "--split-replies", shippedCert)
	if code != 0 || !strings.Contains(out, "13 subproblems after 2 plies") || !strings.Contains(out, "the defender's replies fixed at 1 position") {
		t.Fatalf("split: exit %d, %s %s", code, out, stderr)
	}
	results := shardAll(t, sp, 2)
	cert := filepath.Join(dir, "four.cert")
	code, out, stderr = runSolve(append([]string{"merge", sp, "--certificate", cert}, results...)...)
	if code != 0 || !strings.HasPrefix(out, "four-piece: no mate within 8 plies; merged certificate checked") {
		t.Fatalf("merge: exit %d, %s %s", code, out, stderr)
	}
	if got, want := header(t, cert)[:4], shipped(t); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the merged certificate's header %q; the unsplit one's %q", got, want)
	}
	if code, out, stderr := runSolve("verify", cert); code != 0 || !strings.Contains(out, "holds") {
		t.Errorf("verify: exit %d, %s %s", code, out, stderr)
	}

	// A split file whose fixed reply is not a legal move (edited by hand) is refused.
	bad, err := readSplit(sp)
	if err != nil {
		t.Fatal(err)
	}
	for c := range bad.Fixed {
		bad.Fixed[c] = bad.Fixed[c] ^ 0x0101 // another move, of neither side here
	}
	badSplit := filepath.Join(dir, "bad.split")
	if err := saveGob(badSplit, bad); err != nil {
		t.Fatal(err)
	}

	all := filepath.Join(dir, "all.split")
	if code, out, stderr := runSolve("handicap", "four-piece", "--max-plies", "10", "--split", "2", "--split-file", all); code != 0 || !strings.Contains(out, "41 subproblems") {
		t.Fatalf("split: exit %d, %s %s", code, out, stderr)
	}
	allResults := shardAll(t, all, 1)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"a proof of a lower-bound split", append([]string{"merge", sp, "--proof", filepath.Join(dir, "p"), "--certificate", filepath.Join(dir, "c1")}, results...),
			"solve merge: " + sp + " fixes the defender's replies at 1 position: it can show a lower bound only; want --certificate FILE and no --proof"},
		{"no certificate asked", append([]string{"merge", sp}, results...), "it can show a lower bound only"},
		{"results of the split with every reply", append([]string{"merge", sp, "--certificate", filepath.Join(dir, "c2")}, allResults...),
			"solve merge: " + allResults[0] + ": not a result of the split " + sp},
		{"the split with every reply given the fixed split's results", append([]string{"merge", all}, results...),
			"solve merge: " + results[0] + ": not a result of the split " + all},
		{"another root's certificate", []string{"handicap", "three-piece", "--max-plies", "10", "--split", "2", "--split-file", filepath.Join(dir, "x.split"), "--split-replies", shippedCert},
			"solve handicap: --split-replies: " + shippedCert + ": a certificate of 4k/4p/5/P4/KGSBR w - 1 with attacker sente, not of 3gk/4p/5/P4/KGSBR w - 1"},
		{"without a split", []string{"handicap", "four-piece", "--max-plies", "10", "--split-replies", shippedCert}, "solve handicap: --split-replies is for a split (--split K)"},
		{"an illegal fixed reply", append([]string{"merge", badSplit, "--certificate", filepath.Join(dir, "c3")}, shardAll(t, badSplit, 1)...), "is not a legal move of "},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := runSolve(c.args...)
			if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, %s, stderr %q; want one line with %q", code, out, stderr, c.want)
			}
		})
	}
}

// TestMergeCertificateRejects corrupts by hand what a certificate merge reads and writes: a
// subproblem's certificate in a shard's results (its own reply removed; an illegal reply), a
// result without certificates (format 1, or over --certificate-max), results of another
// split, and the merged certificate itself. Each is refused in one line that names what is
// wrong and where.
func TestMergeCertificateRejects(t *testing.T) {
	dir := t.TempDir()
	sp := split(t, dir) // four-piece after 2 plies within 10
	results := shardAll(t, sp, 2)

	// A subproblem of shard 0 that the merged certificate needs (solver.CertificateLeaves)
	// and whose certificate answers at its own position.
	answers := map[minishogi.Code]solver.LeafResult{}
	var rf resultFile
	for _, path := range results {
		if err := loadGob(path, &rf); err != nil {
			t.Fatal(err)
		}
		for _, r := range rf.Results {
			p, _ := minishogi.ParseSFEN(r.Leaf)
			answers[p.Code()] = solver.LeafResult{Found: r.Found, Plies: r.Plies, CertificateSize: len(r.Replies)}
		}
	}
	root, _ := minishogi.Handicap("four-piece")
	reached, err := solver.CertificateLeaves(root, minishogi.Sente, 2, 10, nil, answers)
	if err != nil {
		t.Fatal(err)
	}
	if err := loadGob(results[0], &rf); err != nil {
		t.Fatal(err)
	}
	leaf := -1
	var code minishogi.Code
	for i, r := range rf.Results {
		p, err := minishogi.ParseSFEN(r.Leaf)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.Replies[p.Code()]; ok && r.Certified && slices.Contains(reached, p.Code()) {
			leaf, code = i, p.Code()
			break
		}
	}
	if leaf < 0 {
		t.Fatal("no subproblem of shard 0 that the merge needs answers at its own position; the test needs another")
	}
	key := strings.Join(strings.Fields(rf.Results[leaf].Leaf)[:3], " ")
	// corrupted writes shard 0's results changed by change, and merges them with shard 1's.
	corrupted := func(name string, change func(r *resultFile), mergeArgs ...string) (int, string, string) {
		t.Helper()
		var bad resultFile
		if err := loadGob(results[0], &bad); err != nil {
			t.Fatal(err)
		}
		change(&bad)
		path := filepath.Join(dir, name+".result")
		if err := saveGob(path, &bad); err != nil {
			t.Fatal(err)
		}
		return runSolve(append([]string{"merge", sp, path, results[1]}, mergeArgs...)...)
	}
	cert := filepath.Join(dir, "merged.cert") // written only at the end
	rookMove, err := minishogi.ParseMoveSyntax("1e1a")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change func(r *resultFile)
		want   string
	}{
		{"reply removed", func(r *resultFile) { delete(r.Results[leaf].Replies, code) },
			"solve merge: " + filepath.Join(dir, "reply-removed.result") + ": solver: merge: the subproblem " + key + ": its certificate: retro: disproof: after the root the certificate has no defender reply (a hole)\n"},
		// 1e1a, the rook's move of Sente (the attacker), is not Gote's.
		{"illegal reply", func(r *resultFile) { r.Results[leaf].Replies[code] = rookMove },
			"solve merge: " + filepath.Join(dir, "illegal-reply.result") + ": solver: merge: the subproblem " + key + ": its certificate: retro: disproof: after the root the certificate's reply 1e1a is illegal\n"},
		{"format 1", func(r *resultFile) { r.Format = resultFormatV1 },
			"solve merge: " + filepath.Join(dir, "format-1.result") + ": a \"shogilab-split-result 1\" file has no certificates: solve its shard again to merge a certificate\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := corrupted(strings.ReplaceAll(c.name, " ", "-"), c.change, "--certificate", cert)
			if code != 1 || out != "" && !strings.Contains(out, "mate in 10") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, stderr, c.want)
			}
			if _, err := os.Stat(cert); !os.IsNotExist(err) {
				t.Errorf("a certificate was written (%v)", err)
			}
		})
	}
	t.Run("format 1 without --certificate", func(t *testing.T) {
		code, out, stderr := corrupted("v1", func(r *resultFile) { r.Format = resultFormatV1 })
		if code != 0 || !strings.Contains(out, "mate in 10 plies (minimal") {
			t.Errorf("a proof from a format 1 result: exit %d, %s %s", code, out, stderr)
		}
	})
	t.Run("over --certificate-max", func(t *testing.T) {
		capped := filepath.Join(dir, "capped.split")
		if err := os.Link(sp, capped); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		for i := range 2 {
			args := []string{"shard", capped, "--shard", fmt.Sprintf("%d/2", i), "-o", fmt.Sprintf("%s-%d.result", capped, i), "--certificate-max", "1"}
			code, o, stderr := runSolve(args...)
			if code != 0 || !strings.Contains(o, "certificates over --certificate-max 1 left out") {
				t.Fatalf("%v: exit %d, %s %s", args, code, o, stderr)
			}
			out.WriteString(o)
		}
		code, _, stderr := runSolve("merge", capped, capped+"-0.result", capped+"-1.result", "--certificate", cert)
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "has no certificate: the certificate of no mate within") || !strings.Contains(stderr, "has over 1 entries; not written") {
			t.Errorf("exit %d, shards said %q, stderr %q", code, out.String(), stderr)
		}
	})
	t.Run("another split", func(t *testing.T) {
		other := filepath.Join(dir, "other.split")
		if code, out, stderr := runSolve("handicap", "four-piece", "--max-plies", "8", "--split", "2", "--split-file", other); code != 0 {
			t.Fatalf("split: exit %d, %s %s", code, out, stderr)
		}
		theirs := shardAll(t, other, 1)
		code, _, stderr := runSolve("merge", sp, results[0], theirs[0], "--certificate", cert)
		if want := "solve merge: " + theirs[0] + ": not a result of the split " + sp + "\n"; code != 1 || stderr != want {
			t.Errorf("exit %d, stderr %q; want %q", code, stderr, want)
		}
	})

	// The merged certificate, then with the start's entry removed, and with its reply
	// replaced by the attacker's move 1e1a.
	if code, out, stderr := runSolve(append([]string{"merge", sp, "--certificate", cert}, results...)...); code != 0 {
		t.Fatalf("merge: exit %d, %s %s", code, out, stderr)
	}
	var text []byte
	text, err = os.ReadFile(cert)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "4k/4p/5/P4/KGSBR w - ") {
			start = i
		}
	}
	if start < 5 {
		t.Fatalf("the merged certificate has no entry for the start:\n%s", strings.Join(lines[:5], "\n"))
	}
	var entries int
	fmt.Sscanf(lines[4], "entries %d", &entries)
	holed := append(append(append([]string{}, lines[:4]...), fmt.Sprintf("entries %d", entries-1)), lines[5:start]...)
	holed = append(holed, lines[start+1:]...)
	illegal := append([]string{}, lines...)
	illegal[start] = "4k/4p/5/P4/KGSBR w - 1e1a"
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"the start's entry removed", holed, "after the root the certificate has no defender reply (a hole)"},
		{"an illegal reply at the start", illegal, "after the root the certificate's reply 1e1a is illegal"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".cert")
			if err := os.WriteFile(path, []byte(strings.Join(c.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := runSolve("verify", path)
			if code != 1 || !strings.Contains(out+stderr, c.want) {
				t.Errorf("verify: exit %d, stdout %q, stderr %q; want %q", code, out, stderr, c.want)
			}
		})
	}
}
