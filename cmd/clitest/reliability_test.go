package clitest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// records is a shipped record file the commands read.
const records = "../../datasets/selfplay/mcts400/games-0-of-1.jsonl.gz"

// splitFile writes the four-piece handicap's subproblems after 2 plies into dir.
func splitFile(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "four.split")
	if _, e, code := runBin(t, filepath.Join(bin, "solve"), "handicap", "four-piece", "--max-plies", "10", "--split", "2", "--split-file", path); code != 0 {
		t.Fatalf("solve handicap --split: exit %d, %s", code, e)
	}
	return path
}

// TestOutputPathsCheckedFirst: every command that takes an output path refuses one that
// cannot be written with the exit status of a bad command line (2) and one line naming it,
// before its work: it used to fail with status 1 after the work (solve shard after every
// subproblem, selfplay openings after judging, merge after merging).
func TestOutputPathsCheckedFirst(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	os.WriteFile(file, nil, 0o644)
	under := filepath.Join(file, "x") // a path below a file: no directory can be made there
	split := splitFile(t, tmp)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"selfplay", []string{"merge", "-o", "/nonexistent/m.jsonl", records}},
		{"selfplay", []string{"merge", "-o", tmp, records}},
		{"selfplay", []string{"openings", "-o", "/nonexistent/o.sfen", "--judge", "random"}},
		{"selfplay", []string{"export", "--format", "kif", "--out", under, records}},
		{"selfplay", []string{"export", "--format", "parquet", "--out", under, records}},
		{"selfplay", []string{"--games", "2", "--sente", "random", "--gote", "random", "--out", under}},
		{"match", []string{"-a", "random", "-b", "random", "-games", "2", "-out", under}},
		{"train", []string{"fit", "-o", "/nonexistent/x.nnue", records}},
		{"train", []string{"linear", "-o", "/nonexistent/x.lin", records}},
		{"train", []string{"loop", "--openings", "../../datasets/openings/balanced.sfen", under}},
		{"train", []string{"curve", "--out", under, tmp}},
		{"analyze", []string{"games", "--out", under, records}},
		{"analyze", []string{"mawari", "--out", under}},
		{"figures", []string{"-out", under}},
		{"tactics", []string{"--out", under, records}},
		{"solve", []string{"handicap", "four-piece", "--max-plies", "10", "--proof", "/nonexistent/x.proof"}},
		{"solve", []string{"handicap", "four-piece", "--max-plies", "10", "--certificate", tmp}},
		{"solve", []string{"handicap", "four-piece", "--max-plies", "10", "--checkpoint", "/nonexistent/x.ckpt"}},
		{"solve", []string{"shard", split, "--shard", "0/2", "-o", "/nonexistent/x.result"}},
		{"solve", []string{"shard", split, "--shard", "0/2", "--out", under}},
		{"solve", []string{"merge", split, split, "--proof", "/nonexistent/x.proof"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, msg, code := runBin(t, filepath.Join(bin, c.name), c.args...)
			if code != 2 || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, c.name) ||
				!(strings.Contains(msg, "/nonexistent") || strings.Contains(msg, tmp)) || goInternals.MatchString(msg) {
				t.Errorf("%s %q: exit %d, stdout %.60q, stderr %q; want exit 2 and one line naming the output", c.name, c.args, code, out, msg)
			}
		})
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 2 { // file and four.split
		t.Errorf("left in the directory: %v", entries)
	}
}

// TestSignalsStopEveryCommand: SIGTERM stops every command that reads records, proofs,
// splits or evaluation files, while it waits for input that never comes (a FIFO), with exit
// status 130 and one line saying it was interrupted, and leaves no file under its output's
// name. verify reading a FIFO ignored SIGTERM for 15 minutes; export ran to its end.
func TestSignalsStopEveryCommand(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	os.Mkdir(out, 0o755)
	for _, c := range []struct {
		name  string
		args  func(fifo string) []string
		ext   string
		final string // an output that must not exist afterwards, in out
	}{
		{"selfplay", func(f string) []string { return []string{"verify", f} }, ".jsonl", ""},
		{"selfplay", func(f string) []string { return []string{"merge", "-o", filepath.Join(out, "m.jsonl"), f} }, ".jsonl", "m.jsonl"},
		{"selfplay", func(f string) []string { return []string{"export", "--format", "kif", "--out", out, f} }, ".jsonl", "games.kif"},
		{"selfplay", func(f string) []string { return []string{"export", "--format", "parquet", "--out", out, f} }, ".jsonl", "games.parquet"},
		{"analyze", func(f string) []string { return []string{"games", f} }, ".jsonl", ""},
		{"analyze", func(f string) []string { return []string{"openings", f} }, ".jsonl", ""},
		{"train", func(f string) []string { return []string{"fit", "-o", filepath.Join(out, "x.nnue"), f} }, ".jsonl", "x.nnue"},
		{"train", func(f string) []string { return []string{"linear", "-o", filepath.Join(out, "x.lin"), f} }, ".jsonl", "x.lin"},
		// train info is not here: an evaluation file must be a regular file, so a FIFO is
		// refused before it is opened (engine/nnue, bounded.ReadFile).
		{"solve", func(f string) []string { return []string{"verify", f} }, ".proof", ""},
		{"solve", func(f string) []string {
			return []string{"shard", f, "--shard", "0/1", "-o", filepath.Join(out, "x.result")}
		}, ".split", "x.result"},
		{"solve", func(f string) []string { return []string{"merge", f, f, "--proof", filepath.Join(out, "x.proof")} }, ".split", "x.proof"},
	} {
		t.Run(c.name+" "+strings.Join(c.args("FILE")[:min(3, len(c.args("FILE")))], " "), func(t *testing.T) {
			fifo := filepath.Join(tmp, "input"+c.ext)
			os.Remove(fifo)
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			cmd := exec.Command(filepath.Join(bin, c.name), c.args(fifo)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			// The command has started its work once it opens the FIFO: then our open for
			// writing succeeds (it fails with ENXIO while no reader has it open).
			w, err := openWriter(fifo, exited)
			if err != nil {
				t.Fatalf("%v; stderr %q", err, stderr.String())
			}
			defer w.Close()
			cmd.Process.Signal(syscall.SIGTERM)
			// A command that ignores the signal would hold the test until its timeout: after
			// a bound far beyond any stop, it is killed and the case fails.
			select {
			case err = <-exited:
			case <-time.After(2 * time.Minute):
				cmd.Process.Kill()
				<-exited
				t.Fatalf("still running two minutes after SIGTERM; stderr %q", stderr.String())
			}
			var ee *exec.ExitError
			// Progress lines may come first; the error is the last line, and the only one.
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			last := lines[len(lines)-1]
			if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.HasPrefix(last, c.name+" ") || !strings.Contains(last, "interrupted") ||
				strings.Count(stderr.String(), "interrupted") != 1 || goInternals.MatchString(last) {
				t.Errorf("after SIGTERM: %v, stderr %q; want exit 130 and a last line saying interrupted", err, stderr.String())
			}
			if c.final != "" {
				if _, err := os.Stat(filepath.Join(out, c.final)); err == nil {
					t.Errorf("%s exists after the interrupt", c.final)
				}
			}
		})
	}
}

// openWriter opens fifo for writing once a reader has it open, or fails when the command
// has exited without opening it.
func openWriter(fifo string, exited chan error) (io.WriteCloser, error) {
	for {
		f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.ENXIO) {
			return nil, err
		}
		select {
		case err := <-exited:
			exited <- err
			return nil, errors.New("the command ended before it opened its input")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestUSIStopsOnSIGTERM: the engine, reading commands, ends with exit status 130 on SIGTERM.
func TestUSIStopsOnSIGTERM(t *testing.T) {
	cmd := exec.Command(filepath.Join(bin, "usi"))
	in, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	io.WriteString(in, "isready\n")
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); strings.TrimSpace(line) != "readyok" {
		t.Fatalf("isready: %q", line)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	var ee *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("after SIGTERM: %v; want exit 130", err)
	}
}
