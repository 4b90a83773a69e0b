//go:build linux

package clitest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/shogilab/shogilab/engine/eval"
)

// writer is a command that writes one final file, out, in a directory of its own.
type writer struct {
	name  string
	args  func(dir, out string) []string
	out   string
	check func(t *testing.T, path string) // the file is a whole output of the command
	// locked: a second run at once is refused (the output has a lock), not run side by side.
	locked bool
}

// writers are the commands the write tests run, on small inputs made in dir.
func writers(t *testing.T, dir string) []writer {
	// Thirty games of the shipped 400-playout run, as a plain record file.
	zr, err := os.Open(records)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	gz, err := gzip.NewReader(zr)
	if err != nil {
		t.Fatal(err)
	}
	var games bytes.Buffer
	sc := bufio.NewScanner(gz)
	sc.Buffer(nil, 16<<20)
	for i := 0; i < 30 && sc.Scan(); i++ {
		games.Write(sc.Bytes())
		games.WriteByte('\n')
	}
	small := filepath.Join(dir, "small.jsonl")
	os.WriteFile(small, games.Bytes(), 0o644)
	split := splitFile(t, dir)
	whole := filepath.Join(dir, "whole.result")
	if _, e, code := runBin(t, filepath.Join(bin, "solve"), "shard", split, "--shard", "0/1", "-o", whole); code != 0 {
		t.Fatalf("solve shard: %s", e)
	}
	ok := func(name string, args ...string) func(t *testing.T, path string) {
		return func(t *testing.T, path string) {
			t.Helper()
			if _, e, code := runBin(t, filepath.Join(bin, name), append(args, path)...); code != 0 {
				t.Errorf("%s %s %s: %s", name, strings.Join(args, " "), filepath.Base(path), e)
			}
		}
	}
	return []writer{
		{name: "train", out: "net.nnue", check: ok("train", "info"),
			args: func(_, out string) []string {
				return []string{"fit", "-o", out, "-hidden1", "4", "-hidden2", "2", "-epochs", "1", small}
			}},
		{name: "train", out: "weights.lin", check: func(t *testing.T, path string) {
			if _, _, err := eval.ReadWeightsFile(path); err != nil {
				t.Error(err)
			}
		}, args: func(_, out string) []string { return []string{"linear", "-priors=false", "-o", out, small} }},
		{name: "selfplay", out: "merged.jsonl", check: ok("selfplay", "verify"),
			args: func(_, out string) []string { return []string{"merge", "-o", out, records} }},
		{name: "selfplay", out: "games.parquet", check: ok("selfplay", "verify"),
			args: func(dir, _ string) []string { return []string{"export", "--format", "parquet", "--out", dir, small} }},
		{name: "solve", out: "four.proof", check: ok("solve", "verify"),
			args: func(_, out string) []string {
				return []string{"handicap", "four-piece", "--max-plies", "10", "--retro-plies", "0", "--proof", out}
			}},
		{name: "solve", out: "merged.proof", check: ok("solve", "verify"),
			args: func(_, out string) []string { return []string{"merge", split, whole, "--proof", out} }},
		{name: "solve", out: "shard.result", locked: true, check: ok("solve", "merge", split),
			args: func(_, out string) []string { return []string{"shard", split, "--shard", "0/1", "-o", out} }},
	}
}

// temps lists the temporary files left in dir (package atomicfile's .NAME.PID-N.tmp).
func temps(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	return m
}

// prepare makes a directory for w with a whole output of w already in it, and returns the
// directory, the output's path and its bytes.
func prepare(t *testing.T, w writer) (string, string, []byte) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, w.out)
	if _, e, code := runBin(t, filepath.Join(bin, w.name), w.args(dir, out)...); code != 0 {
		t.Fatalf("first run: exit %d, %s", code, e)
	}
	before, err := os.ReadFile(out)
	if err != nil || len(before) == 0 {
		t.Fatalf("first run wrote %d bytes (%v)", len(before), err)
	}
	return dir, out, before
}

// TestWritesOnFullDisk: each writing command, run where no file may grow (RLIMIT_FSIZE 0:
// write(2) fails with EFBIG, as on a full disk), fails in one line and leaves
// the previous output as it was, and no temporary file. A partial network, proof or table
// used to stay under the final name.
func TestWritesOnFullDisk(t *testing.T) {
	dir := t.TempDir()
	for _, w := range writers(t, dir) {
		t.Run(w.name+" "+w.out, func(t *testing.T) {
			dir, out, before := prepare(t, w)
			args := append([]string{"-c", `ulimit -f 0; exec "$@"`, "sh", filepath.Join(bin, w.name)}, w.args(dir, out)...)
			_, msg, code := runBin(t, "/bin/bash", args...)
			if code == 0 || strings.Count(msg, "\n") < 1 || !strings.Contains(msg, "file too large") {
				t.Errorf("exit %d, stderr %q; want a failure naming the write error", code, msg)
			}
			if after, _ := os.ReadFile(out); !bytes.Equal(after, before) {
				t.Errorf("the previous %s (%d bytes) became %d bytes", w.out, len(before), len(after))
			}
			if left := temps(dir); len(left) != 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestWritesSurviveKill: each writing command killed (SIGKILL) at its first write to its
// output, or to the temporary file beside it, leaves a whole output under the final name,
// the previous one or the new one (killing train fit -o as it opened its output left a
// 0-byte file); the next run succeeds and removes the killed run's temporary file.
func TestWritesSurviveKill(t *testing.T) {
	dir := t.TempDir()
	for _, w := range writers(t, dir) {
		t.Run(w.name+" "+w.out, func(t *testing.T) {
			dir, out, _ := prepare(t, w)
			cmd := exec.Command(filepath.Join(bin, w.name), w.args(dir, out)...)
			killAtFirstWrite(t, cmd, dir, w.out)
			w.check(t, out)
			if _, e, code := runBin(t, filepath.Join(bin, w.name), w.args(dir, out)...); code != 0 {
				t.Fatalf("run after the kill: exit %d, %s", code, e)
			}
			w.check(t, out)
			if left := temps(dir); len(left) != 0 {
				t.Errorf("temporary files left after the next run: %v", left)
			}
		})
	}
}

// TestConcurrentWrites: two runs of each writing command on one output at once both end
// well (or, where the output is locked, the second refuses in one line naming the holder),
// and the output is whole, with no temporary file left.
func TestConcurrentWrites(t *testing.T) {
	dir := t.TempDir()
	for _, w := range writers(t, dir) {
		t.Run(w.name+" "+w.out, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, w.out)
			var wg sync.WaitGroup
			msgs, codes := make([]string, 2), make([]int, 2)
			for i := range 2 {
				wg.Go(func() { _, msgs[i], codes[i] = runBin(t, filepath.Join(bin, w.name), w.args(dir, out)...) })
			}
			wg.Wait()
			for i := range 2 {
				refused := w.locked && codes[i] == 1 && strings.Contains(msgs[i], "in use by another") && strings.Count(msgs[i], "\n") == 1
				if codes[i] != 0 && !refused {
					t.Errorf("run %d: exit %d, %s", i, codes[i], msgs[i])
				}
			}
			if codes[0] != 0 && codes[1] != 0 {
				t.Errorf("neither run wrote the output")
			}
			w.check(t, out)
			if left := temps(dir); len(left) != 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// killAtFirstWrite starts cmd and kills it with SIGKILL when it first writes to name in dir
// or to a file beside it whose name begins .NAME. (its temporary file), as inotify(7)
// reports it; if the command ends first, the test goes on with what it wrote.
func killAtFirstWrite(t *testing.T, cmd *exec.Cmd, dir, name string) {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	events := os.NewFile(uintptr(fd), "inotify") // non-blocking: Close ends a Read in progress
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MODIFY|syscall.IN_CREATE); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited); events.Close() }()
	buf := make([]byte, 64<<10)
	for {
		n, err := events.Read(buf)
		if err != nil {
			<-exited // the command ended without writing its output
			return
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			file := strings.TrimRight(string(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)]), "\x00")
			off += syscall.SizeofInotifyEvent + int(ev.Len)
			ours := file == name || strings.HasPrefix(file, "."+name+".") && !strings.HasSuffix(file, ".lock")
			if ours && ev.Mask&syscall.IN_MODIFY != 0 {
				cmd.Process.Signal(syscall.SIGKILL)
				<-exited
				return
			}
		}
	}
}
