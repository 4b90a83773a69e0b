package cputime

import (
	"os"
	"os/exec"
	"testing"
)

// TestSecondsCountsWork: the CPU time grows by at least the work done in between, and a
// waited-for child's work counts. The child is the test binary itself spinning for about
// 200 ms of CPU (a loop checked against the child's own clock, not timed here), so the
// parent's reading must grow by at least 0.1 s across it.
func TestSecondsCountsWork(t *testing.T) {
	if os.Getenv("CPUTIME_SPIN") == "1" {
		spin(0.2)
		return
	}
	before := Seconds()
	spin(0.05)
	if got := Seconds() - before; got < 0.04 {
		t.Errorf("after spinning 0.05 CPU-s in this process the reading grew %.3f s", got)
	}
	mid := Seconds()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestSecondsCountsWork$")
	cmd.Env = append(os.Environ(), "CPUTIME_SPIN=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v: %s", err, out)
	}
	if got := Seconds() - mid; got < 0.1 {
		t.Errorf("after a child spun 0.2 CPU-s the reading grew %.3f s", got)
	}
}

// spin uses about s seconds of this process's CPU, measured by getrusage itself.
func spin(s float64) {
	start := Seconds()
	x := 1.0
	for Seconds()-start < s {
		for i := 0; i < 100000; i++ {
			x = x*1.0000001 + 1e-9
		}
	}
	_ = x
}
