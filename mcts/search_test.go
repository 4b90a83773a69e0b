package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// selfPlay plays tic-tac-toe from the empty board with one searcher for
// both sides, reusing the tree, and returns every search result.
func selfPlay(t *testing.T, cfg Config, playouts int64) ([]SearchResult, *ticTacToe) {
	t.Helper()
	return selfPlayWith(t, newSearcher(t, cfg, rollouts), playouts)
}

// selfPlayWith is selfPlay with a given searcher.
func selfPlayWith(t *testing.T, s *Searcher, playouts int64) ([]SearchResult, *ticTacToe) {
	t.Helper()
	g := newTicTacToe(".........")
	var results []SearchResult
	for ply := 0; ; ply++ {
		if over, _ := g.Outcome(); over {
			return results, g
		}
		res := search(t, s, g, Limits{Playouts: playouts, Ply: ply})
		results = append(results, res)
		g.Play(res.Best)
	}
}

func TestTicTacToeSelfPlayIsPerfect(t *testing.T) {
	// Tic-tac-toe is a draw; every move a perfect player makes keeps the
	// negamax value of the position.
	memo := map[uint64]Proof{}
	for seed := range uint64(4) {
		cfg := testConfig()
		cfg.Seed = seed
		results, g := selfPlay(t, cfg, 3000)
		replay := newTicTacToe(".........")
		for _, res := range results {
			before := solve(replay, memo)
			replay.Play(res.Best)
			if after := solve(replay, memo).parent(); after.Outcome != before.Outcome {
				t.Fatalf("seed %d: move %d at %v turns %v into %v", seed, res.Best, replay, before, after)
			}
		}
		if _, v := g.Outcome(); v != 0 {
			t.Errorf("seed %d: game %v not drawn", seed, g)
		}
	}
}

func withoutTimes(rs []SearchResult) []SearchResult {
	out := append([]SearchResult(nil), rs...)
	for i := range out {
		out[i].Elapsed = 0
	}
	return out
}

func TestReproducible(t *testing.T) {
	cfg := testConfig()
	cfg.Seed = 11
	cfg.DirichletEpsilon = 0.25
	cfg.DirichletAlpha = 0.3
	cfg.TemperaturePlies = 4
	first, _ := selfPlay(t, cfg, 400)
	second, _ := selfPlay(t, cfg, 400)
	if !reflect.DeepEqual(withoutTimes(first), withoutTimes(second)) {
		t.Fatalf("two runs with seed 11 differ:\n%+v\n%+v", first, second)
	}
	// Root noise is in the statistics: the rollout evaluator's priors are uniform, the
	// searched ones are not.
	uniform := true
	for _, c := range first[0].Root {
		uniform = uniform && c.Prior == first[0].Root[0].Prior
	}
	if uniform {
		t.Error("the first search's root priors are uniform: no root noise")
	}
	// The seed matters: another seed changes the statistics.
	cfg.Seed = 12
	third, _ := selfPlay(t, cfg, 400)
	if reflect.DeepEqual(withoutTimes(first), withoutTimes(third)) {
		t.Fatal("seeds 11 and 12 gave identical games and statistics")
	}
}

// TestReseed: a searcher that played a game and was reseeded plays the next
// game exactly as a new searcher with that seed, on one goroutine and on two.
func TestReseed(t *testing.T) {
	for _, threads := range []int{1, 2} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			cfg := testConfig()
			cfg.Threads = threads
			cfg.DirichletEpsilon = 0.25
			cfg.DirichletAlpha = 0.3
			cfg.TemperaturePlies = 4
			cfg.Seed = 5
			used := newSearcher(t, cfg, rollouts)
			selfPlayWith(t, used, 300)
			used.Reseed(11)
			if used.Nodes() != 1 || used.Config().Seed != 11 {
				t.Fatalf("after Reseed: %d nodes, seed %d", used.Nodes(), used.Config().Seed)
			}
			cfg.Seed = 11
			if threads == 1 {
				again, _ := selfPlayWith(t, used, 300)
				fresh, _ := selfPlay(t, cfg, 300)
				if !reflect.DeepEqual(withoutTimes(again), withoutTimes(fresh)) {
					t.Fatalf("a reseeded searcher and a new one with seed 11 differ:\n%+v\n%+v", again, fresh)
				}
				return
			}
			// Two goroutines do not repeat a game, but the root's generator
			// does: the noise of the first search is the new seed's.
			fresh := newSearcher(t, cfg, rollouts)
			g := newTicTacToe(".........")
			search(t, used, g, Limits{Playouts: 1})
			search(t, fresh, g, Limits{Playouts: 1})
			for i := range 9 {
				a, b := used.pool.nodes[used.pool.nodes[0].children+uint32(i)].prior, fresh.pool.nodes[fresh.pool.nodes[0].children+uint32(i)].prior
				if a != b {
					t.Fatalf("root prior %d after Reseed %v, new searcher %v", i, a, b)
				}
			}
		})
	}
}

func TestParallelSearch(t *testing.T) {
	// Run with -race: four goroutines on one tree.
	cfg := testConfig()
	cfg.Threads = 4
	for _, g := range []Game{newTicTacToe("........."), newTicTacToe("X...O...."), newNim(0, 2, 3, 4), newNim(3, 17)} {
		t.Run(fmt.Sprint(g), func(t *testing.T) {
			s := newSearcher(t, cfg, rollouts)
			res := search(t, s, g, Limits{Playouts: 20000})
			checkTree(t, s, g)
			if res.Playouts > 20000 || res.Stop != StopPlayouts && res.Stop != StopProven {
				t.Errorf("%v: %d playouts, stop %v", g, res.Playouts, res.Stop)
			}
			if res.Stop == StopPlayouts && res.Playouts != 20000 {
				t.Errorf("%v: %d playouts, want 20000", g, res.Playouts)
			}
			want := solve(g, map[uint64]Proof{})
			g.Play(res.Best)
			if got := solve(g, map[uint64]Proof{}).parent(); got.Outcome != want.Outcome {
				t.Errorf("best move gives %v, not %v", got, want)
			}
			if over, _ := g.Outcome(); !over {
				// Reuse the tree of a parallel search for another.
				search(t, s, g, Limits{Playouts: 2000})
				checkTree(t, s, g)
			}
			g.Undo()
		})
	}

	// Four goroutines filling a small pool.
	cfg.MaxNodes = 3000
	s := newSearcher(t, cfg, uniform)
	g := &endless{width: 5}
	res := search(t, s, g, Limits{Playouts: 100000})
	if res.Stop != StopPoolFull || res.Nodes > cfg.MaxNodes {
		t.Errorf("small pool: stop %v with %d nodes", res.Stop, res.Nodes)
	}
	checkTree(t, s, g)
}

func TestPoolFull(t *testing.T) {
	cfg := testConfig()
	cfg.MaxNodes = 40
	g := newTicTacToe(".........")
	s := newSearcher(t, cfg, rollouts)
	res := search(t, s, g, Limits{Playouts: 10000})
	if res.Stop != StopPoolFull || res.Nodes > 40 || res.Playouts >= 10000 {
		t.Fatalf("stop %v, %d nodes, %d playouts; want pool full within 40 nodes", res.Stop, res.Nodes, res.Playouts)
	}
	if res.Best >= 9 || res.Root[res.Best].Visits == 0 {
		t.Errorf("best %d is not a searched move", res.Best)
	}
	checkTree(t, s, g)

	cfg.MaxNodes = 5
	s = newSearcher(t, cfg, rollouts)
	if _, err := s.Search(context.Background(), g, Limits{Playouts: 10}); err == nil ||
		!strings.Contains(err.Error(), "cannot hold the root's moves") {
		t.Errorf("a pool of 5 nodes for 9 root moves: error %v", err)
	}
}

// snapshot records the subtree at idx as move path → visits, proof.
func snapshot(s *Searcher, idx uint32) map[string][2]uint32 {
	out := map[string][2]uint32{}
	var walk func(idx uint32, path string)
	walk = func(idx uint32, path string) {
		n := &s.pool.nodes[idx]
		meta := n.meta.Load()
		out[path] = [2]uint32{n.visits(), meta & proofMask}
		if metaState(meta) != expanded {
			return
		}
		for c := n.children; c < n.children+metaChildren(meta); c++ {
			walk(c, path+" "+string(rune('0'+s.pool.nodes[c].move)))
		}
	}
	walk(idx, "")
	return out
}

func TestTreeReuse(t *testing.T) {
	g := newTicTacToe(".........")
	s := newSearcher(t, testConfig(), rollouts)
	res := search(t, s, g, Limits{Playouts: 3000})
	child, _ := s.childWithMove(0, res.Best)
	kept := snapshot(s, child)
	used := s.Nodes()
	if err := s.Advance(res.Best); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(s, 0); !reflect.DeepEqual(got, kept) {
		t.Fatal("Advance changed the kept subtree")
	}
	// The pool is more than half free, so Advance only moved the root.
	if s.Nodes() != used {
		t.Errorf("%d nodes in use after Advance in a roomy pool, %d before", s.Nodes(), used)
	}
	g.Play(res.Best)
	before := kept[""][0]
	res = search(t, s, g, Limits{Playouts: 1000})
	if res.RootVisits != int64(before)+res.Playouts {
		t.Errorf("root visits %d, want %d kept + %d new", res.RootVisits, before, res.Playouts)
	}
	checkTree(t, s, g)

	// Search finds the position two plies down (our move and the reply)
	// by itself.
	reply := res.PV[1]
	child, _ = s.childWithMove(0, res.Best)
	grandchild, _ := s.childWithMove(child, reply)
	kept = snapshot(s, grandchild)
	g.Play(res.Best)
	g.Play(reply)
	res = search(t, s, g, Limits{Playouts: 1})
	if res.RootVisits != int64(kept[""][0])+res.Playouts {
		t.Errorf("after two plies: root visits %d, want %d kept + %d new", res.RootVisits, kept[""][0], res.Playouts)
	}
	checkTree(t, s, g)

	// An unrelated position starts afresh.
	res = search(t, s, newTicTacToe("....X...."), Limits{Playouts: 10})
	if res.RootVisits != 11 {
		t.Errorf("fresh root: %d visits, want 1 + 10", res.RootVisits)
	}
	if err := s.Advance(99); err == nil {
		t.Error("Advance accepted an illegal move")
	}
}

// TestTreeReuseCompacts plays the same two searches in a roomy pool, where Advance only
// moves the root, and in one more than half full after the first search, where Advance
// compacts the kept subtree to the front: the second searches must agree move for move.
func TestTreeReuseCompacts(t *testing.T) {
	twoSearches := func(maxNodes int) (used, afterAdvance int, second SearchResult, kept map[string][2]uint32) {
		cfg := testConfig()
		cfg.MaxNodes = maxNodes
		g := newTicTacToe(".........")
		s := newSearcher(t, cfg, rollouts)
		res := search(t, s, g, Limits{Playouts: 3000})
		used = s.Nodes()
		child, _ := s.childWithMove(0, res.Best)
		kept = snapshot(s, child)
		if err := s.Advance(res.Best); err != nil {
			t.Fatal(err)
		}
		if got := snapshot(s, 0); !reflect.DeepEqual(got, kept) {
			t.Fatalf("pool of %d: Advance changed the kept subtree", maxNodes)
		}
		afterAdvance = s.Nodes()
		g.Play(res.Best)
		second = search(t, s, g, Limits{Playouts: 1000})
		checkTree(t, s, g)
		return used, afterAdvance, second, kept
	}
	used, _, roomy, _ := twoSearches(testConfig().MaxNodes)
	crowdedPool := used * 3 / 2
	usedCrowded, afterAdvance, crowded, kept := twoSearches(crowdedPool)
	if usedCrowded != used {
		t.Fatalf("the first search used %d nodes of a pool of %d, %d of a roomy pool", usedCrowded, crowdedPool, used)
	}
	if afterAdvance != len(kept) {
		t.Errorf("%d nodes in use after Advance in a pool more than half full, the subtree has %d", afterAdvance, len(kept))
	}
	if crowded.Stop != roomy.Stop || !reflect.DeepEqual(crowded.Root, roomy.Root) {
		t.Errorf("the search after compaction differs: %v %+v, without %v %+v", crowded.Stop, crowded.Root, roomy.Stop, roomy.Root)
	}
}

func TestTemperatureSampling(t *testing.T) {
	// With visits 100 and 300, temperature τ draws the second move with
	// probability 300^(1/τ) / (100^(1/τ) + 300^(1/τ)): 3/4 for τ = 1 and
	// 9/10 for τ = 1/2.
	g := newNim(0, 2) // two moves: take 1 or take 2
	s := newSearcher(t, testConfig(), uniform)
	search(t, s, g, Limits{Playouts: 1})
	root := &s.pool.nodes[0]
	s.pool.nodes[root.children].counts.Store(100 << 32)
	s.pool.nodes[root.children+1].meta.Store(packMeta(expanded, Proof{}, 0)) // forget its proof
	s.pool.nodes[root.children+1].counts.Store(300 << 32)
	for _, c := range []struct{ tau, want float64 }{{1, 0.75}, {0.5, 0.9}} {
		t.Run(fmt.Sprintf("tau=%g", c.tau), func(t *testing.T) {
			const draws = 20000
			second := 0
			for range draws {
				if s.sampleChild(0, c.tau) == root.children+1 {
					second++
				}
			}
			// Five standard deviations of a binomial proportion.
			got, tol := float64(second)/draws, 5*0.0031
			if got < c.want-tol || got > c.want+tol {
				t.Errorf("τ=%v: second move drawn %.4f of the time, want %.2f", c.tau, got, c.want)
			}
		})
	}
}

// fixedPriors gives the moves of every position the priors 4:3:2:1 (the first four moves;
// the rest 1) and the value 0.
type fixedPriors struct{}

func (fixedPriors) Evaluate(g Game, moves []Move, priors []float32, rng *rand.Rand) Evaluation {
	for i := range priors {
		priors[i] = float32(max(4-i, 1))
	}
	return Evaluation{}
}

// TestDirichletNoise checks root noise through Search, as self-play uses it: each search of
// a root mixes fresh noise into the evaluator's priors, P' = (1-ε)P + εη with η ~
// Dirichlet(α, α, α, α), never on top of earlier noise. With ε = 1/4, α = 1/2 and P =
// (0.4, 0.3, 0.2, 0.1): E[P'ᵢ] = 0.75·Pᵢ + 1/16, and each ηᵢ is Beta(α, 3α) distributed
// (a Dirichlet marginal), whose standard deviation √(α·3α/((4α)²(4α+1))) = 1/4 makes P'ᵢ's
// 1/16. The sample is checked against these moments and, by a Kolmogorov-Smirnov test,
// against gonum's Beta(1/2, 3/2).
func TestDirichletNoise(t *testing.T) {
	cfg := testConfig()
	cfg.MaxNodes = 1 << 16
	cfg.Seed = 7
	cfg.DirichletEpsilon = 0.25
	cfg.DirichletAlpha = 0.5
	s := newSearcher(t, cfg, func() Evaluator { return fixedPriors{} })
	g := &endless{width: 4}
	base := []float64{0.4, 0.3, 0.2, 0.1}
	const samples = 4000
	eta := make([][]float64, 4)
	for range samples {
		res := search(t, s, g, Limits{Playouts: 1})
		sum := 0.0
		for i, c := range res.Root {
			sum += float64(c.Prior)
			eta[i] = append(eta[i], (float64(c.Prior)-0.75*base[i])/0.25)
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Fatalf("noised priors sum to %v", sum)
		}
	}
	beta := distuv.Beta{Alpha: 0.5, Beta: 1.5}
	for i, xs := range eta {
		mean, sd := stat.MeanStdDev(xs, nil)
		if se := 0.25 / math.Sqrt(samples); math.Abs(mean-0.25) > 5*se {
			t.Errorf("move %d: noise mean %.4f, want 1/4 (P' mean %.4f, want %.4f)", i, mean, 0.75*base[i]+0.25*mean, 0.75*base[i]+1.0/16)
		}
		if math.Abs(sd-0.25) > 0.025 {
			t.Errorf("move %d: noise standard deviation %.4f, want 1/4", i, sd)
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		d := 0.0
		for k, x := range sorted {
			f := beta.CDF(x)
			d = max(d, math.Abs(f-float64(k)/samples), math.Abs(f-float64(k+1)/samples))
		}
		if crit := 1.63 / math.Sqrt(samples); d > crit { // the 1% critical value
			t.Errorf("move %d: Kolmogorov-Smirnov distance %.4f from Beta(1/2, 3/2), beyond %.4f", i, d, crit)
		}
	}
	// Without noise the priors are the evaluator's, search after search.
	cfg.DirichletEpsilon = 0
	s = newSearcher(t, cfg, func() Evaluator { return fixedPriors{} })
	for range 3 {
		for i, c := range search(t, s, g, Limits{Playouts: 1}).Root {
			if math.Abs(float64(c.Prior)-base[i]) > 1e-6 {
				t.Errorf("ε = 0: prior %d is %v, want %v", i, c.Prior, base[i])
			}
		}
	}
}

// endless is a game that never ends: every position has width moves.
type endless struct {
	width   int
	hash    uint64
	history []uint64
}

func (g *endless) LegalMoves(dst []Move) []Move {
	for i := range g.width {
		dst = append(dst, Move(i))
	}
	return dst
}
func (g *endless) Play(m Move) {
	g.history = append(g.history, g.hash)
	g.hash = (g.hash ^ uint64(m+1)) * 0x100000001b3
}
func (g *endless) Undo() {
	g.hash = g.history[len(g.history)-1]
	g.history = g.history[:len(g.history)-1]
}
func (g *endless) Outcome() (bool, float32) { return false, 0 }
func (g *endless) Hash() uint64             { return g.hash }
func (g *endless) Clone() Game {
	c := *g
	c.history = append([]uint64(nil), g.history...)
	return &c
}
func (g *endless) MoveString(m Move) string { return string(rune('a' + m)) }

func TestStopConditions(t *testing.T) {
	cfg := testConfig()
	cfg.Threads = 2
	cfg.MaxNodes = 1 << 21
	game := func() Game { return &endless{width: 3} }

	s := newSearcher(t, cfg, uniform)
	start := time.Now()
	res := search(t, s, game(), Limits{Time: 20 * time.Millisecond})
	if res.Stop != StopTime || time.Since(start) < 20*time.Millisecond {
		t.Errorf("time limit: stop %v after %v", res.Stop, time.Since(start))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	s = newSearcher(t, cfg, uniform)
	if res, err := s.Search(ctx, game(), Limits{}); err != nil || res.Stop != StopCancelled {
		t.Errorf("cancelled context: stop %v, error %v", res.Stop, err)
	}

	// Stop from the info callback's goroutine, after some infos.
	s = newSearcher(t, cfg, uniform)
	var infos atomic.Int32
	res = search(t, s, game(), Limits{InfoInterval: time.Millisecond, OnInfo: func(in Info) {
		if infos.Add(1) == 3 {
			s.Stop()
		}
	}})
	if res.Stop != StopCancelled || infos.Load() < 3 {
		t.Errorf("Stop: stop %v after %d infos", res.Stop, infos.Load())
	}
	if len(res.PV) == 0 || res.PV[0] != res.Best || res.Depth < 1 || res.SelDepth < res.Depth {
		t.Errorf("info: PV %v, best %v, depth %d, seldepth %d", res.PV, res.Best, res.Depth, res.SelDepth)
	}
}

func TestSearchErrors(t *testing.T) {
	s := newSearcher(t, testConfig(), uniform)
	if _, err := s.Search(context.Background(), newTicTacToe("XXXOO...."), Limits{}); err == nil {
		t.Error("searched a finished game")
	}
	if _, err := s.Search(context.Background(), newTicTacToe(""), Limits{Playouts: -1}); err == nil {
		t.Error("accepted a negative budget")
	}
	if err := s.Advance(0); err == nil {
		t.Error("Advance without a searched root gave no error")
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		field  string
		change func(*Config)
	}{
		{"Threads", func(c *Config) { c.Threads = 0 }},
		{"MaxNodes", func(c *Config) { c.MaxNodes = 1 }},
		{"CPuct", func(c *Config) { c.CPuct = 0 }},
		{"FPUReduction", func(c *Config) { c.FPUReduction = -1 }},
		{"VirtualLoss", func(c *Config) { c.VirtualLoss = float32(math.NaN()) }},
		{"DirichletEpsilon", func(c *Config) { c.DirichletEpsilon = 1.5 }},
		{"DirichletAlpha", func(c *Config) { c.DirichletEpsilon, c.DirichletAlpha = 0.25, 0 }},
		{"TemperaturePlies", func(c *Config) { c.TemperaturePlies = -1 }},
		{"Temperature", func(c *Config) { c.TemperaturePlies, c.Temperature = 8, 0 }},
		{"GumbelScale", func(c *Config) { c.GumbelMoves, c.GumbelScale = 16, 0 }},
	} {
		t.Run(c.field, func(t *testing.T) {
			cfg := testConfig()
			c.change(&cfg)
			_, err := NewSearcher(cfg, uniform)
			if err == nil || !strings.HasPrefix(err.Error(), "mcts: config: "+c.field+" is ") {
				t.Errorf("error %v", err)
			}
		})
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

func TestNodeBytes(t *testing.T) {
	// The heap a pool takes, measured by the runtime, is NodeBytes a node;
	// 32 bytes is the layout's design (two nodes to a cache line).
	const nodes = 1 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var p pool
	p.allocate(nodes)
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(p.nodes)
	perNode := float64(after.TotalAlloc-before.TotalAlloc) / nodes
	t.Logf("unsafe.Sizeof: %d B/node; heap: %.3f B/node", NodeBytes, perNode)
	if NodeBytes != 32 || perNode < 32 || perNode > 32.1 {
		t.Errorf("node: %d bytes by Sizeof, %.3f by the heap; want 32", NodeBytes, perNode)
	}
}

// slowClone is a game whose first Clone, the one Search makes of the position it is given,
// takes delay: work the search does before its workers start, as tree reuse is.
type slowClone struct {
	*endless
	delay time.Duration
}

func (g *slowClone) Clone() Game {
	time.Sleep(g.delay)
	return g.endless.Clone()
}

// TestTimeCountsFromStart: a search's time runs from Limits.Start (by default, from the
// call), and what the search does before its workers start is charged to it (issue 33: tree
// reuse ran before the timer was armed, so a search on a clock answered late by as long as
// the reuse took). The checks are on playouts, not on durations: a search whose time is
// spent before its workers start runs none.
func TestTimeCountsFromStart(t *testing.T) {
	for _, threads := range []int{1, 2} {
		cfg := testConfig()
		cfg.Threads = threads
		t.Run(fmt.Sprintf("threads %d", threads), func(t *testing.T) {
			t.Run("slow start", func(t *testing.T) {
				s := newSearcher(t, cfg, uniform)
				res := search(t, s, &slowClone{&endless{width: 3}, 30 * time.Millisecond}, Limits{Time: 10 * time.Millisecond})
				if res.Stop != StopTime || res.Playouts != 0 {
					t.Errorf("stop %v after %d playouts; want time, and no playout after the 10 ms went on a 30 ms clone", res.Stop, res.Playouts)
				}
			})
			t.Run("start in the past", func(t *testing.T) {
				s := newSearcher(t, cfg, uniform)
				res := search(t, s, &endless{width: 3}, Limits{Time: 10 * time.Millisecond, MaxTime: 30 * time.Millisecond, Start: time.Now().Add(-time.Second)})
				if res.Stop != StopTime || res.Playouts != 0 || res.Elapsed < time.Second {
					t.Errorf("stop %v after %d playouts, elapsed %v; want time, none, at least the second since Start", res.Stop, res.Playouts, res.Elapsed)
				}
				if len(res.Root) == 0 {
					t.Error("no root moves to choose from")
				}
			})
		})
	}
}
