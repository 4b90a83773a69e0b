package selfplay

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/internal/recordtest"
	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/record"
)

// TestSecondRunOnShardRefused: a second run on the shard a first run is writing (a cluster
// job resubmitted while the first still runs) refuses at once, and the first finishes with
// every game once.
func TestSecondRunOnShardRefused(t *testing.T) {
	dir := t.TempDir()
	m := testMatch(t, "random")
	slow, err := ParsePlayerSpec("usi:"+scriptEngine(t, `sleep 0.2; echo "bestmove resign"`)+",nodes=1", PlayerSpec{})
	if err != nil {
		t.Fatal(err)
	}
	m.B = slow
	first := &Run{Match: m, Games: 4, OutDir: dir}
	started := make(chan struct{})
	first.Progress = func(p Progress) {
		if p.Game == nil {
			close(started)
		}
	}
	result := make(chan error, 1)
	go func() {
		_, err := first.Execute(context.Background())
		result <- err
	}()
	<-started
	_, err = (&Run{Match: m, Games: 4, OutDir: dir}).Execute(context.Background())
	if err == nil || !strings.Contains(err.Error(), "another run") {
		t.Errorf("second run on the same shard: %v", err)
	}
	if err := <-result; err != nil {
		t.Fatal(err)
	}
	games := recordtest.ReadSorted(t, filepath.Join(dir, shard.Whole.FileName(string(JSONL))))
	if len(games) != 4 {
		t.Errorf("%d games in the file, want 4", len(games))
	}
	// Another shard of the same run shares the directory and is not blocked.
	execute(t, &Run{Match: testMatch(t, "random"), Games: 4, Shard: shard.Shard{Index: 1, Count: 2}, OutDir: dir})
	// A finished run leaves no lock file (.games-0-of-1.jsonl.lock) behind.
	if locks, _ := filepath.Glob(filepath.Join(dir, ".*.lock")); len(locks) != 0 {
		t.Errorf("lock files left after the runs ended: %v", locks)
	}
}

// TestVerifyReportsDuplicateIDs: the same game id twice, in one file or in two of one
// directory, fails verify naming both places; files of runs in other directories may
// share ids.
func TestVerifyReportsDuplicateIDs(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	w, err := record.Create(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{0, 1, 0} {
		g := bareKingMate()
		g.ID = id
		w.Write(g)
	}
	w.Close()
	_, err = Verify(context.Background(), []string{a}, VerifyOptions{})
	if err == nil || !strings.Contains(err.Error(), "a.jsonl:3: game 0 is also in "+a+":1") {
		t.Errorf("duplicate id in one file: %v", err)
	}
	b := filepath.Join(dir, "b.jsonl")
	w, _ = record.Create(b)
	w.Write(bareKingMate())
	w.Close()
	c := filepath.Join(dir, "c.jsonl")
	w, _ = record.Create(c)
	g := bareKingMate()
	g.ID = 5
	w.Write(g)
	w.Write(bareKingMate())
	w.Close()
	if _, err := Verify(context.Background(), []string{b, c}, VerifyOptions{}); err == nil || !strings.Contains(err.Error(), "c.jsonl:2: game 0 is also in "+b+":1") {
		t.Errorf("duplicate id across files: %v", err)
	}
	other := filepath.Join(t.TempDir(), "b.jsonl")
	data, _ := os.ReadFile(b)
	os.WriteFile(other, data, 0o644)
	if _, err := Verify(context.Background(), []string{b, other}, VerifyOptions{}); err != nil {
		t.Errorf("the same id in two directories: %v", err)
	}
}

// TestResumeRefusesOtherSettings: a rerun on the same directory with other players, start,
// rules or version refuses and names the setting; --allow-changes lets it add games.
func TestResumeRefusesOtherSettings(t *testing.T) {
	dir := t.TempDir()
	base := testMatch(t, "random")
	execute(t, &Run{Match: base, Games: 2, OutDir: dir})
	mcts := testMatch(t, "mcts")
	cases := []struct {
		edit func(m *Match)
		want string
	}{
		{func(m *Match) { m.B = mcts.B }, `another gote player ("random" in the file, "mcts" now)`},
		{func(m *Match) { m.Openings, _ = ParseStart("bare-king") }, "another start"},
		{func(m *Match) { m.Rules.MaxPlies = 61 }, "another play limit (max plies) (60 in the file, 61 now)"},
		{func(m *Match) { m.Rules.Repetition = 2 }, "another repetition rule"},
		{func(m *Match) { m.Version = "other" }, "another toolkit version"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			m := testMatch(t, "random")
			c.edit(&m)
			_, err := (&Run{Match: m, Games: 4, OutDir: dir}).Execute(context.Background())
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--allow-changes") {
				t.Errorf("%s: %v", c.want, err)
			}
		})
	}
	// An MCTS budget is a setting of the player.
	fast, slow := testMatch(t, "mcts"), testMatch(t, "mcts")
	slow.A.Limits.Nodes = 48
	mdir := t.TempDir()
	execute(t, &Run{Match: fast, Games: 1, OutDir: mdir})
	if _, err := (&Run{Match: slow, Games: 2, OutDir: mdir}).Execute(context.Background()); err == nil || !strings.Contains(err.Error(), "sente player's playouts (24 in the file, 48 now)") {
		t.Errorf("other playouts: %v", err)
	}
	// The same settings extend the run; allowed changes add games.
	sum := execute(t, &Run{Match: base, Games: 3, OutDir: dir})
	if sum.Kept != 2 || sum.Played != 1 {
		t.Errorf("extending the run: %+v", sum)
	}
	m := testMatch(t, "random")
	m.Rules.MaxPlies = 61
	if sum := execute(t, &Run{Match: m, Games: 4, OutDir: dir, AllowChanges: true}); sum.Kept != 3 || sum.Played != 1 {
		t.Errorf("allowed change: %+v", sum)
	}
}

// TestMergeRefusesItsOwnInput: -o naming an input would replace it; the input stays whole.
func TestMergeRefusesItsOwnInput(t *testing.T) {
	dir := t.TempDir()
	m := testMatch(t, "random")
	a := execute(t, &Run{Match: m, Games: 4, Shard: shard.Shard{Index: 0, Count: 2}, OutDir: dir}).Path
	b := execute(t, &Run{Match: m, Games: 4, Shard: shard.Shard{Index: 1, Count: 2}, OutDir: dir}).Path
	before, _ := os.ReadFile(a)
	// The same file by another name.
	if _, err := Merge(context.Background(), []string{a, b}, filepath.Join(dir, ".", filepath.Base(a)), 4); err == nil || !strings.Contains(err.Error(), "also an input") {
		t.Errorf("merge -o an input: %v", err)
	}
	if after, _ := os.ReadFile(a); string(after) != string(before) {
		t.Error("the input was changed")
	}
}

// TestMergeFileMode: the merged file gets the mode a run's own files get, 0644 less the
// umask, not os.CreateTemp's 0600.
func TestMergeFileMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	m := testMatch(t, "random")
	a := execute(t, &Run{Match: m, Games: 2, OutDir: dir}).Path
	out := filepath.Join(dir, "merged.jsonl")
	if _, err := Merge(context.Background(), []string{a}, out, 2); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, out} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, %v; want -rw-r--r-- (0644 under umask 022)", filepath.Base(p), st.Mode().Perm(), err)
		}
	}
}

// TestEngineNonsenseIsEngineError: an answer that is not a move at all is engine_error
// (datasets/README.md), a well-formed move that is not legal is illegal_move, and both keep
// the answer in the record's detail.
func TestEngineNonsenseIsEngineError(t *testing.T) {
	for _, c := range []struct {
		onGo   string
		want   record.Termination
		detail string
	}{
		{`echo "bestmove ☃☃"`, record.EngineError, `gote answered bestmove "☃☃", not a USI move`},
		{`echo "bestmove 9a9b"`, record.IllegalMove, "gote played 9a9b: minishogi: move"},
		{"exit 3", record.EngineError, "gote's engine failed: "},
	} {
		t.Run(c.onGo, func(t *testing.T) {
			m := testMatch(t, "random")
			m.B, _ = ParsePlayerSpec("usi:"+scriptEngine(t, c.onGo)+",nodes=1", PlayerSpec{})
			sum := execute(t, &Run{Match: m, Games: 1, OutDir: t.TempDir()})
			g := recordtest.ReadSorted(t, sum.Path)[0]
			if g.Termination != c.want || !strings.HasPrefix(g.Detail, c.detail) {
				t.Errorf("%s: %s, detail %q; want %s, %q", c.onGo, g.Termination, g.Detail, c.want, c.detail)
			}
			schemaCheck(t, sum.Path)
		})
	}
}

// TestRejectedOptionRefused: an option the engine does not declare, or a value outside its
// declaration, fails the engine check before the run, so no record lists it as set.
func TestRejectedOptionRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "engine.sh")
	script := `#!/bin/sh
while read -r cmd rest; do
  case "$cmd" in
    usi) echo "id name fake"; echo "option name Depth type spin default 1 min 1 max 10"; echo "option name Style type combo default a var a var b"; echo "usiok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ opt, want string }{
		{"option.Frobnicate=1", `has no option "Frobnicate"`},
		{"option.Depth=99", `option Depth: "99" is not from 1 to 10`},
		{"option.Style=c", `option Style: "c" is not one of a, b`},
		{"option.depth=5,option.Style=b", ""},
	} {
		t.Run(c.opt, func(t *testing.T) {
			spec, err := ParsePlayerSpec("usi:"+path+",nodes=1,"+c.opt, PlayerSpec{})
			if err != nil {
				t.Fatal(err)
			}
			err = spec.CheckEngine(context.Background())
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("%s: %v, want %q", c.opt, err, c.want)
			}
		})
	}
}

// TestBudgetsBounded: a playout budget no pool can serve, and games at once whose pools
// exceed the machine's memory, are refused before anything is played.
func TestBudgetsBounded(t *testing.T) {
	if _, err := ParsePlayerSpec("mcts:playouts=99999999999", PlayerSpec{}); err == nil || !strings.Contains(err.Error(), "pool") {
		t.Errorf("playouts=99999999999: %v", err)
	}
	if _, err := ParsePlayerSpec("mcts:playouts=4194304", PlayerSpec{}); err != nil {
		t.Errorf("playouts=4194304 (the pool's nodes): %v", err)
	}
	// 2^24 games at once, each with two pools of 2 MiB at least: 64 TiB.
	m := testMatch(t, "mcts")
	_, err := (&Run{Match: m, Games: 1 << 24, Parallel: 1 << 24, OutDir: t.TempDir()}).Execute(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--parallel") || !strings.Contains(err.Error(), "memory available") {
		t.Errorf("--parallel 2^24: %v", err)
	}
}

// TestHashBeyondMemory: a player spec with a hash the machine cannot hold is refused when it
// is read (the engine's settings table checks it), instead of a fatal out of memory at its
// first move.
func TestHashBeyondMemory(t *testing.T) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Skip("no /proc/meminfo")
	}
	var kb uint64
	for _, line := range strings.Split(string(b), "\n") {
		fmt.Sscanf(line, "MemAvailable: %d kB", &kb)
	}
	if kb<<10 >= engine.MaxHashMB<<20 {
		t.Skipf("%d MiB available: the largest hash fits", kb>>10)
	}
	_, err = ParsePlayerSpec(fmt.Sprintf("mcts:playouts=10,USI_Hash=%d", engine.MaxHashMB), PlayerSpec{})
	if err == nil || !strings.Contains(err.Error(), "USI_Hash") || !strings.Contains(err.Error(), "memory available") {
		t.Errorf("USI_Hash=%d: %v", engine.MaxHashMB, err)
	}
}
