package sysmem

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestMemAvailable(t *testing.T) {
	// A /proc/meminfo excerpt from a 24 GiB machine.
	text := "MemTotal:       24683664 kB\nMemFree:        24011952 kB\nMemAvailable:   24248332 kB\n"
	got, err := memAvailable([]byte(text))
	if want := uint64(24248332) * 1024; err != nil || got != want {
		t.Errorf("memAvailable = %d, %v; want %d", got, err, want)
	}
	if _, err := memAvailable([]byte("MemTotal: 1 kB\n")); err == nil {
		t.Error("no MemAvailable line: no error")
	}
}

func TestCgroupRoom(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	limit, usage := write("limit", "1073741824\n"), write("usage", "268435456\n")
	if room, ok := cgroupRoom(limit, usage); !ok || room != 805306368 {
		t.Errorf("1 GiB limit, 256 MiB used: room %d, %v; want 768 MiB", room, ok)
	}
	if _, ok := cgroupRoom(write("max", "max\n"), usage); ok {
		t.Error(`a limit of "max" counted as a limit`)
	}
	if _, ok := cgroupRoom(filepath.Join(dir, "missing"), usage); ok {
		t.Error("a missing file counted as a limit")
	}
}

func TestAvailable(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("not Linux")
	}
	n, err := Available()
	if err != nil || n == 0 {
		t.Errorf("Available() = %d, %v", n, err)
	}
}

func TestCheck(t *testing.T) {
	const gib = 1 << 30
	if err := check(3*gib, 4*gib); err != nil {
		t.Errorf("3 GiB of 4 available: %v", err)
	}
	err := check(3*gib+1<<20, 4*gib)
	if err == nil || err.Error() != "needs 3073 MiB, more than fits in the 4096 MiB of memory available (at most three quarters of it, 3072 MiB)" {
		t.Errorf("3 GiB + 1 MiB of 4 available: %v", err)
	}
}

// TestPeakRSS holds PeakRSS to memory the test touches itself: after writing every page of
// 64 MiB, the process's peak resident set is at least that (Linux's VmHWM, proc(5)).
func TestPeakRSS(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status (not Linux)")
	}
	const size = 64 << 20
	b := make([]byte, size)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	if got := PeakRSS(); got < size {
		t.Errorf("PeakRSS %d bytes after touching %d", got, size)
	}
	runtime.KeepAlive(b)
}
