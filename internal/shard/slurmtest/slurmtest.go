// Package slurmtest submits a deploy/ script as a Slurm array job for the tests of the
// commands that shard their work (selfplay, train label, solve shard). Without a Slurm
// controller such a test is skipped, except under CI=true, where it fails
// (ci/slurm-setup.sh starts a single-node cluster).
package slurmtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Cluster is a Slurm controller that answers, reached through sbatch.
type Cluster struct{ sbatch string }

// Need returns the cluster, skipping or failing the test when sbatch is missing or
// slurmctld is not up.
func Need(t testing.TB) Cluster {
	t.Helper()
	missing := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	sbatch, err := exec.LookPath("sbatch")
	if err != nil {
		missing("sbatch not found (run ci/slurm-setup.sh as root)")
	}
	if out, err := exec.Command("scontrol", "ping").CombinedOutput(); err != nil || !strings.Contains(string(out), "UP") {
		missing("slurmctld is not up (run ci/slurm-setup.sh): %s", out)
	}
	return Cluster{sbatch}
}

// Submit runs script as an array job of the task ids array ("0-2"), or as one job when
// array is "" (a driver such as deploy/loop.slurm), from dir, with env added to ours, ten
// minutes and one CPU a task, and waits for it (sbatch --wait): sbatch's output, and an
// error when a task failed.
func (c Cluster) Submit(dir, script, array string, env ...string) ([]byte, error) {
	script, err := filepath.Abs(script)
	if err != nil {
		return nil, err
	}
	args := []string{"--wait", "--time=10", "--cpus-per-task=1"}
	if array != "" {
		args = append(args, "--array="+array)
	}
	cmd := exec.Command(c.sbatch, append(args, script)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd.CombinedOutput()
}

// Run is Submit for a job that must succeed: on a failure the test fails with sbatch's
// output and the tasks' logs (every *.log in dir, where the deploy/ scripts write them).
func (c Cluster) Run(t testing.TB, dir, script, array string, env ...string) {
	t.Helper()
	out, err := c.Submit(dir, script, array, env...)
	if err == nil {
		return
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	var text strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		text.WriteString(l + ":\n" + string(b))
	}
	t.Fatalf("sbatch: %v\n%s\n%s", err, out, text.String())
}
