package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandicapCheckpointResume: the four-piece handicap (mate in 10, datasets/README.md)
// stopped by --node-limit writes a checkpoint; --resume finishes it with a proof that solve
// verify accepts; a truncated checkpoint and one of another handicap are refused in one line.
func TestHandicapCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	ckpt, proof := filepath.Join(dir, "four.ckpt"), filepath.Join(dir, "four.proof")
	code, out, stderr := runSolve("handicap", "four-piece", "--max-plies", "10", "--retro-plies", "0", "--checkpoint", ckpt, "--node-limit", "3000")
	if code != 0 || strings.Contains(out, "mate in 10") {
		t.Fatalf("stopped run: exit %d, %s %s", code, out, stderr)
	}
	code, out, stderr = runSolve("handicap", "four-piece", "--max-plies", "10", "--retro-plies", "0", "--resume", ckpt, "--proof", proof)
	if code != 0 || !strings.Contains(out, "mate in 10 plies (minimal") {
		t.Fatalf("resumed run: exit %d, %s %s", code, out, stderr)
	}
	if code, out, stderr := runSolve("verify", proof); code != 0 || !strings.Contains(out, "holds") {
		t.Fatalf("verify: exit %d, %s %s", code, out, stderr)
	}
	b, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.ckpt")
	if err := os.WriteFile(cut, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"handicap", "four-piece", "--max-plies", "10", "--resume", cut},
		{"handicap", "bare-king", "--max-plies", "10", "--resume", ckpt},
		{"handicap", "four-piece", "--max-plies", "12", "--resume", ckpt},
	} {
		code, _, stderr := runSolve(args...)
		if code == 0 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "solve handicap: --resume") {
			t.Errorf("%v: exit %d, stderr %q; want a failure in one line", args, code, stderr)
		}
	}
}
