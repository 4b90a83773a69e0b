package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/internal/filelock"
)

// split writes the four-piece handicap's subproblems after 2 plies (a mate in 10,
// datasets/README.md) into dir.
func split(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "four.split")
	if code, out, stderr := runSolve("handicap", "four-piece", "--max-plies", "10", "--split", "2", "--split-file", path); code != 0 {
		t.Fatalf("split: exit %d, %s %s", code, out, stderr)
	}
	return path
}

// TestOutputsCheckedFirst: an output that cannot be written is a usage error (exit 2, one
// line naming it) before any subproblem is solved or any search runs.
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	sp := split(t, dir)
	for _, args := range [][]string{
		{"shard", sp, "--shard", "0/2", "-o", "/nonexistent/x.result"},
		{"shard", sp, "--shard", "0/2", "-o", dir},
		{"shard", sp, "--shard", "0/2", "--checkpoint", "/nonexistent/x.ckpt"},
		{"merge", sp, sp, "--proof", "/nonexistent/x.proof"},
		{"merge", sp, sp, "--certificate", "/nonexistent/x.cert"},
		{"handicap", "four-piece", "--max-plies", "10", "--proof", "/nonexistent/x.proof"},
		{"handicap", "four-piece", "--max-plies", "10", "--certificate", dir},
		{"handicap", "four-piece", "--split", "2", "--split-file", "/nonexistent/x.split"},
	} {
		code, out, stderr := runSolve(args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "output file") || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, one line about the output, nothing done", args, code, out, stderr)
		}
	}
}

// TestCheckpointLocked: a second solve on a checkpoint another holds refuses at once in one
// line naming the holder (two solves used to share the temporary name CKPT.tmp); the lock
// of a solve that ended is gone.
func TestCheckpointLocked(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "four.ckpt")
	held, err := filelock.Acquire(filelock.Beside(ckpt))
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runSolve("handicap", "four-piece", "--max-plies", "10", "--retro-plies", "0", "--checkpoint", ckpt, "--node-limit", "3000")
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "in use by another solve") || !strings.Contains(stderr, fmt.Sprintf("process %d", os.Getpid())) {
		t.Errorf("second solve on the checkpoint: exit %d, %q", code, stderr)
	}
	held.Release()
	if code, out, stderr := runSolve("handicap", "four-piece", "--max-plies", "10", "--retro-plies", "0", "--checkpoint", ckpt, "--node-limit", "3000"); code != 0 {
		t.Fatalf("after the holder let go: exit %d, %s %s", code, out, stderr)
	}
	if _, err := os.Stat(filelock.Beside(ckpt)); !os.IsNotExist(err) {
		t.Errorf("the lock file is left after the solve ended (%v)", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestShardResumes: a shard stopped by a signal before its first subproblem is solved
// saves that search and ends as interrupted; a shard whose checkpoint holds the results of
// its first subproblems (a kill after them) solves only the others. Both end with the
// results of a shard run in one go, and leave no checkpoint behind.
func TestShardResumes(t *testing.T) {
	dir := t.TempDir()
	sp := split(t, dir)
	whole := filepath.Join(dir, "whole.result")
	if code, out, stderr := runSolve("shard", sp, "--shard", "0/2", "-o", whole); code != 0 {
		t.Fatalf("shard 0/2: exit %d, %s %s", code, out, stderr)
	}
	var want resultFile
	if err := loadGob(whole, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Results) < 3 {
		t.Fatalf("shard 0/2 has %d subproblems; the test needs 3", len(want.Results))
	}

	// Stopped by a signal as soon as the first search is saved (a checkpoint each
	// millisecond): the interrupt, and the search saved. (A signal before the split is read
	// stops the command before there is anything to save.)
	stopped := filepath.Join(dir, "stopped.result")
	cancelled, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for cancelled.Err() == nil {
			if _, err := os.Stat(stopped + ".ckpt.dfpn"); err == nil {
				cancel()
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	var stderr bytes.Buffer
	err := runShard(cancelled, []string{sp, "--shard", "0/2", "--every", "1ms", "-o", stopped}, &bytes.Buffer{}, &stderr)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "run the same command again") {
		t.Errorf("a shard stopped by a signal: %v", err)
	}
	_, errProgress := os.Stat(stopped + ".ckpt")
	_, errSearch := os.Stat(stopped + ".ckpt.dfpn")
	if errProgress != nil && errSearch != nil {
		t.Errorf("the shard's state was not saved: %v; %v", errProgress, errSearch)
	}
	if _, err := os.Stat(stopped); err == nil {
		t.Error("a stopped shard wrote its results")
	}
	if code, out, stderr := runSolve("shard", sp, "--shard", "0/2", "-o", stopped); code != 0 {
		t.Fatalf("resumed after the signal: exit %d, %s %s", code, out, stderr)
	}

	// Killed after two subproblems: their results are in the checkpoint.
	killed := filepath.Join(dir, "killed.result")
	part := want
	part.Results = want.Results[:2]
	if err := saveGob(killed+".ckpt", &part); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runSolve("shard", sp, "--shard", "0/2", "-o", killed)
	if code != 0 || !strings.Contains(errOut, "2 subproblems solved") {
		t.Fatalf("resumed after a kill: exit %d, %s", code, errOut)
	}
	for _, p := range []string{stopped, killed} {
		var got resultFile
		if err := loadGob(p, &got); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the resumed shard's results differ from the shard run in one go", filepath.Base(p))
		}
		for _, left := range []string{p + ".ckpt", p + ".ckpt.dfpn", filelock.Beside(p)} {
			if _, err := os.Stat(left); !os.IsNotExist(err) {
				t.Errorf("%s is left after the shard finished (%v)", left, err)
			}
		}
	}
	// A checkpoint of another shard is refused, not resumed.
	other := filepath.Join(dir, "other.result")
	part.Shard = "1/2"
	saveGob(other+".ckpt", &part)
	if code, _, errOut := runSolve("shard", sp, "--shard", "0/2", "-o", other); code != 1 || !strings.Contains(errOut, "is of shard 1/2") {
		t.Errorf("another shard's checkpoint: exit %d, %q", code, errOut)
	}
}
