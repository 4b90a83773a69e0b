package selfplay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/internal/bounded/boundedtest"
	"github.com/shogilab/shogilab/internal/recordtest"
	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// SplitMix64's first outputs for seed 1234567, as published on Rosetta Code
// ("Pseudo-random numbers/Splitmix64"): the generator adds the golden gamma
// to its state before each output, so output k is splitMix64(seed + k·gamma).
func TestSplitMix64Reference(t *testing.T) {
	want := []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821}
	state := uint64(1234567)
	for i, w := range want {
		if got := splitMix64(state); got != w {
			t.Errorf("output %d = %d, want %d", i, got, w)
		}
		state += 0x9e3779b97f4a7c15
	}
}

func TestGameSeedsDiffer(t *testing.T) {
	seen := map[uint64]string{}
	for base := uint64(0); base < 4; base++ {
		for id := range 1000 {
			s := GameSeed(base, id)
			if prev, dup := seen[s]; dup {
				t.Fatalf("GameSeed(%d, %d) = GameSeed of %s", base, id, prev)
			}
			seen[s] = fmt.Sprint(base, id)
		}
	}
}

func TestParsePlayerSpec(t *testing.T) {
	def := PlayerSpec{Limits: Limits{Nodes: 800}, Options: []Option{{"Threads", "1"}, {"Noise", "0.25"}, {"TemperaturePlies", "10"}}}
	s, err := ParsePlayerSpec("mcts:playouts=50,threads=2,cpuct=2.5,option.MateDepth=1,name=small", def)
	want := []Option{{"Threads", "2"}, {"Noise", "0.25"}, {"TemperaturePlies", "10"}, {"CPuct", "2.5"}, {"MateDepth", "1"}}
	if err != nil || s.Limits != (Limits{Nodes: 50}) || !reflect.DeepEqual(s.Options, want) || s.DisplayName() != "small" {
		t.Errorf("mcts spec: %+v, %v", s, err)
	}
	// The old match grammar still reads: shogilab is mcts, hash is USI_Hash.
	s, err = ParsePlayerSpec("shogilab:movetime=100ms,hash=16", PlayerSpec{})
	if err != nil || s.Kind != record.KindMCTS || s.Limits != (Limits{MoveTime: 100 * time.Millisecond}) || !reflect.DeepEqual(s.Options, []Option{{"USI_Hash", "16"}}) {
		t.Errorf("shogilab spec: %+v, %v", s, err)
	}
	s, err = ParsePlayerSpec("usi:/usr/games/fairy-stockfish -x,movetime=150,option.Skill Level=3", def)
	if err != nil || len(s.Argv) != 2 || s.Limits != (Limits{MoveTime: 150 * time.Millisecond}) ||
		len(s.Options) != 1 || s.Options[0] != (Option{"Skill Level", "3"}) || s.DisplayName() != "fairy-stockfish" {
		t.Errorf("usi spec: %+v, %v", s, err)
	}
	// A player without a limit of its own takes the command's.
	if s, err = ParsePlayerSpec("usi:fsf", def); err != nil || s.Limits != (Limits{Nodes: 800}) {
		t.Errorf("usi default limit: %+v, %v", s, err)
	}
	s, err = ParsePlayerSpec("usi:fsf,time=10s,inc=100,byoyomi=0", def)
	if err != nil || s.Limits != (Limits{Time: 10 * time.Second, Inc: 100 * time.Millisecond}) {
		t.Errorf("usi clock: %+v, %v", s, err)
	}
	for _, c := range []struct{ spec, want string }{
		{"alphazero", `kind "alphazero" is not random, mcts or usi`},
		{"usi", "usi needs the engine's command first"},
		{"usi:", "usi needs the engine's command first"},
		{"usi:movetime=3", "usi needs the engine's command first"},
		{"mcts:playouts", `"playouts" is not key=value`},
		{"mcts:playouts=x", `playouts="x" is not a valid value`},
		{"mcts:depth=5", "depth is for USI engines"},
		{"mcts:Ponder=true", `unknown key "Ponder" for mcts`},
		{"mcts:Seed=3", "Seed is set by the match"},
		{"mcts:noise=2", `engine: option Noise: "2" is not a number from 0 to 1`},
		{"mcts:movetime=100,time=1000", "movetime and a clock"},
		{"random:playouts=3", "random takes no limit"},
		{"usi:e,depth=-1", "a limit is negative"},
		{"usi:e,playouts=3", "playouts is for mcts"},
		{"usi:e,Threads=3", `unknown key "Threads" for usi`},
	} {
		t.Run(c.spec, func(t *testing.T) {
			_, err := ParsePlayerSpec(c.spec, def)
			if err == nil || !strings.HasPrefix(err.Error(), "selfplay: player ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParsePlayerSpec(%q): error %v, want one with %q", c.spec, err, c.want)
			}
		})
	}
	if _, err := ParsePlayerSpec("usi:e", PlayerSpec{}); err == nil || !strings.Contains(err.Error(), "usi needs a limit") {
		t.Errorf("usi without any limit: %v", err)
	}
}

// TestRecordConfig: a record's player config has the budget, the threads and
// when the player resigns (even at their defaults), and the settings that
// differ from the engine's defaults, under snake-case keys.
func TestRecordConfig(t *testing.T) {
	s, err := ParsePlayerSpec("mcts:playouts=400,Noise=0.25,TemperaturePlies=10,CPuct=1.8,MateDepth=1", PlayerSpec{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(s.Record())
	want := `{"name":"mcts","kind":"mcts","config":{"mate_depth":"1","noise":0.25,"playouts":400,"resign":"proven","temperature_plies":10,"threads":1}}`
	if string(got) != want {
		t.Errorf("record player\n%s\nwant\n%s", got, want)
	}
	s, _ = ParsePlayerSpec("mcts:playouts=400,resign=NEVER,threads=2", PlayerSpec{})
	got, _ = json.Marshal(s.Record())
	want = `{"name":"mcts","kind":"mcts","config":{"playouts":400,"resign":"never","threads":2}}`
	if string(got) != want {
		t.Errorf("record player\n%s\nwant\n%s", got, want)
	}
	s, _ = ParsePlayerSpec("usi:/usr/games/fairy-stockfish,byoyomi=1s,option.Threads=1", PlayerSpec{})
	got, _ = json.Marshal(s.Record())
	want = `{"name":"fairy-stockfish","kind":"usi","config":{"argv":["/usr/games/fairy-stockfish"],"byoyomi_ms":1000,"options":{"Threads":"1"}}}`
	if string(got) != want {
		t.Errorf("record player\n%s\nwant\n%s", got, want)
	}
}

func TestParseStart(t *testing.T) {
	o, err := ParseStart("bare-king")
	if err != nil || len(o) != 1 || o[0].SFEN != "4k/5/5/P4/KGSBR w - 1" || o[0].Name != "bare-king" {
		t.Errorf("bare-king: %+v, %v", o, err)
	}
	if _, err := ParseStart("queen-odds"); err == nil {
		t.Error("unknown start accepted")
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "open.txt")
	os.WriteFile(good, []byte("# two openings\nrbsgk/4p/5/P4/KGSBR b - 1\n\nsfen 4k/5/5/P4/KGSBR w - 1\n"), 0o644)
	o, err = ParseStart("@" + good)
	if err != nil || len(o) != 2 || o[0].Name != "opening:2" || o[1].Name != "opening:4" || o[1].SFEN != "4k/5/5/P4/KGSBR w - 1" {
		t.Errorf("openings file: %+v, %v", o, err)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("rbsgk/4p/5/P4/KGSBR b - 1\nrbsgk/4p/6/P4/KGSBR b - 1\n"), 0o644)
	if _, err := ParseStart("@" + bad); err == nil || !strings.Contains(err.Error(), "bad.txt:2") {
		t.Errorf("bad SFEN: error %v, want one naming bad.txt:2", err)
	}
	if _, err := ParseStart("@" + filepath.Join(dir, "missing.txt")); err == nil {
		t.Error("missing openings file accepted")
	}
}

// TestSameRecordsAnyParallelismOrSharding is the reproducibility check of
// the issue: one worker, two workers, and three shards merged give the same
// records apart from the timing fields.
func TestSameRecordsAnyParallelismOrSharding(t *testing.T) {
	const games = 7
	dir := t.TempDir()
	m := testMatch(t, "mcts")
	one := execute(t, &Run{Match: m, Games: games, Parallel: 1, OutDir: filepath.Join(dir, "one")})
	two := execute(t, &Run{Match: m, Games: games, Parallel: 2, OutDir: filepath.Join(dir, "two"), Format: JSONLGzip})
	var shards []string
	for i := range 3 {
		s := execute(t, &Run{Match: m, Games: games, Parallel: 2, Shard: shard.Shard{Index: i, Count: 3}, OutDir: filepath.Join(dir, "shards")})
		shards = append(shards, s.Path)
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if _, err := Merge(context.Background(), shards, merged, games); err != nil {
		t.Fatal(err)
	}
	want := recordtest.ReadSorted(t, one.Path)
	if len(want) != games || len(want[0].Stats) != want[0].Plies || want[0].Stats[0].Visits == 0 {
		t.Fatalf("reference run: %d games, first with %d stats for %d plies", len(want), len(want[0].Stats), want[0].Plies)
	}
	recordtest.Same(t, "2 workers (gzip)", recordtest.ReadSorted(t, two.Path), want)
	recordtest.Same(t, "3 shards merged", recordtest.ReadSorted(t, merged), want)
	schemaCheck(t, one.Path, merged)
	if _, err := Verify(context.Background(), []string{one.Path, two.Path, merged}, VerifyOptions{CheckSeeds: true, Seed: m.Seed}); err != nil {
		t.Fatal(err)
	}
}

// TestResume cuts a finished run's file as a SIGKILL would (whole records
// and half of the next) and checks that running again restores exactly the
// uninterrupted run's records.
func TestResume(t *testing.T) {
	const games = 8
	dir := t.TempDir()
	m := testMatch(t, "random")
	full := execute(t, &Run{Match: m, Games: games, Parallel: 1, OutDir: filepath.Join(dir, "full")})
	want := recordtest.ReadSorted(t, full.Path)
	data, err := os.ReadFile(full.Path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	cut := strings.Join(lines[:3], "") + lines[3][:len(lines[3])/2]
	r := &Run{Match: m, Games: games, Parallel: 2, OutDir: filepath.Join(dir, "killed")}
	os.MkdirAll(r.OutDir, 0o755)
	path := filepath.Join(r.OutDir, shard.Whole.FileName(string(JSONL)))
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := execute(t, r)
	if sum.Kept != 3 || sum.Played != games-3 {
		t.Errorf("resume kept %d and played %d, want 3 and %d", sum.Kept, sum.Played, games-3)
	}
	recordtest.Same(t, "resumed", recordtest.ReadSorted(t, path), want)
	// A further run finds nothing to do.
	if sum := execute(t, r); sum.Played != 0 || sum.Kept != games {
		t.Errorf("rerun of a finished run: %+v", sum)
	}
}

func TestResumeRefusesAnotherRun(t *testing.T) {
	dir := t.TempDir()
	m := testMatch(t, "random")
	execute(t, &Run{Match: m, Games: 3, OutDir: dir})
	m.Seed++
	_, err := (&Run{Match: m, Games: 3, OutDir: dir}).Execute(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not this run's") {
		t.Errorf("a run with another seed on the same directory: %v", err)
	}
	for _, f := range []Format{JSONLGzip, Parquet} {
		t.Run(string(f), func(t *testing.T) {
			_, err = (&Run{Match: m, Games: 3, OutDir: dir, Format: f}).Execute(context.Background())
			if err == nil || !strings.Contains(err.Error(), "made with --format jsonl;") {
				t.Errorf("a %s run over a plain one: %v", f, err)
			}
		})
	}
	// Same seed, other players, start or rules: another run's file too.
	m.Seed--
	other := m
	other.B, _ = ParsePlayerSpec("mcts:playouts=10", PlayerSpec{})
	for name, o := range map[string]Match{"player": other, "start": func() Match {
		o := m
		o.Openings, _ = ParseStart("bishop")
		return o
	}(), "rules": func() Match { o := m; o.Rules.MaxPlies++; return o }()} {
		_, err = (&Run{Match: o, Games: 3, OutDir: dir}).Execute(context.Background())
		if err == nil || !strings.Contains(err.Error(), "another run's") {
			t.Errorf("a run with another %s on the same directory: %v", name, err)
		}
	}
	if _, err := (&Run{Match: m, Games: 3, OutDir: dir}).Execute(context.Background()); err != nil {
		t.Errorf("the same run again: %v", err)
	}
	// Finished Parquet tables of another run are refused too.
	pq := t.TempDir()
	execute(t, &Run{Match: m, Games: 3, OutDir: pq, Format: Parquet})
	m.Seed++
	_, err = (&Run{Match: m, Games: 3, OutDir: pq, Format: Parquet}).Execute(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not one of this run's") {
		t.Errorf("a run with another seed over finished tables: %v", err)
	}
}

// TestParquetRun: a Parquet run writes the same games as a JSON Lines run,
// and after an interruption it resumes from its journal; the journal is
// gone once the tables are written, and a rerun plays nothing.
func TestParquetRun(t *testing.T) {
	const games = 6
	dir := t.TempDir()
	m := testMatch(t, "mcts")
	ref := execute(t, &Run{Match: m, Games: games, Parallel: 2, OutDir: filepath.Join(dir, "ref")})
	pq := &Run{Match: m, Games: games, Parallel: 2, OutDir: filepath.Join(dir, "pq"), Format: Parquet}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	pq.Progress = func(p Progress) {
		if n++; p.Done == 2 {
			cancel()
		}
	}
	if _, err := pq.Execute(ctx); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("interrupted Parquet run: %v", err)
	}
	journal := filepath.Join(pq.OutDir, "games-0-of-1.journal.jsonl")
	if fileExists(filepath.Join(pq.OutDir, "games-0-of-1.parquet")) || !fileExists(journal) {
		t.Fatal("an interrupted Parquet run left tables, or no journal")
	}
	pq.Progress = nil
	sum := execute(t, pq)
	if sum.Kept < 2 || sum.Kept+sum.Played != games || fileExists(journal) {
		t.Errorf("resumed: %+v; journal left: %v", sum, fileExists(journal))
	}
	recordtest.Same(t, "Parquet run", recordtest.ReadSorted(t, sum.Path), recordtest.ReadSorted(t, ref.Path))
	if again := execute(t, pq); again.Played != 0 || again.Kept != games {
		t.Errorf("rerun of a finished Parquet run: %+v", again)
	}
	if _, err := Verify(context.Background(), []string{sum.Path}, VerifyOptions{CheckSeeds: true, Seed: m.Seed}); err != nil {
		t.Error(err)
	}
}

// TestGoParams: the side to move gets its own per-move limits and both
// clocks, Sente's as btime.
func TestGoParams(t *testing.T) {
	specs := [2]PlayerSpec{{Limits: Limits{Time: time.Second, Inc: 10 * time.Millisecond, Byoyomi: 5 * time.Millisecond}},
		{Limits: Limits{Time: 2 * time.Second, Inc: 20 * time.Millisecond, Nodes: 99}}}
	clocks := [2]time.Duration{700 * time.Millisecond, 1500 * time.Millisecond}
	got := goParams(specs, clocks, minishogi.Gote)
	want := usi.GoParams{Nodes: 99, BTime: 700 * time.Millisecond, WTime: 1500 * time.Millisecond, BInc: 10 * time.Millisecond, WInc: 20 * time.Millisecond}
	if got != want {
		t.Errorf("gote's go %+v, want %+v", got, want)
	}
	if got := goParams(specs, clocks, minishogi.Sente); got.Byoyomi != 5*time.Millisecond || got.Nodes != 0 {
		t.Errorf("sente's go %+v", got)
	}
	specs[0].Limits = Limits{MoveTime: 50 * time.Millisecond}
	if got := goParams(specs, clocks, minishogi.Sente); got != (usi.GoParams{MoveTime: 50 * time.Millisecond}) {
		t.Errorf("a movetime player's go %+v", got)
	}
}

// TestInterrupt cancels a run after its second game: Execute reports the
// interruption, the file holds only whole records, and a rerun completes
// the uninterrupted run's records.
func TestInterrupt(t *testing.T) {
	const games = 6
	dir := t.TempDir()
	m := testMatch(t, "mcts")
	want := recordtest.ReadSorted(t, execute(t, &Run{Match: m, Games: games, OutDir: filepath.Join(dir, "full")}).Path)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &Run{Match: m, Games: games, Parallel: 2, OutDir: filepath.Join(dir, "cut")}
	r.Progress = func(p Progress) {
		if p.Done >= 2 {
			cancel()
		}
	}
	sum, err := r.Execute(ctx)
	if !errors.Is(err, ErrInterrupted) || !sum.Interrupted {
		t.Fatalf("cancelled run: %+v, %v", sum, err)
	}
	got, end, err := record.Recover(sum.Path)
	if st, _ := os.Stat(sum.Path); err != nil || end != st.Size() || len(got) < 2 || len(got) >= games {
		t.Fatalf("after the interrupt: %d games, end %d, err %v", len(got), end, err)
	}
	r.Progress = nil
	execute(t, r)
	recordtest.Same(t, "interrupted then resumed", recordtest.ReadSorted(t, sum.Path), want)
}

func TestMergeFailsLoudly(t *testing.T) {
	dir := t.TempDir()
	m := testMatch(t, "random")
	a := execute(t, &Run{Match: m, Games: 6, Shard: shard.Shard{Index: 0, Count: 2}, OutDir: dir}).Path
	b := execute(t, &Run{Match: m, Games: 6, Shard: shard.Shard{Index: 1, Count: 2}, OutDir: dir}).Path
	out := filepath.Join(dir, "all.jsonl")
	if _, err := Merge(context.Background(), []string{a}, out, 6); err == nil || !strings.Contains(err.Error(), "3 of 6 games missing, ids 3, 4, 5") {
		t.Errorf("missing shard: %v", err)
	}
	if _, err := Merge(context.Background(), []string{a, b, a}, out, 6); err == nil || !strings.Contains(err.Error(), "game 0 is also in") {
		t.Errorf("duplicate shard: %v", err)
	}
	if _, err := Merge(context.Background(), []string{a, b}, filepath.Join(dir, "all.parquet"), 6); err == nil || !strings.Contains(err.Error(), "export --format parquet") {
		t.Errorf("merge into a .parquet name: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed merge wrote its output")
	}
	if sum, err := Merge(context.Background(), []string{b, a}, out, 0); err != nil || sum.Games != 6 {
		t.Errorf("good merge: %+v, %v", sum, err)
	}
	got := recordtest.ReadSorted(t, out)
	for i, g := range got {
		if g.ID != i {
			t.Fatalf("merged game %d has id %d", i, g.ID)
		}
	}
}

// TestMergeMissingBounded: the ids a merge lacks are counted, and the first ten named, in
// memory that goes with the games present, not with the id range: a run of a billion games
// with three, and one game with id a billion (issue 33: killed by the kernel at 24 GB). Each
// ends in one error line having allocated at most 16 MiB.
func TestMergeMissingBounded(t *testing.T) {
	dir := t.TempDir()
	a := execute(t, &Run{Match: testMatch(t, "random"), Games: 6, Shard: shard.Shard{Index: 0, Count: 2}, OutDir: dir}).Path // ids 0, 1, 2
	far := filepath.Join(dir, "far.jsonl")
	g := recordtest.ReadSorted(t, a)[0]
	g.ID = 1e9
	f, err := os.Create(far)
	if err != nil {
		t.Fatal(err)
	}
	w := record.NewWriter(f)
	if err := w.Write(g); err != nil {
		t.Fatal(err)
	}
	w.Close()
	f.Close()
	out := filepath.Join(dir, "all.jsonl")
	for _, c := range []struct {
		name  string
		files []string
		games int
		want  string
	}{
		{"a billion asked for", []string{a}, 1e9, "999999997 of 1000000000 games missing, ids 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ..."},
		{"id a billion", []string{far}, 0, "1000000000 of 1000000001 games missing, ids 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ..."},
		{"id a billion after three", []string{a, far}, 0, "999999997 of 1000000001 games missing, ids 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ..."},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			boundedtest.Within(t, "Merge", 16<<20, func() { _, err = Merge(context.Background(), c.files, out, c.games) })
			if err == nil || err.Error() != "selfplay: merge: "+c.want {
				t.Errorf("%v; want %q", err, c.want)
			}
		})
	}
}

// bareKingMate is Fairy-Stockfish's mate in 8 plies from the bare-king
// handicap (docs/rules.md#bare-king).
func bareKingMate() *record.Game {
	return &record.Game{
		ID: 0, Seed: 1, Variant: "minishogi", Start: "4k/5/5/P4/KGSBR w - 1", StartName: "bare-king",
		Moves:  []string{"1a2a", "4e4d", "2a2b", "2e5b", "2b2a", "4d3c", "2a3a", "1e1a"},
		Result: record.Sente, Termination: record.Checkmate, Plies: 8,
		Players: record.Players{Sente: record.Player{Name: "a", Kind: record.KindUSI}, Gote: record.Player{Name: "b", Kind: record.KindUSI}},
		Rules:   record.Rules{Repetition: record.RepetitionFirstMoverLoses, MaxPlies: 100}, Version: "test",
	}
}

func TestVerifyGame(t *testing.T) {
	if err := VerifyGame(bareKingMate()); err != nil {
		t.Fatalf("the bare-king mate: %v", err)
	}
	tests := []struct {
		name string
		edit func(g *record.Game)
		want string
	}{
		{"illegal move", func(g *record.Game) { g.Moves[3] = "2e2a" }, "move 4 2e2a"},
		{"move after the mate", func(g *record.Game) { g.Moves = append(g.Moves, "3a4b"); g.Plies++ }, "after the game ended"},
		{"not over yet", func(g *record.Game) { g.Moves = g.Moves[:7]; g.Plies = 7 }, "not over after its 7 moves"},
		{"wrong termination", func(g *record.Game) { g.Termination = record.Stalemate }, "record says stalemate"},
		// After 7 plies from a Gote-first start Sente is to move: Gote cannot have resigned.
		{"resignation by the side not to move", func(g *record.Game) {
			g.Moves, g.Plies, g.Termination, g.Result = g.Moves[:7], 7, record.Resignation, record.Sente
		}, "the side to move"},
		{"play limit before the end", func(g *record.Game) { g.Rules.MaxPlies = 6 }, "after the game ended by max_plies"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := bareKingMate()
			tc.edit(g)
			if err := VerifyGame(g); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
			}
		})
	}
	// Resigning on one's own move is fine.
	g := bareKingMate()
	g.Moves, g.Plies, g.Termination, g.Result = g.Moves[:7], 7, record.Resignation, record.Gote
	if err := VerifyGame(g); err != nil {
		t.Errorf("Sente resigning on its move: %v", err)
	}
}

func TestVerifyNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.jsonl")
	w, _ := record.Create(path)
	for id := range 3 {
		g := bareKingMate()
		g.ID = id
		if id == 2 {
			g.Moves[0] = "1a1b" // legal, but then Sente's 4e4d ... 1e1a no longer mates
		}
		w.Write(g)
	}
	w.Close()
	_, err := Verify(context.Background(), []string{path}, VerifyOptions{})
	var le *record.LineError
	if !errors.As(err, &le) || le.File != path || le.Line != 3 {
		t.Errorf("error %v, want one at %s line 3", err, path)
	}
}

// scriptEngine writes a fake USI engine: a shell script that handshakes and
// then does what onGo says when asked to search.
func scriptEngine(t *testing.T, onGo string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "engine.sh")
	script := `#!/bin/sh
while read -r cmd rest; do
  case "$cmd" in
    usi) echo "id name fake"; echo "usiok" ;;
    isready) echo "readyok" ;;
    go) ` + onGo + ` ;;
    quit) exit 0 ;;
  esac
done
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEngineFailuresAreRecorded plays a random Sente against engines that
// die, answer an illegal move or resign: each game is recorded with the
// matching termination, Gote losing, and the run goes on to the end.
func TestEngineFailuresAreRecorded(t *testing.T) {
	tests := []struct {
		onGo string
		want record.Termination
	}{
		{"exit 3", record.EngineError},
		{`echo "bestmove 9a9b"`, record.IllegalMove},
		{`echo "bestmove resign"`, record.Resignation},
	}
	for _, tc := range tests {
		t.Run(tc.onGo, func(t *testing.T) {
			m := testMatch(t, "random")
			gote, err := ParsePlayerSpec("usi:"+scriptEngine(t, tc.onGo)+",nodes=1", PlayerSpec{})
			if err != nil {
				t.Fatal(err)
			}
			m.B = gote
			sum := execute(t, &Run{Match: m, Games: 3, Parallel: 2, OutDir: t.TempDir()})
			games := recordtest.ReadSorted(t, sum.Path)
			if len(games) != 3 {
				t.Fatalf("%s: %d games recorded, want 3", tc.want, len(games))
			}
			for _, g := range games {
				if g.Termination != tc.want || g.Result != record.Sente || g.Plies != 1 {
					t.Errorf("%s: game %d ended %s %s after %d plies", tc.want, g.ID, g.Termination, g.Result, g.Plies)
				}
			}
			if _, err := Verify(context.Background(), []string{sum.Path}, VerifyOptions{}); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestCheckEngine(t *testing.T) {
	spec, _ := ParsePlayerSpec("usi:/nonexistent/engine,nodes=1", PlayerSpec{})
	if err := spec.CheckEngine(context.Background()); err == nil || !strings.Contains(err.Error(), "/nonexistent/engine") {
		t.Errorf("missing engine: %v", err)
	}
	spec, _ = ParsePlayerSpec("usi:"+scriptEngine(t, "exit 1")+",nodes=1", PlayerSpec{})
	if err := spec.CheckEngine(context.Background()); err != nil {
		t.Errorf("a working handshake: %v", err)
	}
}

func TestHandicapStart(t *testing.T) {
	m := testMatch(t, "random")
	m.Openings, _ = ParseStart("bare-king")
	sum := execute(t, &Run{Match: m, Games: 4, OutDir: t.TempDir()})
	for _, g := range recordtest.ReadSorted(t, sum.Path) {
		if g.Start != "4k/5/5/P4/KGSBR w - 1" || g.StartName != "bare-king" {
			t.Errorf("game %d starts from %s (%s)", g.ID, g.Start, g.StartName)
		}
		pos, _ := minishogi.ParseSFEN(g.Start)
		if _, err := pos.ParseMove(g.Moves[0]); err != nil {
			t.Errorf("game %d: first move %s is not Gote's: %v", g.ID, g.Moves[0], err)
		}
	}
	schemaCheck(t, sum.Path)
}

// TestGenerateOpenings with a judge that scores every position 50
// centipawns: within a margin of 100 every walk is kept, and each opening is
// the position its walk reaches from the start; within 10 none is, and the
// search gives up. The same seed gives the same openings, a smaller count a
// prefix.
func TestGenerateOpenings(t *testing.T) {
	judge, err := ParsePlayerSpec("usi:"+scriptEngine(t, `echo "info depth 1 score cp 50 pv 1a1b"; echo "bestmove 1a1b"`)+",depth=1", PlayerSpec{})
	if err != nil {
		t.Fatal(err)
	}
	search := OpeningSearch{Count: 6, MinPlies: 2, MaxPlies: 5, Judge: judge, Margin: 100, Seed: 3}
	got, err := GenerateOpenings(context.Background(), search)
	if err != nil || len(got) != 6 {
		t.Fatalf("%d openings, %v", len(got), err)
	}
	seen := map[string]bool{}
	for _, o := range got {
		g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})
		for _, m := range o.Moves {
			if err := g.PlayUSI(m); err != nil {
				t.Fatalf("%v: %v", o.Moves, err)
			}
		}
		if pos := g.Position(); pos.SFEN() != o.SFEN || len(o.Moves) < 2 || len(o.Moves) > 5 || o.ScoreCP != 50 {
			t.Errorf("opening %+v; the walk reaches %s", o, pos.SFEN())
		}
		key := positionKey(g.Position())
		if seen[key] {
			t.Errorf("%s twice", o.SFEN)
		}
		seen[key] = true
	}
	search.Count = 4
	if prefix, err := GenerateOpenings(context.Background(), search); err != nil || !reflect.DeepEqual(prefix, got[:4]) {
		t.Errorf("count 4: %v, %v; want the first 4 of %v", prefix, err, got)
	}
	// The file round-trips through ReadOpenings.
	path := filepath.Join(t.TempDir(), "openings.sfen")
	f, _ := os.Create(path)
	if err := WriteOpenings(f, []string{"made by a test"}, got); err != nil {
		t.Fatal(err)
	}
	f.Close()
	read, err := ReadOpenings(path)
	if err != nil || len(read) != len(got) || read[0].SFEN != got[0].SFEN || read[0].Name != "opening:2" {
		t.Errorf("read back %+v, %v", read, err)
	}
	search.Margin, search.MaxWalks = 10, 20
	if kept, err := GenerateOpenings(context.Background(), search); err == nil || len(kept) != 0 || !strings.Contains(err.Error(), "20 walks kept only 0 of 4") {
		t.Errorf("nothing within the margin: %d kept, %v", len(kept), err)
	}
	search.Judge.Limits = Limits{MoveTime: time.Second}
	if _, err := GenerateOpenings(context.Background(), search); err == nil || !strings.Contains(err.Error(), "depth or node limit") {
		t.Errorf("a timed judge: %v", err)
	}
}
