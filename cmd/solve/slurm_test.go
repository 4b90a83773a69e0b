package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/shard/slurmtest"
)

// TestSlurmSplit submits deploy/solve.slurm as a two-task array job to a real Slurm
// (ci/slurm-setup.sh starts a single-node cluster) on the four-piece handicap split after 2
// plies, waits, and merges the two shards: the mate in 10 with a proof that checks, and the
// certificate of no mate within 8. It follows cmd/selfplay's TestSlurmArray: without Slurm
// it skips, except under CI=true, where it fails.
func TestSlurmSplit(t *testing.T) {
	slurm := slurmtest.Need(t)
	dir := t.TempDir()
	binary := filepath.Join(dir, "solve")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	split, out := filepath.Join(dir, "four.split"), filepath.Join(dir, "out")
	if code, o, e := runSolve("handicap", "four-piece", "--max-plies", "10", "--split", "2", "--split-file", split); code != 0 {
		t.Fatalf("split: exit %d, %s %s", code, o, e)
	}
	slurm.Run(t, dir, "../../deploy/solve.slurm", "0-1", "SOLVE="+binary, "SPLIT="+split, "OUT="+out, "SOLVE_ARGS=--memory 64MiB")
	results, _ := filepath.Glob(filepath.Join(out, "shard-*-of-2.result"))
	if len(results) != 2 {
		t.Fatalf("result files %v, want 2", results)
	}
	proof, cert := filepath.Join(dir, "four.proof"), filepath.Join(dir, "four.cert")
	code, o, e := runSolve(append([]string{"merge", split, "--proof", proof, "--certificate", cert}, results...)...)
	if code != 0 || !strings.Contains(o, "mate in 10 plies (minimal") || !strings.Contains(o, "no mate within 8 plies; merged certificate checked") {
		t.Fatalf("merge: exit %d, %s %s", code, o, e)
	}
	for _, f := range []string{proof, cert} {
		if code, o, e := runSolve("verify", f); code != 0 || !strings.Contains(o, "holds") {
			t.Fatalf("verify %s: exit %d, %s %s", f, code, o, e)
		}
	}
}
