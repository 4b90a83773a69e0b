package atomicfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// The tests that need a process to kill or to limit run this test binary again with
// childEnv set: TestMain then does the child's part instead of the tests.
const childEnv = "ATOMICFILE_TEST_CHILD"

func TestMain(m *testing.M) {
	if what := os.Getenv(childEnv); what != "" {
		os.Exit(child(what, os.Getenv("ATOMICFILE_TEST_PATH")))
	}
	os.Exit(m.Run())
}

// child writes path: "hang" writes half a megabyte, says so on stdout and waits to be
// killed; "big" writes 1 MiB under a file size limit of 64 KiB (a full disk, as write(2)
// sees it: EFBIG, for Go ignores SIGXFSZ).
func child(what, path string) int {
	if what == "big" {
		lim := syscall.Rlimit{Cur: 64 << 10, Max: 64 << 10}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			fmt.Println("setrlimit:", err)
			return 3
		}
	}
	f, err := Create(path)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	_, err = f.Write(bytes.Repeat([]byte("n"), map[string]int{"hang": 512 << 10, "big": 1 << 20}[what]))
	if what == "hang" {
		fmt.Println("written", f.Name())
		select {}
	}
	if err == nil {
		err = f.Commit()
	}
	f.Abort()
	fmt.Println("error:", err)
	return 0
}

func startChild(t *testing.T, what, path string) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+what, "ATOMICFILE_TEST_PATH="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewReader(out)
}

func temps(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestWriteReplacesWhole(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	for _, content := range []string{"first\n", "second, longer\n"} {
		if err := WriteFile(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("file holds %q, want %q", got, content)
		}
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want -rw-r--r-- under umask 022", st.Mode().Perm(), err)
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestFailedWriteKeepsPrevious: an error while writing, or a final name that is a
// directory, leaves the previous file as it was and no temporary file.
func TestFailedWriteKeepsPrevious(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "net.nnue")
	os.WriteFile(path, []byte("previous"), 0o644)
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		w.Write([]byte("half of the new"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("Write returned %v, want the writer's error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "previous" {
		t.Errorf("after a failed write the file holds %q", got)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "x"), nil, 0o644)
	if err := WriteFile(sub, []byte("x")); err == nil {
		t.Error("writing over a directory: no error")
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestKilledWriter: a writer killed mid-write leaves the previous file whole and its
// temporary file, which the next Create of the same name removes; the temporary file of a
// writer still running is left alone.
func TestKilledWriter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "proof.txt")
	os.WriteFile(path, []byte("previous proof"), 0o644)
	killed, out := startChild(t, "hang", path)
	line, _ := out.ReadString('\n')
	if !strings.HasPrefix(line, "written ") {
		t.Fatalf("child said %q", line)
	}
	killed.Process.Signal(syscall.SIGKILL)
	killed.Wait()
	stale := strings.TrimSpace(strings.TrimPrefix(line, "written "))
	if got, _ := os.ReadFile(path); string(got) != "previous proof" {
		t.Fatalf("after the kill the file holds %d bytes, not the previous proof", len(got))
	}
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("the killed writer's temporary file: %v", err)
	}
	live, out := startChild(t, "hang", path)
	defer func() { live.Process.Kill(); live.Wait() }()
	line, _ = out.ReadString('\n')
	running := strings.TrimSpace(strings.TrimPrefix(line, "written "))
	if err := WriteFile(path, []byte("new proof")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed writer's %s is still there (%v)", stale, err)
	}
	if _, err := os.Stat(running); err != nil {
		t.Errorf("the running writer's %s was removed: %v", running, err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new proof" {
		t.Errorf("file holds %q", got)
	}
}

// TestDiskFull: a write that runs out of space (a file size limit) fails with the error,
// keeps the previous file and leaves no temporary file.
func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cert.txt")
	os.WriteFile(path, []byte("previous"), 0o644)
	cmd, out := startChild(t, "big", path)
	msg, _ := io.ReadAll(out)
	cmd.Wait()
	if !strings.Contains(string(msg), "file too large") {
		t.Errorf("child: %q, want a write error (EFBIG)", msg)
	}
	if got, _ := os.ReadFile(path); string(got) != "previous" {
		t.Errorf("after a full disk the file holds %d bytes", len(got))
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestConcurrentWriters: writers of one name at once each use their own temporary file;
// the name ends with one writer's whole content.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "merged.jsonl")
	contents := map[string]bool{}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		c := strings.Repeat(fmt.Sprintf("writer %d\n", i), 5000+i)
		contents[c] = true
		wg.Go(func() { errs <- WriteFile(path, []byte(c)) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got, _ := os.ReadFile(path); !contents[string(got)] {
		t.Errorf("the file (%d bytes) is no writer's whole content", len(got))
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestParseTemp(t *testing.T) {
	for _, c := range []struct {
		name string
		pid  int
		ok   bool
	}{
		{".games.jsonl.123-0.tmp", 123, true},
		{".games.jsonl.7-12.tmp", 7, true},
		{".games.jsonl.x-0.tmp", 0, false},
		{".games.jsonl.12.tmp", 0, false},
		{".other.jsonl.123-0.tmp", 0, false},
		{".games.jsonl.123-0.tmp.gz", 0, false},
		{"games.jsonl.123-0.tmp", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			pid, ok := parseTemp(c.name, "games.jsonl")
			if pid != c.pid || ok != c.ok {
				t.Errorf("parseTemp = %d, %v; want %d, %v", pid, ok, c.pid, c.ok)
			}
		})
	}
}
