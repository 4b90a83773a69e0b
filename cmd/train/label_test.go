package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/internal/shard/slurmtest"
	"github.com/shogilab/shogilab/train/labels"
)

// TestMain lets a test run this command as a process of its own (the test binary with
// SHOGILAB_TRAIN_MAIN=1 is train), so that it can be killed.
func TestMain(m *testing.M) {
	if os.Getenv("SHOGILAB_TRAIN_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

var book = filepath.Join("..", "..", "datasets", "openings", "book.sfen.gz")

func fsfSpec(t *testing.T, depth string) string {
	return "usi:" + fsftest.Path(t) + ",depth=" + depth + ",option.Threads=1,option.Hash=16"
}

// TestLabel labels a few positions of the book and of the sample's games.
func TestLabel(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := run("label", "-o", dir, "--engine", fsfSpec(t, "3"), "--limit", "6", "--block", "4", "--keep-state", "--json", balanced, sample)
	if code != 0 {
		t.Fatalf("train label: exit %d: %s", code, stderr)
	}
	checkSnakeCase(t, out)
	var s labelSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	// balanced.sfen has 100 openings, all distinct; --limit keeps the first 6.
	if s.Positions != 6 || s.Labelled != 6 || s.List != 6 || s.Distinct < 100 || s.Found <= s.Distinct || s.PerSecond <= 0 || s.Shard != "0/1" {
		t.Errorf("summary %+v", s)
	}
	r, err := labels.Open(filepath.Join(dir, "labels-0-of-1.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := r.Provenance()
	// The command line keeps relative paths as given and the engine's base name only.
	want := "train label --engine usi:fairy-stockfish,depth=3,option.Threads=1,option.Hash=16 --block 4 --keep-state --limit 6 ../../datasets/openings/balanced.sfen ../../datasets/evaluation/fsf5000-sample.jsonl.gz"
	if p.Command != want || !strings.HasPrefix(p.Labeller, "Fairy-Stockfish") || p.Limit != "depth 3" || p.Block != 4 ||
		!reflect.DeepEqual(p.Options, []string{"UCI_Variant=minishogi", "Threads=1", "Hash=16"}) {
		t.Errorf("provenance %+v", p)
	}
	row, err := r.Read()
	if err != nil || row.Source != "../../datasets/openings/balanced.sfen" || row.Line == nil || *row.Line != 5 { // after four comment lines
		t.Errorf("first row %+v, %v", row, err)
	}
}

// TestLabelThenFit: a labels table is training data for train fit, as record files are:
// every labelled position is an example with the labelled move as its policy target.
func TestLabelThenFit(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := run("label", "-o", dir, "--engine", fsfSpec(t, "3"), "--limit", "40", "--block", "20", balanced)
	if code != 0 {
		t.Fatalf("train label: exit %d: %s", code, stderr)
	}
	file := filepath.Join(dir, "tiny.nnue")
	code, out, stderr := run("fit", "-o", file, "-hidden1", "4", "-hidden2", "2", "-policy", "2", "-epochs", "2", "-held-out", "0.25", "-json", filepath.Join(dir, "labels-0-of-1.parquet"))
	if code != 0 {
		t.Fatalf("train fit: exit %d: %s", code, stderr)
	}
	var s fitSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	// 40 distinct openings: each an example with a policy target, none a game.
	if s.Games != 0 || s.Positions != 40 || s.Train+s.Held != 40 || s.Held == 0 || s.Labelled != s.Train || s.Policy != 2 {
		t.Errorf("summary %+v; want the 40 labelled positions split, every training one with a policy target", s)
	}
	if !strings.Contains(stderr, "40 labelled positions") {
		t.Errorf("stderr does not describe the labelled positions: %q", stderr)
	}
}

func TestLabelErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no -o", []string{"label", book}, 2, "-o DIR is required"},
		{"no files", []string{"label", "-o", dir}, 2, "no files of positions"},
		{"missing file", []string{"label", "-o", dir, "missing.sfen"}, 2, "missing.sfen"},
		{"block 0", []string{"label", "-o", dir, "--block", "0", book}, 2, "--block 0"},
		{"sample", []string{"label", "-o", dir, "--sample", "2", book}, 2, "--sample 2"},
		{"shard", []string{"label", "-o", dir, "--shard", "3/3", book}, 2, `shard "3/3"`},
		{"shards outside a cluster", []string{"label", "-o", dir, "--shards", "4", book}, 2, "--shards 4 without"},
		{"mcts engine", []string{"label", "-o", dir, "--engine", "mcts:playouts=100", book}, 2, "not a USI engine"},
		{"no limit", []string{"label", "-o", dir, "--engine", "usi:fairy-stockfish", book}, 2, "needs a limit"},
		{"not an engine", []string{"label", "-o", dir, "--engine", "usi:/nonexistent/engine,depth=3", book}, 1, "/nonexistent/engine"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := run(c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "train label: ") {
				t.Errorf("train %v: exit %d, stderr %q; want exit %d and one line with %q", c.args, code, stderr, c.code, c.want)
			}
		})
	}
}

// TestLabelKillAndResume: the command killed (SIGKILL) while it labels, then run again,
// writes the table of an uninterrupted run.
func TestLabelKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("labels 24 positions three times")
	}
	args := func(out string) []string {
		return []string{"label", "-o", out, "--engine", fsfSpec(t, "6"), "--limit", "24", "--block", "5", book}
	}
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, stderr := run(args(ref)...); code != 0 {
		t.Fatalf("uninterrupted run: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(t.TempDir(), "killed")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args(dir)...)
	cmd.Env = append(os.Environ(), "SHOGILAB_TRAIN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(dir, "labels-0-of-1.journal.jsonl")
	// Poll until the header and 7 rows are written: within the second block.
	for countLines(journal) < 8 {
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	if n := countLines(journal); n < 2 || n > 24 {
		t.Fatalf("the killed run left %d journal lines: %s", n, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "labels-0-of-1.parquet")); err == nil {
		t.Fatal("the killed run wrote its table")
	}
	code, out, errOut := run(append(args(dir), "--json")...)
	if code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, errOut)
	}
	var s labelSummary
	json.Unmarshal([]byte(out), &s)
	if s.Kept%5 != 0 || s.Kept+s.Labelled != 24 {
		t.Errorf("rerun kept %d and labelled %d: want whole blocks of 5 kept, 24 in all", s.Kept, s.Labelled)
	}
	want, got := rowsOf(t, filepath.Join(ref, "labels-0-of-1.parquet")), rowsOf(t, filepath.Join(dir, "labels-0-of-1.parquet"))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("killed and resumed: %d rows differ from the uninterrupted run's %d", len(got), len(want))
	}
}

func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
	}
	return n
}

func rowsOf(t *testing.T, path string) []labels.Row {
	t.Helper()
	var rows []labels.Row
	if err := labels.Rows([]string{path}, func(r labels.Row) error { rows = append(rows, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestSlurmLabel submits deploy/label.slurm as a two-task array job to a real Slurm
// (ci/slurm-setup.sh starts a single-node cluster) and compares the two shards' rows with
// an unsharded run's. It follows cmd/selfplay's TestSlurmArray: without Slurm it skips,
// except under CI=true, where it fails.
func TestSlurmLabel(t *testing.T) {
	slurm := slurmtest.Need(t)
	// An absolute path outside both working directories: the source column holds its base
	// name in both runs.
	files, err := filepath.Abs(book)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	binary := buildTrain(t, dir)
	out := filepath.Join(dir, "out")
	engine, args := fsfSpec(t, "3"), "--limit 6 --block 2"
	slurm.Run(t, dir, "../../deploy/label.slurm", "0-1", "TRAIN="+binary, "FILES="+files, "OUT="+out, "ENGINE="+engine, "LABEL_ARGS="+args)
	ref := filepath.Join(dir, "ref")
	if code, _, stderr := run(append([]string{"label", "-o", ref, "--engine", engine, files}, strings.Fields(args)...)...); code != 0 {
		t.Fatalf("unsharded run: exit %d: %s", code, stderr)
	}
	want := rowsOf(t, filepath.Join(ref, "labels-0-of-1.parquet"))
	got := append(rowsOf(t, filepath.Join(out, "labels-0-of-2.parquet")), rowsOf(t, filepath.Join(out, "labels-1-of-2.parquet"))...)
	if len(want) != 6 || !reflect.DeepEqual(got, want) {
		t.Errorf("the Slurm shards' %d rows differ from the unsharded run's %d", len(got), len(want))
	}
}
