// Package sysmem tells how much memory the machine can still give this process, so that a
// size a user asks for (a hash, a table) is checked before it is allocated: Go cannot
// recover from a failed allocation ("fatal error: runtime: out of memory").
package sysmem

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Available returns the bytes of memory available to the process: the kernel's estimate of
// the memory available for new allocations without swapping (MemAvailable in /proc/meminfo,
// Linux 3.14 and later), lowered to what the process's control group still allows (cgroup
// v2 memory.max less memory.current, or v1 memory.limit_in_bytes less
// memory.usage_in_bytes), as in a container or a Slurm job. It is an error where
// /proc/meminfo cannot be read (not Linux).
func Available() (uint64, error) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, fmt.Errorf("sysmem: %w", err)
	}
	avail, err := memAvailable(b)
	if err != nil {
		return 0, err
	}
	for _, files := range [][2]string{
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
	} {
		if room, ok := cgroupRoom(files[0], files[1]); ok {
			avail = min(avail, room)
			break
		}
	}
	return avail, nil
}

// memAvailable reads the MemAvailable line of /proc/meminfo's text.
func memAvailable(meminfo []byte) (uint64, error) {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "MemAvailable:" && f[2] == "kB" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("sysmem: /proc/meminfo: %q: %w", sc.Text(), err)
			}
			return kb << 10, nil
		}
	}
	return 0, errors.New("sysmem: /proc/meminfo has no MemAvailable line")
}

// cgroupRoom returns a control group's limit less its usage, when both files hold numbers
// (a v2 limit of "max" means none).
func cgroupRoom(limitFile, usageFile string) (uint64, bool) {
	read := func(name string) (uint64, bool) {
		b, err := os.ReadFile(name)
		if err != nil {
			return 0, false
		}
		n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
		return n, err == nil
	}
	limit, ok := read(limitFile)
	if !ok {
		return 0, false
	}
	usage, ok := read(usageFile)
	if !ok || usage > limit {
		return 0, ok
	}
	return limit - usage, true
}

// Check reports whether an allocation of n bytes leaves room for the rest of the process
// and the machine: it passes when n is at most three quarters of Available. The error says
// how much is available and how much would fit. Where Available fails (not Linux), every
// size passes.
func Check(n uint64) error {
	avail, err := Available()
	if err != nil {
		return nil
	}
	return check(n, avail)
}

func check(n, avail uint64) error {
	if fit := avail / 4 * 3; n > fit {
		return fmt.Errorf("needs %d MiB, more than fits in the %d MiB of memory available (at most three quarters of it, %d MiB)", n>>20, avail>>20, fit>>20)
	}
	return nil
}

// PeakRSS returns the process's peak resident memory in bytes (Linux's VmHWM), or 0 where it
// is not available.
func PeakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" && f[2] == "kB" {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}
