package eval

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// seenGame is a testGame whose history holds every position (MaybeSeen says yes to all).
type seenGame struct{ testGame }

func (g *seenGame) MaybeSeen(uint64) bool { return true }

// TestEvalCache evaluates positions twice with the cache and once without: the second
// evaluation is the first, prior for prior, and the cache records a position as free of
// mates only when its mate search ran to its end within the budget without meeting a
// position that may have occurred (cache.go).
func TestEvalCache(t *testing.T) {
	net, _ := policyNet(t)
	for _, c := range []struct {
		name      string
		sfen      string
		mateNodes int
		seen      bool
		mateFree  int // the depth recorded after the first evaluation
	}{
		// Two bare kings far apart: no check to give, so no mate search and nothing recorded.
		{"no checks", "4k/5/5/5/K4 b - 1", 1000, false, 0},
		// Checks but no mate in 5 (drops around a king with room): searched to its end.
		{"checks, no mate", "4k/5/5/5/K4 b G 1", 1000, false, 5},
		// The same with a budget of 3 moves: the search stops early and proves nothing.
		{"budget spent", "4k/5/5/5/K4 b G 1", 3, false, 0},
		// The same in a game where every position may have occurred: lines are cut by the
		// history, so the answer is not the position's alone.
		{"history met", "4k/5/5/5/K4 b G 1", 1000, true, 0},
		// Mate in one (a gold drop in front of the king): a mate is never recorded as free.
		{"mate in one", "4k/5/4P/5/K4 b G 1", 1000, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			pos, err := ms.ParseSFEN(c.sfen)
			if err != nil {
				t.Fatal(err)
			}
			var g mcts.Game = &testGame{pos: pos}
			if c.seen {
				g = &seenGame{testGame{pos: pos}}
			}
			moves := g.LegalMoves(nil)
			run := func(cacheMiB int, e *Evaluator) (mcts.Evaluation, []float32) {
				if e == nil {
					cfg := DefaultConfig()
					cfg.Net, cfg.MateNodes, cfg.CacheMiB = net, c.mateNodes, cacheMiB
					cfg.MateExpandDepth = cfg.MateDepth // the whole search at expansion
					e = New(cfg)
				}
				priors := make([]float32, len(moves))
				return e.Evaluate(g, moves, priors, rand.New(rand.NewPCG(1, 2))), priors
			}
			wantEv, wantPriors := run(0, nil)
			cfg := DefaultConfig()
			cfg.Net, cfg.MateNodes, cfg.CacheMiB = net, c.mateNodes, 1
			cfg.MateExpandDepth = cfg.MateDepth
			e := New(cfg)
			for i := range 2 {
				ev, priors := run(1, e)
				if !reflect.DeepEqual(ev, wantEv) || !reflect.DeepEqual(priors, wantPriors) {
					t.Errorf("evaluation %d with the cache: %+v %v; without: %+v %v", i+1, ev, priors, wantEv, wantPriors)
				}
				key := pos.Hash()
				slot := &e.cache.slots[key&uint64(len(e.cache.slots)-1)]
				if slot.key != key || int(slot.mateFree) != c.mateFree {
					t.Errorf("evaluation %d: slot %+v; want the position's, free of mates to depth %d", i+1, *slot, c.mateFree)
				}
			}
		})
	}
}

// TestDeepenCache: with the mate search split (Config.MateExpandDepth 1 of MateDepth 5),
// the cache records the depth each part proved free of mates, and a second Deepen of the
// same position searches nothing. The position is TestEvalCache's "checks, no mate".
func TestDeepenCache(t *testing.T) {
	net, _ := policyNet(t)
	pos, err := ms.ParseSFEN("4k/5/5/5/K4 b G 1")
	if err != nil {
		t.Fatal(err)
	}
	g := &testGame{pos: pos}
	cfg := DefaultConfig()
	cfg.Net, cfg.CacheMiB, cfg.MateExpandDepth = net, 1, 1
	e := New(cfg)
	moves := g.LegalMoves(nil)
	e.Evaluate(g, moves, make([]float32, len(moves)), rand.New(rand.NewPCG(1, 2)))
	slot := e.cache.find(&pos)
	if slot == nil || slot.mateFree != 1 {
		t.Fatalf("after the expansion: slot %+v; want the position's, free of mates to depth 1", slot)
	}
	if p, ok := e.Deepen(g); ok {
		t.Fatalf("Deepen proves %v", p)
	}
	if slot.mateFree != 5 {
		t.Fatalf("after Deepen: free of mates to depth %d, want 5", slot.mateFree)
	}
	e.nodes = -1
	if _, ok := e.Deepen(g); ok || e.nodes != -1 {
		t.Errorf("a second Deepen searched (%d moves)", e.nodes)
	}
}

// TestEvalCacheRing: once the arena has come round over a position's priors, its slot is
// stale and a lookup misses, even though the slot still names the position.
func TestEvalCacheRing(t *testing.T) {
	c := newEvalCache(1 << 20)
	pos, err := ms.ParseSFEN(ms.StartSFEN)
	if err != nil {
		t.Fatal(err)
	}
	var moves []mcts.Move
	for _, m := range pos.LegalMoves(nil) {
		moves = append(moves, mcts.Move(m))
	}
	priors := make([]float32, len(moves))
	for i := range priors {
		priors[i] = float32(i + 1)
	}
	c.store(&pos, 0.25, moves, priors, nil)
	got := make([]float32, len(moves))
	var checks [ms.MaxMoves]ms.Move
	if v, _, _, ok := c.lookup(&pos, moves, got, checks[:]); !ok || v != 0.25 || !reflect.DeepEqual(got, priors) {
		t.Fatalf("lookup after store: %v %v %v", ok, v, got)
	}
	c.head += uint64(len(c.arena)) // as if a ring's worth of other positions came after
	if _, _, _, ok := c.lookup(&pos, moves, got, checks[:]); ok {
		t.Error("a stale slot was found")
	}
	if newEvalCache(cacheSlotBytes-1) != nil {
		t.Error("a cache smaller than one slot was made")
	}
}
