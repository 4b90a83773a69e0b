package filelock

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

const childEnv = "FILELOCK_TEST_CHILD"

// TestMain runs the child's part when the test binary is started again as a lock holder:
// it takes the lock, says so and waits to be killed.
func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		if _, err := Acquire(path); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("locked")
		select {}
	}
	os.Exit(m.Run())
}

func TestSecondHolderRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".lock")
	l, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path)
	var held *HeldError
	if !errors.As(err, &held) || !strings.Contains(err.Error(), fmt.Sprintf("process %d on ", os.Getpid())) {
		t.Errorf("second Acquire: %v; want a HeldError naming process %d", err, os.Getpid())
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file is left after Release (%v)", err)
	}
	l, err = Acquire(path)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	l.Release()
	l.Release() // twice is harmless
}

// TestKilledHolder: the lock file of a killed holder stays, and the next Acquire takes it
// over; while the holder lives, Acquire is refused with its process id.
func TestKilledHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".lock")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "locked\n" {
		t.Fatalf("child: %q", line)
	}
	if _, err := Acquire(path); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("process %d on ", cmd.Process.Pid)) {
		t.Errorf("Acquire while the child holds the lock: %v", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the killed holder's file: %v", err)
	}
	l, err := Acquire(path)
	if err != nil {
		t.Fatalf("Acquire after the holder was killed: %v", err)
	}
	l.Release()
}

// TestOneHolderAtATime: goroutines taking and releasing one lock (each Acquire opens its own
// file description, as another process would) are never two inside at once, though each
// Release removes the file another may have just opened.
func TestOneHolderAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".lock")
	var inside, most, held atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 1500 {
				l, err := Acquire(path)
				if err != nil {
					var h *HeldError
					if !errors.As(err, &h) {
						t.Error(err)
						return
					}
					continue
				}
				held.Add(1)
				n := inside.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				for range 20 {
					runtime.Gosched() // let the others open the file meanwhile
				}
				inside.Add(-1)
				l.Release()
			}
		})
	}
	wg.Wait()
	if most.Load() != 1 || held.Load() == 0 {
		t.Errorf("at most %d holders at once (%d acquisitions); want 1", most.Load(), held.Load())
	}
}
