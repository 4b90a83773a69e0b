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

// TestSplitShardMerge: the four-piece handicap split after 2 plies, solved in shards 0/2 (by
// flag) and 1/2 (as a Slurm array task), merges to the unsplit mate in 10 with a proof that
// solve verify accepts; a merge missing a shard is refused.
func TestSplitShardMerge(t *testing.T) {
	dir := t.TempDir()
	split, proof := filepath.Join(dir, "four.split"), filepath.Join(dir, "four.proof")
	if code, out, stderr := runSolve("handicap", "four-piece", "--max-plies", "10", "--split", "2", "--split-file", split); code != 0 {
		t.Fatalf("split: exit %d, %s %s", code, out, stderr)
	}
	r0, r1 := filepath.Join(dir, "r0"), filepath.Join(dir, "r1")
	if code, out, stderr := runSolve("shard", split, "--shard", "0/2", "-o", r0); code != 0 {
		t.Fatalf("shard 0/2: exit %d, %s %s", code, out, stderr)
	}
	// Task 1 of sbatch --array=0-1 (sbatch(1): the task's id, the array's min, max and count).
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "2")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "0")
	t.Setenv("SLURM_ARRAY_TASK_MAX", "1")
	if code, out, stderr := runSolve("shard", split, "-o", r1); code != 0 || !strings.Contains(out, "shard 1/2") {
		t.Fatalf("shard from Slurm: exit %d, %s %s", code, out, stderr)
	}
	code, out, stderr := runSolve("merge", split, r0, r1, "--proof", proof)
	if code != 0 || !strings.Contains(out, "mate in 10 plies (minimal") {
		t.Fatalf("merge: exit %d, %s %s", code, out, stderr)
	}
	if code, out, stderr := runSolve("verify", proof); code != 0 || !strings.Contains(out, "holds") {
		t.Fatalf("verify: exit %d, %s %s", code, out, stderr)
	}
	if code, _, stderr := runSolve("merge", split, r0); code == 0 || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("merge of one shard: exit %d, %q; want a one-line refusal", code, stderr)
	}
}
