// Package cputime reads the CPU time a process has used, so that a run can report what it
// cost in CPU-hours (the learning loop's curve, docs/figures.md) and not only in wall time,
// which on a shared machine or a cluster says little.
package cputime

import "syscall"

// Seconds is the CPU time, user and system, of this process and of its children that
// have been waited for (getrusage(2), RUSAGE_SELF and RUSAGE_CHILDREN): a USI engine the
// process ran and closed counts; one still running does not yet.
func Seconds() float64 {
	var total float64
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var u syscall.Rusage
		if syscall.Getrusage(who, &u) == nil {
			total += float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
		}
	}
	return total
}
