package solver

import (
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestCheckpointResume stops the four-piece handicap (mate in 10, see TestParallelFourPiece
// and datasets/README.md) at a node limit part-way, resumes from the checkpoint written at the
// stop, and must reach the same answer with a proof the checker accepts; the resumed search
// must start from the saved state (the stopped length, the saved nodes), not afresh.
func TestCheckpointResume(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	path := filepath.Join(t.TempDir(), "four.ckpt")
	var saves int
	save := func(c *Checkpoint) error { saves++; return WriteCheckpoint(path, c) }
	const limit = 2000
	d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 10, Name: "four-piece", NodeLimit: limit, Checkpoint: save})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Stopped || d.Found || saves != 1 {
		t.Fatalf("with a node limit of %d: stopped %v, found %v, %d checkpoints; want stopped, not found, one checkpoint", limit, d.Stopped, d.Found, saves)
	}
	c, err := ReadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.State.Nodes < limit || len(c.State.Entries) == 0 || c.Header.Name != "four-piece" {
		t.Fatalf("checkpoint: %d nodes, %d entries, name %q", c.State.Nodes, len(c.State.Entries), c.Header.Name)
	}
	r, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 10, Name: "four-piece", Resume: c})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Found || r.Plies != 10 || !r.Minimal || r.Lower != 8 {
		t.Fatalf("resumed: mate %v in %d (minimal %v), no mate within %d; want a minimal mate in 10", r.Found, r.Plies, r.Minimal, r.Lower)
	}
	if r.Nodes <= c.State.Nodes {
		t.Fatalf("resumed search reports %d nodes, not more than the %d saved", r.Nodes, c.State.Nodes)
	}
	if err := CheckProof(root, r.Proof); err != nil {
		t.Fatalf("resumed proof rejected: %v", err)
	}
	// Streamed from the file (OpenCheckpoint), the same entries give the same search, node
	// for node; the stream serves one resume.
	o, err := OpenCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if o.State.Entries != nil || o.State.Nodes != c.State.Nodes {
		t.Fatalf("opened: %d entries read, %d nodes; want none read yet, %d nodes", len(o.State.Entries), o.State.Nodes, c.State.Nodes)
	}
	s, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 10, Name: "four-piece", Resume: o})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Found || s.Plies != 10 || !s.Minimal || s.Lower != 8 || s.Nodes != r.Nodes {
		t.Fatalf("streamed resume: mate %v in %d (minimal %v), no mate within %d, %d nodes; want a minimal mate in 10 and the %d nodes of the resume read whole",
			s.Found, s.Plies, s.Minimal, s.Lower, s.Nodes, r.Nodes)
	}
	if err := CheckProof(root, s.Proof); err != nil {
		t.Fatalf("streamed resume's proof rejected: %v", err)
	}
	if _, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 10, Name: "four-piece", Resume: o}); err == nil || !strings.Contains(err.Error(), "read already") {
		t.Fatalf("second resume from one opened checkpoint: %v, want a refusal", err)
	}
	// Resuming another problem, or with other options, is refused.
	if _, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 12, Name: "four-piece", Resume: c}); err == nil || !strings.Contains(err.Error(), "max-plies") {
		t.Fatalf("resume with other options: %v, want a refusal naming --max-plies", err)
	}
}

// TestCheckpointTruncated: a cut checkpoint and a foreign file are refused with one line.
func TestCheckpointTruncated(t *testing.T) {
	root, _ := minishogi.Handicap("bare-king")
	dir := t.TempDir()
	path := filepath.Join(dir, "bare.ckpt")
	_, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 12, Name: "bare-king", NodeLimit: 500,
		Checkpoint: func(c *Checkpoint) error { return WriteCheckpoint(path, c) }})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", b[:len(b)*2/3], "truncated or damaged"},
		{"foreign", []byte("# proof\nnot a checkpoint\n"), "not a checkpoint (not gzip"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name)
			if err := os.WriteFile(p, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadCheckpoint(p)
			if err == nil {
				t.Fatalf("%s checkpoint accepted", c.name)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, p) || !strings.Contains(msg, c.want) {
				t.Errorf("%s checkpoint: error %q, want one line naming the file, with %q", c.name, msg, c.want)
			}
		})
	}
}

// TestCheckpointInterrupt: closing Interrupt (what SIGINT does in solve) stops the search
// with a last checkpoint.
func TestCheckpointInterrupt(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	stop := make(chan struct{})
	close(stop)
	var got *Checkpoint
	d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 10, Name: "four-piece", Interrupt: stop,
		Checkpoint: func(c *Checkpoint) error { got = c; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Stopped || got == nil || got.State.Nodes == 0 {
		t.Fatalf("interrupted: stopped %v, checkpoint %v", d.Stopped, got != nil)
	}
}

// TestStatusSlices: a status every nanosecond cuts the search into slices of a few thousand
// nodes (the deadline is read every 4096); the answer must stay the mate in 10 with a proof
// that checks, and the reported nodes must never fall while the length never shrinks.
func TestStatusSlices(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	var seen []DFPNStatus
	d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 10, StatusEvery: 1,
		Status: func(s DFPNStatus) { seen = append(seen, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Found || d.Plies != 10 || !d.Minimal {
		t.Fatalf("mate %v in %d (minimal %v), want a minimal mate in 10", d.Found, d.Plies, d.Minimal)
	}
	if err := CheckProof(root, d.Proof); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("no status reported")
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].Nodes < seen[i-1].Nodes || seen[i].Plies < seen[i-1].Plies {
			t.Fatalf("status %d %+v after %+v", i, seen[i], seen[i-1])
		}
	}
}

// TestRestoreDecided: a table saved after the four-piece search decided the mate in 10,
// restored into a fresh search, decides that length again without generating a node (the
// root's entry is a decision), and the proof read off it checks.
func TestRestoreDecided(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	var saved *Checkpoint
	d, err := SolveDFPN(root, minishogi.Sente, DFPNOptions{MaxPlies: 10, Upper: true, Name: "x", Checkpoint: func(c *Checkpoint) error { saved = c; return nil }, NodeLimit: 1 << 40})
	if err != nil || !d.Found || saved != nil {
		t.Fatalf("found %v, err %v, checkpoint %v: want a mate and no checkpoint (no stop)", d.Found, err, saved != nil)
	}
	ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, 0)
	ms2 := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, 0)
	if ok, err := ms.Prove(root, false, 10); err != nil || !ok {
		t.Fatalf("prove: %v %v", ok, err)
	}
	ms2.Restore(slices.Collect(ms.All()), 0)
	if ok, err := ms2.Prove(root, false, 10); err != nil || !ok || ms2.Nodes() != 0 {
		t.Fatalf("restored: mate %v, err %v, %d nodes; want a mate from the table alone", ok, err, ms2.Nodes())
	}
	p, err := ms2.Proof(root, false, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckProof(root, p); err != nil {
		t.Fatal(err)
	}
}

// TestCheckpointChunks: a table of more entries than one message holds is written in
// several and read back whole and in order; a format 1 file (the state and its table in
// one gob message, as earlier versions wrote) is still read.
func TestCheckpointChunks(t *testing.T) {
	dir := t.TempDir()
	entries := make([]retro.TableEntry[minishogi.Code], 2*checkpointChunk+123)
	for i := range entries {
		entries[i] = retro.TableEntry[minishogi.Code]{Board: minishogi.Code{uint64(i), ^uint64(i)}, Hash: uint64(i) * 0x9e3779b97f4a7c15,
			Hand: retro.Hand(i % 7), Phi: uint32(i), Delta: uint32(3 * i), Work: uint32(i % 1000), Plies: int16(i % 30), Attacker: i%2 == 0}
	}
	header := CheckpointHeader{Magic: checkpointMagic, Format: CheckpointFormat, Name: "test", MaxPlies: 22}
	state := CheckpointState{Plies: 18, Disproved: 16, Nodes: 12345, Seconds: 6.5, Entries: entries}
	check := func(name string, c *Checkpoint) {
		t.Helper()
		if c.State.Plies != 18 || c.State.Disproved != 16 || c.State.Nodes != 12345 || c.State.Seconds != 6.5 || c.Header.Name != "test" {
			t.Errorf("%s: read back %+v, state %d/%d/%d/%v", name, c.Header, c.State.Plies, c.State.Disproved, c.State.Nodes, c.State.Seconds)
		}
		if !slices.Equal(c.State.Entries, entries) {
			t.Errorf("%s: %d entries read back, not the %d written (or not in order)", name, len(c.State.Entries), len(entries))
		}
	}
	path := filepath.Join(dir, "chunks.ckpt")
	if err := WriteCheckpoint(path, &Checkpoint{Header: header, State: state}); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	check("format 2", c)

	// Format 1, written as earlier versions did.
	old := filepath.Join(dir, "format1.ckpt")
	f, err := os.Create(old)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	enc := gob.NewEncoder(zw)
	h1 := header
	h1.Format = 1
	if err := enc.Encode(&h1); err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(&state); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if c, err = ReadCheckpoint(old); err != nil {
		t.Fatal(err)
	}
	check("format 1", c)
}

// TestResumeFromStateByHand resumes the bare-king handicap (mate in 8, TestBareKing) from a
// checkpoint written by hand: its state says that 6 plies are disproved and 8 are being
// searched, after 1000 nodes and 1000 seconds, with an empty table (a table only saves
// work). The resumed search must take the state at its word: search 8 plies and no other
// length, report no mate within 6 without having searched it, and count on from the saved
// nodes and seconds. A resume for the other attacker or as an --upper search is refused.
func TestResumeFromStateByHand(t *testing.T) {
	root, _ := minishogi.Handicap("bare-king")
	opt := DFPNOptions{MaxPlies: 8, Name: "bare-king"}
	c := &Checkpoint{Header: opt.Header(root, minishogi.Sente), State: CheckpointState{Plies: 8, Disproved: 6, Nodes: 1000, Seconds: 1000}}
	var searched []int
	opt.Progress = func(plies int, mate bool, nodes int64) { searched = append(searched, plies) }
	opt.Resume = c
	d, err := SolveDFPN(root, minishogi.Sente, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Found || d.Plies != 8 || !d.Minimal || d.Lower != 6 || !slices.Equal(searched, []int{8}) {
		t.Fatalf("resumed: mate %v in %d (minimal %v), no mate within %d, lengths searched %v; want a minimal mate in 8, no mate within 6, and only 8 searched",
			d.Found, d.Plies, d.Minimal, d.Lower, searched)
	}
	if d.Nodes <= 1000 || d.Seconds < 1000 {
		t.Errorf("resumed: %d nodes, %.0f seconds; want more than the saved 1000 nodes and at least the saved 1000 seconds", d.Nodes, d.Seconds)
	}
	if err := CheckProof(root, d.Proof); err != nil {
		t.Fatalf("resumed proof rejected: %v", err)
	}
	for _, r := range []struct {
		name     string
		attacker minishogi.Color
		opt      DFPNOptions
		want     string
	}{
		{"other attacker", minishogi.Gote, DFPNOptions{MaxPlies: 8, Name: "bare-king"}, "another root position or attacker"},
		{"upper bound", minishogi.Sente, DFPNOptions{MaxPlies: 8, Name: "bare-king", Upper: true}, "--upper=false, not 8 and true"},
	} {
		t.Run(r.name, func(t *testing.T) {
			r.opt.Resume = c
			if _, err := SolveDFPN(root, r.attacker, r.opt); err == nil || !strings.Contains(err.Error(), r.want) {
				t.Errorf("%s: %v; want a refusal with %q", r.name, err, r.want)
			}
		})
	}
}

// TestCheckpointHeaderMatches: a checkpoint resumes only the search it was taken of; each
// difference is named.
func TestCheckpointHeaderMatches(t *testing.T) {
	bare, _ := minishogi.Handicap("bare-king")
	four, _ := minishogi.Handicap("four-piece")
	want := DFPNOptions{MaxPlies: 8, Name: "bare-king"}.Header(bare, minishogi.Sente)
	if err := want.Matches(want); err != nil {
		t.Fatalf("a header does not match itself: %v", err)
	}
	for _, c := range []struct {
		name   string
		change func(*CheckpointHeader)
		want   string
	}{
		{"name", func(h *CheckpointHeader) { h.Name = "four-piece" }, `the checkpoint is of "four-piece", not "bare-king"`},
		{"root", func(h *CheckpointHeader) { h.Root = four.Code() }, "the checkpoint is of another root position or attacker"},
		{"attacker", func(h *CheckpointHeader) { h.Attacker = minishogi.Gote }, "the checkpoint is of another root position or attacker"},
		{"max plies", func(h *CheckpointHeader) { h.MaxPlies = 10 }, "the checkpoint was taken with --max-plies 10 --upper=false, not 8 and false"},
		{"upper", func(h *CheckpointHeader) { h.Upper = true }, "the checkpoint was taken with --max-plies 8 --upper=true, not 8 and false"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := want
			c.change(&h)
			if err := h.Matches(want); err == nil || err.Error() != c.want {
				t.Fatalf("%v; want %q", err, c.want)
			}
		})
	}
}

// writeRawCheckpoint writes a checkpoint as the format's comment lays it out (CheckpointFormat):
// gzip over gob, the header, the counts, then the table's messages as given, so that a test
// can write what WriteCheckpoint never would.
func writeRawCheckpoint(t *testing.T, path string, h CheckpointHeader, entries int, messages ...[]retro.TableEntry[minishogi.Code]) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	enc := gob.NewEncoder(zw)
	if err := enc.Encode(&h); err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(checkpointCounts{Plies: 8, Disproved: 6, Nodes: 99, Entries: entries}); err != nil {
		t.Fatal(err)
	}
	for _, m := range messages {
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCheckpointDamagedTables: a table whose messages disagree with the size the counts
// announce, or break the message limit, and a gob stream of another program are refused,
// each with one line that names the file and the damage.
func TestCheckpointDamagedTables(t *testing.T) {
	dir := t.TempDir()
	entries := func(n int) []retro.TableEntry[minishogi.Code] {
		out := make([]retro.TableEntry[minishogi.Code], n)
		for i := range out {
			out[i] = retro.TableEntry[minishogi.Code]{Board: minishogi.Code{uint64(i), 1}, Phi: 1, Delta: 1, Plies: 3}
		}
		return out
	}
	header := CheckpointHeader{Magic: checkpointMagic, Format: CheckpointFormat, Name: "test", MaxPlies: 8}
	good := filepath.Join(dir, "good.ckpt")
	writeRawCheckpoint(t, good, header, 3, entries(2), entries(1))
	if c, err := ReadCheckpoint(good); err != nil || len(c.State.Entries) != 3 || c.State.Nodes != 99 {
		t.Fatalf("a checkpoint of two messages, 3 entries: %v", err)
	}
	foreign := header
	foreign.Magic = "another program's gob"
	for _, c := range []struct {
		name     string
		header   CheckpointHeader
		entries  int
		messages [][]retro.TableEntry[minishogi.Code]
		want     string
	}{
		{"past the size", header, 2, [][]retro.TableEntry[minishogi.Code]{entries(3)}, "damaged: a table message of 3 entries after 0 of 2"},
		{"past the size later", header, 4, [][]retro.TableEntry[minishogi.Code]{entries(2), entries(3)}, "damaged: a table message of 3 entries after 2 of 4"},
		{"empty message", header, 2, [][]retro.TableEntry[minishogi.Code]{entries(0), entries(2)}, "damaged: a table message of 0 entries after 0 of 2"},
		{"message over the limit", header, checkpointChunk + 1, [][]retro.TableEntry[minishogi.Code]{entries(checkpointChunk + 1)},
			fmt.Sprintf("damaged: a table message of %d entries after 0 of %d", checkpointChunk+1, checkpointChunk+1)},
		{"short of the size", header, 4, [][]retro.TableEntry[minishogi.Code]{entries(3)}, "truncated or damaged after 3 of 4 table entries"},
		{"foreign", foreign, 0, nil, "not a df-pn checkpoint"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".ckpt")
			writeRawCheckpoint(t, path, c.header, c.entries, c.messages...)
			_, err := ReadCheckpoint(path)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%v; want one line naming the file with %q", err, c.want)
			}
		})
	}
}
