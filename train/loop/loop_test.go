package loop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shogilab/shogilab/internal/filelock"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/selfplay"
	"github.com/shogilab/shogilab/train/data"
	"github.com/shogilab/shogilab/train/netfit"
)

// nets are two tiny networks (8×4) for the tests: good, fitted to the shipped sample of
// Fairy-Stockfish's games (datasets/README.md), and bad, the same with the sign of its
// output turned, so that it prefers the positions good judges lost. An engine steered by
// bad plays for its own loss, so it loses to good: a worse candidate the gate must reject.
var nets = sync.OnceValues(func() ([2][]byte, error) {
	var out [2][]byte
	set, err := data.Load([]string{filepath.Join("..", "..", "datasets", "evaluation", "fsf5000-sample.jsonl.gz")}, data.Options{HeldOut: 0.1})
	if err != nil {
		return out, err
	}
	o := netfit.DefaultOptions()
	o.Hidden1, o.Hidden2, o.Epochs, o.Threads, o.LearningRate = 8, 4, 4, 1, 3e-3
	m, _, err := netfit.Fit(netfit.Samples(set.Train, 0.5), netfit.Samples(set.Held, 0.5), o)
	if err != nil {
		return out, err
	}
	for i, sign := range []float32{1, -1} {
		k := *m
		k.W3 = append([]float32(nil), m.W3...)
		for j := range k.W3 {
			k.W3[j] *= sign
		}
		k.B3 *= sign
		n, err := nnue.Quantise(&k, nnue.Header{Data: "loop test"})
		if err != nil {
			return out, err
		}
		if out[i], err = n.MarshalBinary(); err != nil {
			return out, err
		}
	}
	return out, nil
})

// testLadder is a ladder of two anchors whose ratings are set by hand, not fitted: the
// hand-set evaluation at 16 playouts (0) and the uniformly random mover (-600), with a
// draw parameter, so that a game drawn at the play limit is counted.
const testLadder = `{"zero":"hand-16","draw_parameter":0.5,"anchors":[
{"name":"hand-16","spec":"mcts:EvalFile=handset,playouts=16,Threads=1","elo":0},
{"name":"random","spec":"random","elo":-600}]}`

// tinyConfig is a loop of a few short games in dir, starting from the network bytes, or
// from the hand-set evaluation when initial is nil; every network is rated by 2 games
// against each anchor of testLadder. Self-play has a Gumbel root of 4 moves and the
// playout cap (full searches of 24 playouts with probability 0.5, else 6).
func tinyConfig(t *testing.T, dir string, initial []byte) Config {
	t.Helper()
	openings, err := selfplay.ReadOpenings(filepath.Join("..", "..", "datasets", "openings", "balanced.sfen"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig()
	c.Initial = "handset"
	if initial != nil {
		c.Initial = filepath.Join(dir, "initial.nnue")
		if err := os.WriteFile(c.Initial, initial, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c.Rate.Ladder = filepath.Join(dir, "ladder.json")
	if err := os.WriteFile(c.Rate.Ladder, []byte(testLadder), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Rate.Anchors, c.Rate.Games, c.Rate.Playouts = []string{"hand-16", "random"}, 2, 16
	c.Dir, c.Generations, c.Openings, c.OpeningsName = dir, 2, openings, "balanced.sfen"
	c.Net = NetSizes{Hidden1: 8, Hidden2: 4, Policy: 4}
	c.SelfPlay = SelfPlay{Games: 4, Playouts: 24, GumbelMoves: 4, CapFast: 6, CapProb: 0.5}
	c.MaxPlies, c.WindowPositions = 60, 1000
	c.Fit.Epochs, c.Fit.Threads, c.Fit.HeldOut, c.Fit.LearningRate = 2, 1, 0.25, 3e-3
	c.Version = "loop-test"
	return c
}

// TestLoopGate runs two generations with a gate from the bad network whose candidates are
// replaced after the fit: by the good network in generation 1 (it must be promoted: it
// beats the bad one) and by the bad one in generation 2 (rejected against the good one,
// now the best). A gate of 8 games decides only a test this wide: the planted good network
// wins 8-0 and must be accepted (H1), since an undecided gate promotes nothing.
func TestLoopGate(t *testing.T) {
	n, err := nets()
	if err != nil {
		t.Fatal(err)
	}
	good, bad := n[0], n[1]
	c := tinyConfig(t, filepath.Join(t.TempDir(), "run"), bad)
	c.GatePlayouts, c.GateGames, c.Rate.Playouts = 60, 8, 60
	c.SPRT = sprt.Test{Elo0: 0, Elo1: 400, Alpha: 0.1, Beta: 0.1, Model: sprt.Logistic}
	c.Hook = func(g int, step string) error {
		if step != StepFit {
			return nil
		}
		planted := map[int][]byte{1: good, 2: bad}[g]
		return os.WriteFile(c.network(genDir(g)), planted, 0o644)
	}
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	gens, err := ReadLog(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(gens) != 3 {
		t.Fatalf("loop.jsonl has %d lines, want 3 (generations 0 to 2)", len(gens))
	}
	for _, g := range gens[1:] {
		t.Logf("generation %d: gate %+v, %s", g.N, *g.Gate, g.Result)
		if g.Games != 4 || g.Positions < 4 || g.TrainExamples == 0 || g.Gate == nil || g.Gate.Games < 2 || g.Rating == nil || g.Rating.Games != 4 {
			t.Errorf("generation %d: %+v", g.N, g)
		}
	}
	if g := gens[1]; g.Result != "promoted" || g.Best != "initial" || g.After != "gen-001" {
		t.Errorf("generation 1 (good against bad): %s, best %s, then %s; want promoted, initial, gen-001", g.Result, g.Best, g.After)
	}
	if g := gens[2]; g.Result != "rejected" || g.Best != "gen-001" || g.After != "gen-001" {
		t.Errorf("generation 2 (bad against good): %s, best %s, then %s; want rejected, gen-001, gen-001", g.Result, g.Best, g.After)
	}
	if b, err := os.ReadFile(filepath.Join(c.Dir, "best.nnue")); err != nil || !bytes.Equal(b, good) {
		t.Errorf("best.nnue is not the promoted network (%v)", err)
	}
	// A planted better network is rated above a planted worse one: generation 1's
	// candidate is the good network, 2's and the initial one the bad. Compared by the
	// points against the same anchors in as many games (the order of the ratings), since a
	// perfect score's rating is infinite, which the log writes as null.
	points := func(r *LadderRating) float64 {
		var p float64
		for _, x := range r.Results {
			p += float64(x.Wins) + float64(x.Draws)/2
		}
		return p
	}
	if r0, r1, r2 := gens[0].Rating, gens[1].Rating, gens[2].Rating; !(points(r1) > points(r0) && points(r1) > points(r2)) {
		t.Errorf("ladder points: bad %v (Elo %v), good %v (%v), bad %v (%v); want the good one above both",
			points(r0), r0.Elo, points(r1), r1.Elo, points(r2), r2.Elo)
	}
	for _, f := range []string{"provenance.json", "gen-001/records/games-0-of-1.jsonl", "gen-001/gate/games-0-of-1.jsonl",
		"gen-002/fit.json", "gen-002/gate.json", "gen-002/rate.json", "gen-002/times.json", "gen-002/rate/gen-002-vs-random/games-0-of-1.jsonl"} {
		if _, err := os.Stat(filepath.Join(c.Dir, f)); err != nil {
			t.Errorf("run directory: %v", err)
		}
	}
	// A resume with another setting is refused, naming it.
	c.SelfPlay.Games = 6
	if err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), `selfplay was`) {
		t.Errorf("resume with other games: %v", err)
	}
}

// TestMiniLoop is the loop end to end at the smallest scale, from zero (the hand-set
// evaluation and priors, a network of 8×4 with a policy head of 4 fitted from random
// weights), with a Gumbel root and the playout cap: two generations. The self-play's
// targets are the full searches alone, so fewer than the positions (a cap of 0.5 leaves
// about half), and the fits train the policy head on them.
//
// Then resumes: a run killed after each step of each generation in turn (by the step
// hook), and in the middle of a self-play and of a fit (its context cancelled), and run
// again until it finishes writes the same loop.jsonl, byte for byte, as the run that was
// not interrupted.
func TestMiniLoop(t *testing.T) {
	whole := tinyConfig(t, filepath.Join(t.TempDir(), "whole"), nil)
	var steps [][2]any
	whole.Hook = func(g int, step string) error { steps = append(steps, [2]any{g, step}); return nil }
	if err := Run(context.Background(), whole); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(whole.Dir, "loop.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("uninterrupted:\n%s", want)
	gens, err := ReadLog(whole.Dir)
	if err != nil {
		t.Fatal(err)
	}
	wantSteps := "[[0 rate] [0 log] [1 selfplay] [1 fit] [1 rate] [1 log] [2 selfplay] [2 fit] [2 rate] [2 log]]"
	if got := fmt.Sprint(steps); got != wantSteps {
		t.Errorf("steps %s, want %s", got, wantSteps)
	}
	for _, g := range gens[1:] {
		if !(g.Targets > 0 && g.Targets < g.Positions-g.Games) || g.PolicyExamples == 0 || g.Result != "promoted" || g.Rating == nil {
			t.Errorf("generation %d: %d targets of %d positions (%d games), %d policy examples, %s", g.N, g.Targets, g.Positions, g.Games, g.PolicyExamples, g.Result)
		}
		net, err := nnue.ReadFile(filepath.Join(whole.Dir, genDir(g.N), "candidate.nnue"))
		if err != nil || net.PolicySize() != 4 {
			t.Errorf("generation %d's network: %v", g.N, err)
		}
	}
	// The window of 1,000 positions holds both generations' games at generation 2; a fit
	// reads the positions a move was played from, one fewer a game than the positions
	// counted with the last.
	if g := gens[2]; g.WindowGames != 8 || g.WindowPositions != gens[1].Positions-4+g.Positions-4 {
		t.Errorf("generation 2's window: %d games, %d positions, want 8, %d - 4 + %d - 4", g.WindowGames, g.WindowPositions, gens[1].Positions, g.Positions)
	}
	times, err := ReadTimes(whole.Dir, 1)
	if err != nil || times[StepSelfplay].CPU <= 0 || times[StepFit].Wall <= 0 {
		t.Errorf("generation 1's times %+v (%v)", times, err)
	}
	if testing.Short() {
		return
	}

	c := tinyConfig(t, filepath.Join(t.TempDir(), "killed"), nil)
	errHook := errors.New("killed by the hook")
	type kill struct {
		step  string
		gen   int
		done  int  // cancel when the step reports this far (by Progress)
		after bool // stop by the hook after the step instead
	}
	// In the order of the steps, each killed after it ends, and generation 1's self-play
	// and generation 2's fit killed first in their middle.
	var kills []kill
	for _, s := range steps {
		g, name := s[0].(int), s[1].(string)
		if (g == 1 && name == StepSelfplay) || (g == 2 && name == StepFit) {
			kills = append(kills, kill{step: name, gen: g, done: 1})
		}
		kills = append(kills, kill{step: name, gen: g, after: true})
	}
	for _, k := range kills {
		ctx, cancel := context.WithCancel(context.Background())
		c.Hook = func(g int, step string) error {
			if k.after && g == k.gen && step == k.step {
				return errHook
			}
			return nil
		}
		c.Progress = func(step string, done, _ int) {
			if !k.after && step == k.step && done >= k.done {
				cancel()
			}
		}
		err := Run(ctx, c)
		cancel()
		if err == nil {
			t.Fatalf("kill %+v: the run finished", k)
		}
		if _, err := os.Stat(c.path(genDir(k.gen), k.step+".json")); !k.after && err == nil {
			t.Fatalf("kill %+v: the step finished before its context was cancelled", k)
		}
	}
	c.Hook, c.Progress = nil, nil
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(c.Dir, "loop.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("resumed run's loop.jsonl:\n%s\nwant (uninterrupted):\n%s", got, want)
	}
	// The steps stopped in their middle count that attempt's time (one stopped attempt
	// each); those stopped by the hook had finished, and the others were never stopped.
	for _, k := range []struct {
		gen     int
		step    string
		stopped int
	}{{1, StepSelfplay, 1}, {1, StepFit, 0}, {2, StepSelfplay, 0}, {2, StepFit, 1}} {
		times, err := ReadTimes(c.Dir, k.gen)
		if st := times[k.step]; err != nil || st.Stopped != k.stopped || st.CPU <= 0 {
			t.Errorf("generation %d's %s: times %+v (%v); want %d stopped attempts and their CPU counted", k.gen, k.step, st, err, k.stopped)
		}
	}
	// The networks are the same too, but for the header's digest of the records (whose
	// timing fields differ): the weights are compared.
	for _, g := range []string{"gen-001", "gen-002"} {
		a, err1 := nnue.ReadFile(filepath.Join(whole.Dir, g, "candidate.nnue"))
		b, err2 := nnue.ReadFile(filepath.Join(c.Dir, g, "candidate.nnue"))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		ma, mb := a.Model(), b.Model()
		if !equal32(ma.W1, mb.W1) || !equal32(ma.W2, mb.W2) || ma.B3 != mb.B3 {
			t.Errorf("%s: the resumed run's candidate differs", g)
		}
	}
}

func equal32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fakeSbatch stands in for Slurm's sbatch --wait --array=LO-HI --output=LOG SCRIPT: it
// runs the script once per array task, one after another, with the variables Slurm sets
// (sbatch(1), "OUTPUT ENVIRONMENT VARIABLES"), its output in LOG with %A the job (1) and %a
// the task.
const fakeSbatch = `#!/bin/sh
for a; do case $a in --array=*) r=${a#--array=};; --output=*) o=${a#--output=};; esac; script=$a; done
lo=${r%-*}; hi=${r#*-}; i=$lo
while [ $i -le $hi ]; do
	log=$(printf '%s' "$o" | sed "s/%A/1/; s/%a/$i/")
	SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$((hi-lo+1)) SLURM_ARRAY_TASK_MIN=$lo SLURM_ARRAY_TASK_MAX=$hi bash "$script" >"$log" 2>&1 || exit 1
	i=$((i+1))
done
`

// TestLoopSlurm plays the self-play as a job array of two shards (the selfplay command,
// submitted to a stand-in for sbatch) and gets the loop.jsonl of the run on this machine:
// a game's record depends on the run's settings and its id only (package selfplay). The
// run directory's name has a space, which the job script and its log must carry.
func TestLoopSlurm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/selfplay")
	}
	n, err := nets()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "selfplay")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/shogilab/shogilab/cmd/selfplay").CombinedOutput(); err != nil {
		t.Fatalf("go build cmd/selfplay: %v: %s", err, out)
	}
	sbatch := filepath.Join(tmp, "sbatch")
	if err := os.WriteFile(sbatch, []byte(fakeSbatch), 0o755); err != nil {
		t.Fatal(err)
	}
	var logs [2][]byte
	for i, slurm := range []*Slurm{nil, {Selfplay: bin, Shards: 2, Sbatch: sbatch}} {
		c := tinyConfig(t, filepath.Join(tmp, fmt.Sprint("run ", i)), n[0])
		c.Generations, c.Slurm = 1, slurm
		c.OpeningsName, _ = filepath.Abs(filepath.Join("..", "..", "datasets", "openings", "balanced.sfen"))
		if err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		if logs[i], err = os.ReadFile(filepath.Join(c.Dir, "loop.jsonl")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(logs[0], logs[1]) {
		t.Errorf("loop.jsonl with Slurm:\n%s\nwithout:\n%s", logs[1], logs[0])
	}
	for _, f := range []string{"gen-001/selfplay.sbatch", "gen-001/records/games-0-of-2.jsonl", "gen-001/records/games-1-of-2.jsonl", "gen-001/slurm-1_1.log"} {
		if _, err := os.Stat(filepath.Join(tmp, "run 1", f)); err != nil {
			t.Error(err)
		}
	}
	// Each task logged its cost (2 of the 4 games each), and the step counts their sum
	// beside what this process spent.
	var sum float64
	for i := range 2 {
		lines, err := selfplay.ReadCPULog(filepath.Join(tmp, "run 1", "gen-001", "records", fmt.Sprintf("cpu-%d.jsonl", i)))
		if err != nil || len(lines) != 1 || lines[0].Played != 2 || lines[0].Shard != fmt.Sprintf("%d/2", i) || lines[0].CPU <= 0 {
			t.Fatalf("task %d's CPU log: %+v, %v; want one line of 2 games of shard %d/2", i, lines, err, i)
		}
		sum += lines[0].CPU
	}
	times, err := ReadTimes(filepath.Join(tmp, "run 1"), 1)
	if st := times[StepSelfplay]; err != nil || st.ArrayCPU != sum || st.CPU < sum {
		t.Errorf("self-play times %+v (%v); want the tasks' %.3f CPU-s counted", st, err, sum)
	}
}

// TestArrayCPU: the CPU logs of a job array's tasks are summed over every attempt (the
// hand-written logs: task 0 preempted once, 100.5 + 20 s; task 1, 0.25 s), and only
// files named as the tasks' logs count.
func TestArrayCPU(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"cpu-0.jsonl": `{"shard":"0/2","played":5,"wall_seconds":101,"cpu_seconds":100.5}` + "\n" + `{"shard":"0/2","played":1,"wall_seconds":21,"cpu_seconds":20}` + "\n",
		"cpu-1.jsonl": `{"shard":"1/2","played":6,"wall_seconds":1,"cpu_seconds":0.25}` + "\n",
		"notes.jsonl": `{"cpu_seconds":1000,"wall_seconds":1}` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := arrayCPU(dir); err != nil || got != 120.75 {
		t.Errorf("arrayCPU = %v, %v; want 120.75", got, err)
	}
	os.WriteFile(filepath.Join(dir, "cpu-2.jsonl"), []byte(`{"shard":"2/3","cpu_sec`), 0o644)
	if _, err := arrayCPU(dir); err == nil || !strings.Contains(err.Error(), "cpu-2.jsonl: line 1") {
		t.Errorf("a cut log: %v; want an error naming cpu-2.jsonl, line 1", err)
	}
}

// TestSlurmRefusesLineBreaks: a run directory whose name holds a line break would end the
// job script's comment and directives; the loop refuses it before writing the script or
// calling sbatch.
func TestSlurmRefusesLineBreaks(t *testing.T) {
	tmp := t.TempDir()
	called := filepath.Join(tmp, "called")
	sbatch := filepath.Join(tmp, "sbatch")
	os.WriteFile(sbatch, []byte("#!/bin/sh\ntouch '"+called+"'\n"), 0o755)
	dir := filepath.Join(tmp, "run\n#SBATCH --partition=other")
	out := filepath.Join(dir, "gen-001", "records")
	os.MkdirAll(out, 0o755)
	c := Config{Dir: dir, SelfPlay: SelfPlay{Games: 2}, OpeningsName: "/x/openings.sfen"}
	s := &Slurm{Selfplay: "/bin/selfplay", Shards: 2, Sbatch: sbatch}
	_, err := s.run(context.Background(), &c, 1, "mcts:playouts=8", out)
	if err == nil || !strings.Contains(err.Error(), "control character") || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("a run directory with a line break: %v", err)
	}
	if _, err := os.Stat(called); err == nil {
		t.Error("sbatch was called")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(out), "selfplay.sbatch")); err == nil {
		t.Error("the script was written")
	}
}

// TestSecondLoopRefused: a second train loop on a run directory another holds refuses at
// once in one line naming the holder, writing nothing (two loops appended each other's
// generations to loop.jsonl); the lock of a run that ended is gone.
func TestSecondLoopRefused(t *testing.T) {
	n, err := nets()
	if err != nil {
		t.Fatal(err)
	}
	c := tinyConfig(t, t.TempDir(), n[0])
	held, err := filelock.Acquire(filepath.Join(c.Dir, ".lock"))
	if err != nil {
		t.Fatal(err)
	}
	err = Run(context.Background(), c)
	if err == nil || !strings.Contains(err.Error(), "another train loop") || !strings.Contains(err.Error(), fmt.Sprintf("process %d", os.Getpid())) {
		t.Errorf("a second loop on the run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "loop.jsonl")); err == nil {
		t.Error("the refused loop wrote loop.jsonl")
	}
	held.Release()
	c.Generations = 0 // generation 0 alone: the initial network's rating
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, ".lock")); !os.IsNotExist(err) {
		t.Errorf("the run's lock file is left after it ended (%v)", err)
	}
}

// TestWindowGrows resumes a run with a larger replay window: the fits not yet made see it,
// the provenance keeps the schedule (the first window from generation 1, the larger one
// from the first generation not yet fitted, each with its command), and a smaller window
// is refused as another configuration.
func TestWindowGrows(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two generations")
	}
	c := tinyConfig(t, filepath.Join(t.TempDir(), "run"), nil)
	// A window of one position holds only the newest generation's games.
	c.Generations, c.WindowPositions, c.Command = 1, 1, "train loop -window 1"
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	c.Generations, c.WindowPositions, c.Command = 2, 1000, "train loop -window 1000"
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	gens, err := ReadLog(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if w1, w2 := gens[1].WindowGames, gens[2].WindowGames; w1 != 4 || w2 != 8 {
		t.Errorf("windows of %d and %d games, want 4 (generation 1's alone) and 8 (both)", w1, w2)
	}
	p, err := ReadProvenance(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []WindowChange{{1, 1, "train loop -window 1"}, {2, 1000, "train loop -window 1000"}}
	if fmt.Sprint(p.Windows) != fmt.Sprint(want) || p.Config.WindowPositions != 1000 || p.Command != "train loop -window 1" {
		t.Errorf("provenance: window schedule %v, window %d, command %q; want %v, 1000, the first", p.Windows, p.Config.WindowPositions, p.Command, want)
	}
	// The same window again is the same configuration; a smaller one is not.
	if err := Run(context.Background(), c); err != nil {
		t.Errorf("resume with the same window: %v", err)
	}
	c.WindowPositions = 10
	if err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "window_positions was 1000, now 10") {
		t.Errorf("a smaller window: %v, want refused naming window_positions", err)
	}
}
