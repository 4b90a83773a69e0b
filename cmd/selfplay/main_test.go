package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/internal/fsftest/fsfclient"
	"github.com/shogilab/shogilab/internal/recordtest"
	"github.com/shogilab/shogilab/internal/shard/slurmtest"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/selfplay"
	"github.com/shogilab/shogilab/usi"
)

// binary is the selfplay command built once for the tests that run it as a
// process (signals, Slurm).
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "selfplay-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "selfplay")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building selfplay: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needProgram finds an outside program: missing, it fails the test under
// CI=true and skips it otherwise.
func needProgram(t *testing.T, name, install string, paths ...string) string {
	t.Helper()
	for _, p := range append(paths, name) {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s not found (%s)", name, install)
	}
	t.Skipf("%s not installed (%s); skipping", name, install)
	return ""
}

func runCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"merge", "-h"}, {"verify", "-h"}, {"export", "-h"}, {"help"}} {
		out, errOut, code := runCmd(t, args...)
		if code != 0 || !strings.Contains(out, "usage:") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestBadInput checks that each bad input is one line on stderr naming the
// problem, and a non-zero exit.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	badSFEN := filepath.Join(dir, "bad.sfen")
	os.WriteFile(badSFEN, []byte("rbsgk/4p/5/P4/KGSBR b - 1\nrbsgk/4p/5/P4/KGSBQ b - 1\n"), 0o644)
	aFile := filepath.Join(dir, "file")
	os.WriteFile(aFile, []byte("x"), 0o644)
	quick := []string{"--games", "1", "--sente", "random", "--gote", "random"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--start", "@" + filepath.Join(dir, "missing.sfen")}, "missing.sfen"},
		{[]string{"--start", "@" + badSFEN}, "bad.sfen:2"},
		{[]string{"--start", "queen-odds"}, "queen-odds"},
		{[]string{"--gote", "usi:/nonexistent/engine"}, "/nonexistent/engine"},
		{[]string{"--out", filepath.Join(aFile, "sub")}, "output directory"},
		{[]string{"--shard", "3/3"}, "shard"},
		{[]string{"--repetition", "sometimes"}, "repetition"},
		{[]string{"--bogus"}, "bogus"},
		{[]string{"--sente", "alphazero"}, "alphazero"},
		{[]string{"--shards", "4"}, "JOB_COMPLETION_INDEX"},
		{[]string{"--cap-full", "64"}, "--cap-full without --cap-fast"},
		{[]string{"--cap-fast", "8", "--movetime", "10ms"}, "--cap-fast and --movetime"},
		{[]string{"--sente", "mcts", "--playouts", "16", "--cap-fast", "32"}, "cap-fast 32 is more than"},
		{[]string{"--gumbel", "--gumbel-moves", "0"}, "--gumbel-moves 0"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append(append([]string{}, quick...), tc.args...)
			if !contains(tc.args, "--out") {
				args = append(args, "--out", filepath.Join(dir, "out"))
			}
			_, errOut, code := runCmd(t, args...)
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			if code == 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "selfplay") || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want one line with %q", code, errOut, tc.want)
			}
		})
	}
	for _, args := range [][]string{{"merge", "-o", filepath.Join(dir, "m.jsonl")}, {"verify", aFile}, {"export", "--format", "pgn", aFile}, {"frobnicate"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, errOut, code := runCmd(t, args...)
			if code == 0 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || errOut == "" {
				t.Errorf("exit %d, stderr %q", code, errOut)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRunReportAndTools runs a small match, then merge, verify and export,
// through the command's JSON output.
func TestRunReportAndTools(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCmd(t, "--games", "5", "--parallel", "2", "--playouts", "20", "--out", dir, "--json", "--gzip")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep runReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output %q: %v", out, err)
	}
	n := 0
	for _, c := range rep.Results {
		n += c
	}
	if rep.Games != 5 || rep.Played != 5 || n != 5 || !strings.HasSuffix(rep.File, ".jsonl.gz") || rep.Bytes == 0 {
		t.Errorf("report %+v", rep)
	}
	merged := filepath.Join(dir, "all.jsonl")
	if _, e, code := runCmd(t, "merge", "-o", merged, "--games", "5", rep.File); code != 0 {
		t.Fatalf("merge: %s", e)
	}
	if o, e, code := runCmd(t, "verify", "--seed", "1", merged); code != 0 || !strings.Contains(o, "5 games") {
		t.Fatalf("verify: %s %s", o, e)
	}
	if _, e, code := runCmd(t, "verify", "--seed", "2", merged); code == 0 || !strings.Contains(e, "base seed 2") {
		t.Errorf("verify with the wrong seed: %s", e)
	}
	for _, f := range []string{"kif", "csa"} {
		t.Run(f, func(t *testing.T) {
			o, e, code := runCmd(t, "export", "--format", f, "--id", "3", merged)
			if code != 0 || o == "" {
				t.Errorf("export %s: %s", f, e)
			}
		})
	}
	// The whole run, from its directory, in one file of each format: five games, by id.
	for _, c := range []struct{ format, start, sep string }{{"kif", "#KIF version", "\n\n#KIF version"}, {"csa", "V2.2\n", "\n/\nV2.2\n"}} {
		t.Run(c.format, func(t *testing.T) {
			o, e, code := runCmd(t, "export", "--format", c.format, "--out", filepath.Join(dir, c.format), dir)
			if code != 0 || !strings.Contains(o, "wrote 5 games") {
				t.Fatalf("export %s of the run's directory: %s %s", c.format, o, e)
			}
			text, err := os.ReadFile(filepath.Join(dir, c.format, "games."+c.format))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(text), c.start) || strings.Count(string(text), c.sep) != 4 {
				t.Errorf("export %s: %d separators %q in\n%s", c.format, strings.Count(string(text), c.sep), c.sep, text)
			}
			ids := regexp.MustCompile(`shogilab game (\d+) `).FindAllStringSubmatch(string(text), -1)
			var got []string
			for _, m := range ids {
				got = append(got, m[1])
			}
			if strings.Join(got, " ") != "0 1 2 3 4" {
				t.Errorf("export %s: games %v; want 0 to 4, by id", c.format, got)
			}
		})
	}
	// Parquet: the tables hold the games; verify and export read them.
	tables := filepath.Join(dir, "tables")
	if o, e, code := runCmd(t, "export", "--format", "parquet", "--out", tables, merged); code != 0 || !strings.Contains(o, "wrote 5 games") {
		t.Fatalf("export parquet: %s %s", o, e)
	}
	games := filepath.Join(tables, "games.parquet")
	recordtest.Same(t, "Parquet export", recordtest.ReadSorted(t, games), recordtest.ReadSorted(t, merged))
	if o, e, code := runCmd(t, "verify", "--seed", "1", games); code != 0 || !strings.Contains(o, "5 games") {
		t.Errorf("verify of the games table: %s %s", o, e)
	}
	if o, e, code := runCmd(t, "export", "--format", "kif", "--id", "3", games); code != 0 || o == "" {
		t.Errorf("export kif from the games table: %s", e)
	}
	if _, e, code := runCmd(t, "export", "--format", "parquet", merged); code == 0 || !strings.Contains(e, "needs --out DIR") {
		t.Errorf("export parquet without -o: %s", e)
	}
}

// TestKillAndResume is the kill test of the issue: start the built binary,
// SIGKILL it once some games are written, run the same command again, and
// compare with an uninterrupted run. In the Parquet format the kill lands
// while the games go to the journal: no table exists until the rerun ends.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a few dozen MCTS games")
	}
	dir := t.TempDir()
	args := func(out string, more ...string) []string {
		return append([]string{"--games", "10", "--parallel", "2", "--playouts", "60", "--seed", "7", "--out", out}, more...)
	}
	ref := filepath.Join(dir, "ref")
	if out, err := exec.Command(binary, args(ref)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	for _, c := range []struct{ format, journal, result string }{
		{"jsonl", "games-0-of-1.jsonl", "games-0-of-1.jsonl"},
		{"parquet", "games-0-of-1.journal.jsonl", "games-0-of-1.parquet"},
	} {
		t.Run(c.format, func(t *testing.T) {
			killed := filepath.Join(dir, "killed-"+c.format)
			journal := filepath.Join(killed, c.journal)
			cmd := exec.Command(binary, args(killed, "--format", c.format)...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitLines(t, journal, 3)
			cmd.Process.Kill() // SIGKILL
			cmd.Wait()
			if n := countLines(journal); n >= 10 {
				t.Fatalf("%s: the run finished (%d games) before the kill", c.format, n)
			}
			if c.format == "parquet" {
				if _, err := os.Stat(filepath.Join(killed, c.result)); err == nil {
					t.Fatalf("a killed Parquet run left %s", c.result)
				}
			}
			// The killed run's lock file stays; the rerun takes it over and removes it.
			lock := filepath.Join(killed, ".games-0-of-1."+c.format+".lock")
			if _, err := os.Stat(lock); err != nil {
				t.Errorf("%s: the killed run's lock file: %v", c.format, err)
			}
			if out, err := exec.Command(binary, args(killed, "--format", c.format)...).CombinedOutput(); err != nil {
				t.Fatalf("%s: rerun: %v\n%s", c.format, err, out)
			}
			if _, err := os.Stat(lock); !os.IsNotExist(err) {
				t.Errorf("%s: the lock file is left after a clean exit (%v)", c.format, err)
			}
			recordtest.Same(t, c.format+" killed and rerun", recordtest.ReadSorted(t, filepath.Join(killed, c.result)),
				recordtest.ReadSorted(t, filepath.Join(ref, "games-0-of-1.jsonl")))
		})
	}
}

// TestSIGTERMStopsCleanly: SIGTERM ends the run with exit status 130 and
// whole records only, and the run's CPU log gets its line (a preempted array task's
// cost still counts): the games it played, fewer than asked, as many as the file holds.
func TestSIGTERMStopsCleanly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games-0-of-1.jsonl")
	cpuLog := filepath.Join(t.TempDir(), "cpu.jsonl")
	cmd := exec.Command(binary, "--games", "50", "--parallel", "2", "--playouts", "60", "--out", dir, "--cpu-log", cpuLog)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitLines(t, path, 1)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("after SIGTERM: %v, stderr %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "run the same command again") {
		t.Errorf("stderr %q does not say how to resume", stderr.String())
	}
	data, _ := os.ReadFile(path)
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Errorf("the file does not end in a whole record")
	}
	if _, err := record.ParseLine(data[bytes.LastIndexByte(data[:len(data)-1], '\n')+1:]); err != nil {
		t.Errorf("last record: %v", err)
	}
	lines, err := selfplay.ReadCPULog(cpuLog)
	if err != nil || len(lines) != 1 {
		t.Fatalf("CPU log: %+v, %v; want one line", lines, err)
	}
	if l := lines[0]; l.Shard != "0/1" || l.Played != countLines(path) || l.Played >= 50 || l.CPU <= 0 || l.Wall <= 0 {
		t.Errorf("CPU log line %+v; want shard 0/1, the %d games of the file, some CPU and wall time", l, countLines(path))
	}
}

func waitLines(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for countLines(path) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not reach %d games", path, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func countLines(path string) int {
	data, _ := os.ReadFile(path)
	return bytes.Count(data, []byte("\n"))
}

// TestAgainstFairyStockfish plays a few games against Debian's
// fairy-stockfish through the USI client, with both colours.
func TestAgainstFairyStockfish(t *testing.T) {
	fsf := fsftest.Path(t)
	dir := t.TempDir()
	spec := "usi:" + fsf + ",nodes=500,option.Threads=1"
	for _, sides := range [][2]string{{spec, "mcts"}, {"random", spec}} {
		out, errOut, code := runCmd(t, "--games", "2", "--parallel", "2", "--playouts", "40", "--max-plies", "120",
			"--sente", sides[0], "--gote", sides[1], "--out", filepath.Join(dir, sides[1][:3]), "--json")
		if code != 0 {
			t.Fatalf("%v: %s", sides, errOut)
		}
		var rep runReport
		json.Unmarshal([]byte(out), &rep)
		if rep.Terminations[record.EngineError] > 0 || rep.Terminations[record.IllegalMove] > 0 || rep.Games != 2 {
			t.Errorf("%v: %+v", sides, rep)
		}
		for _, g := range recordtest.ReadSorted(t, rep.File) {
			usiSide := g.Players.Sente
			if sides[1] == spec {
				usiSide = g.Players.Gote
			}
			if usiSide.Kind != record.KindUSI || usiSide.Name != "fairy-stockfish" {
				t.Errorf("game %d players %+v", g.ID, g.Players)
			}
		}
	}
}

// TestSlurmArray submits deploy/slurm.sbatch as a three-task array job to a
// real Slurm (ci/slurm-setup.sh starts a single-node cluster), waits, merges
// the shards and verifies them, and compares with an unsharded run.
func TestSlurmArray(t *testing.T) {
	slurm := slurmtest.Need(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	const script = "../../deploy/slurm.sbatch"
	env := []string{"SELFPLAY=" + binary, "GAMES=8", "SEED=5", "OUT=" + out, "SELFPLAY_ARGS=--playouts 30 --max-plies 80"}
	slurm.Run(t, dir, script, "0-2", env...)
	shards, _ := filepath.Glob(filepath.Join(out, "games-*-of-3.jsonl"))
	if len(shards) != 3 {
		t.Fatalf("shard files %v, want 3", shards)
	}
	// Task 1 resubmitted alone (sbatch --array=1: SLURM_ARRAY_TASK_MIN = MAX = 1, COUNT 1)
	// stays shard 1 of 3 with SHARDS=3, and finds its games done; without SHARDS it is
	// refused (it used to become shard 0 of 1 and replay the whole run).
	one := filepath.Join(out, "games-1-of-3.jsonl")
	before, _ := os.ReadFile(one)
	if o, err := slurm.Submit(dir, script, "1", append(env, "SHARDS=3")...); err != nil {
		t.Fatalf("task 1 resubmitted with SHARDS=3: %v\n%s", err, o)
	}
	if after, _ := os.ReadFile(one); len(before) == 0 || string(after) != string(before) {
		t.Errorf("the resubmitted task changed its shard's file (%d bytes, then %d)", len(before), len(after))
	}
	if _, err := slurm.Submit(dir, script, "1", env...); err == nil {
		t.Error("task 1 resubmitted without SHARDS: the job succeeded")
	}
	if _, err := os.Stat(filepath.Join(out, "games-0-of-1.jsonl")); err == nil {
		t.Error("the resubmitted task played the whole run as shard 0/1")
	}
	merged := filepath.Join(dir, "all.jsonl")
	if _, e, code := runCmd(t, append([]string{"merge", "-o", merged, "--games", "8"}, shards...)...); code != 0 {
		t.Fatalf("merge: %s", e)
	}
	if _, e, code := runCmd(t, "verify", "--seed", "5", merged); code != 0 {
		t.Fatalf("verify: %s", e)
	}
	ref := filepath.Join(dir, "ref")
	if _, e, code := runCmd(t, "--games", "8", "--seed", "5", "--playouts", "30", "--max-plies", "80", "--out", ref); code != 0 {
		t.Fatalf("unsharded run: %s", e)
	}
	recordtest.Same(t, "Slurm shards merged", recordtest.ReadSorted(t, merged), recordtest.ReadSorted(t, filepath.Join(ref, "games-0-of-1.jsonl")))
}

// TestOpeningsJudgedByFairyStockfish makes three openings judged by Fairy-Stockfish at depth
// 8 within a margin so wide that every position with a score is kept, so the three are the
// first three positions judged, all in the first block, which one process of the judge
// judges in order. A process of Fairy-Stockfish asked again through the USI client, in the
// same order with usinewgame before each, gives the same scores. match reads the file.
func TestOpeningsJudgedByFairyStockfish(t *testing.T) {
	fsf := fsftest.Path(t)
	path := filepath.Join(t.TempDir(), "openings.sfen")
	_, errOut, code := runCmd(t, "openings", "-o", path, "--count", "3", "--margin", "5000", "--judge", "usi:"+fsf+",depth=8,option.Threads=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(path)
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 3 {
		t.Fatalf("%d openings:\n%s", len(lines), data)
	}
	ctx := context.Background()
	c := fsfclient.StartAt(t, fsf)
	c.SetOption("Threads", "1")
	for _, l := range lines {
		sfen, comment, _ := strings.Cut(l, " # ")
		_, cp, _ := strings.Cut(comment, ", cp ")
		cp, _, _ = strings.Cut(cp, ",") // then the walk and its block
		want, err := strconv.Atoi(cp)
		if err != nil || want < -5000 || want > 5000 || !strings.HasSuffix(comment, ", block 0") {
			t.Errorf("%q: score %q not within ±5000, or not of block 0", l, cp)
		}
		c.NewGame()
		if err := c.IsReady(ctx); err != nil {
			t.Fatal(err)
		}
		c.Position(strings.TrimSpace(sfen), nil)
		// The judge's score is that of the last line with a score or a pv, as selfplay's
		// USI player keeps it.
		var last usi.SearchInfo
		if _, err := c.Go(ctx, usi.GoParams{Depth: 8}, func(in usi.SearchInfo) {
			if in.HasScore() || len(in.PV) > 0 {
				last = in
			}
		}); err != nil {
			t.Fatal(err)
		}
		if last.Kind != usi.ScoreCP || last.CP != want {
			t.Errorf("%s: Fairy-Stockfish says %q, the file %d", sfen, last.Format(), want)
		}
	}
}

// TestTrainingTargets: --gumbel and the playout cap reach the records: the players'
// configs, the fast marks with their budgets, and policies on the targets alone.
func TestTrainingTargets(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCmd(t, "--games", "2", "--parallel", "1", "--gumbel", "--gumbel-moves", "4",
		"--playouts", "12", "--cap-full", "24", "--cap-fast", "6", "--cap-prob", "0.5", "--max-plies", "40",
		"--out", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	games := recordtest.ReadSorted(t, filepath.Join(dir, "games-0-of-1.jsonl"))
	want := map[string]any{"playouts": 24.0, "cap_fast": 6.0, "cap_prob": 0.5, "gumbel_moves": 4.0, "resign": "proven", "threads": 1.0}
	var fast, full int
	for _, g := range games {
		for side, p := range map[string]record.Player{"sente": g.Players.Sente, "gote": g.Players.Gote} {
			if fmt.Sprint(p.Config) != fmt.Sprint(want) {
				t.Errorf("game %d %s: config %v, want %v (no noise, no temperature with --gumbel)", g.ID, side, p.Config, want)
			}
		}
		for i, s := range g.Stats {
			if s.Visits == 1 { // the root proven before any playout
				continue
			}
			if s.Mate != nil { // the root proven part-way: the search stops short of its budget
				if s.Fast == (len(s.Policy) > 0) {
					t.Errorf("game %d move %d: fast %v with a policy of %d moves", g.ID, i, s.Fast, len(s.Policy))
				}
				continue
			}
			switch {
			case s.Fast && s.Visits == 7 && s.Policy == nil:
				fast++
			case !s.Fast && s.Visits == 25 && len(s.Policy) > 0:
				full++
			default:
				t.Errorf("game %d move %d: %+v", g.ID, i, s)
			}
		}
	}
	if fast == 0 || full == 0 {
		t.Errorf("%d fast and %d full searches", fast, full)
	}
}
