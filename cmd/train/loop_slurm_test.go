package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/shogilab/shogilab/internal/shard/slurmtest"
)

// TestSlurmLoop submits deploy/loop.slurm, the driver job of a loop, to a real Slurm
// (ci/slurm-setup.sh starts a single-node one) with a tiny run from zero (Gumbel root and
// playout cap, two anchors of a ladder written here), for one generation; then submits it
// again with --generations 2, as a requeued or resubmitted driver would be: the run
// resumes, keeping its first two lines, and holds generations 0 to 2.
func TestSlurmLoop(t *testing.T) {
	slurm := slurmtest.Need(t)
	openings, err := filepath.Abs(balanced)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	binary := buildTrain(t, dir)
	lad := tinyLadder(t, dir)
	runDir := filepath.Join(dir, "run")
	args := "--initial handset --hidden1 4 --hidden2 2 --policy 2 --openings " + openings + " --games 2 --playouts 16 --gumbel-moves 4 --cap-fast 4 --cap-prob 0.5 " +
		"--ladder " + lad + " --anchors hand-8,random --rate-games 2 --rate-playouts 8 --max-plies 40 --epochs 1 --json"
	submit := func(gens string) {
		slurm.Run(t, dir, "../../deploy/loop.slurm", "", "TRAIN="+binary, "RUN="+runDir, "LOOP_ARGS="+args+" --generations "+gens)
	}
	submit("1")
	first, err := os.ReadFile(filepath.Join(runDir, "loop.jsonl"))
	if err != nil || bytes.Count(first, []byte("\n")) != 2 {
		t.Fatalf("after the first job loop.jsonl holds %q (%v); want generations 0 and 1", first, err)
	}
	submit("2")
	both, err := os.ReadFile(filepath.Join(runDir, "loop.jsonl"))
	if err != nil || bytes.Count(both, []byte("\n")) != 3 || !bytes.HasPrefix(both, first) {
		t.Errorf("after the second job loop.jsonl holds %q (%v); want the first job's lines and generation 2", both, err)
	}
}
