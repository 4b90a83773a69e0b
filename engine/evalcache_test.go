package engine

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// playFrom plays at most plies moves of g with p at playouts a move (p keeps its tree and
// its evaluators' caches from move to move, as in a match), until the game ends or p
// resigns, and returns each move's decision without its timing.
func playFrom(t testing.TB, p *Player, g *minishogi.Game, plies, playouts int) []Decision {
	t.Helper()
	var ds []Decision
	for range plies {
		if g.Result().Over() {
			break
		}
		d, err := p.Think(context.Background(), g, mcts.Limits{Playouts: int64(playouts)})
		if err != nil {
			t.Fatal(err)
		}
		if d.Resign {
			break
		}
		if err := g.Play(d.Move); err != nil {
			t.Fatal(err)
		}
		d.Elapsed = 0
		ds = append(ds, d)
	}
	return ds
}

// TestEvalCacheSameTree: the evaluation cache returns what the network computes, so a game
// played with it is the same, decision for decision (moves, values, visits, principal
// variations, policy targets), as one played without, at fixed playouts.
func TestEvalCacheSameTree(t *testing.T) {
	starts, plies, playouts := realSearchStarts[:2], 16, 3000
	if testing.Short() { // the race detector's run: a tenth of the work
		starts, plies, playouts = realSearchStarts[:1], 8, 1000
	}
	for _, start := range starts {
		t.Run(start, func(t *testing.T) {
			var games [2][]Decision
			for i, mib := range []int{0, 1} { // 1 MiB: small enough that the ring comes round
				cfg := DefaultSettings().Player
				cfg.Eval.CacheMiB = mib
				p, err := NewPlayer(cfg)
				if err != nil {
					t.Fatal(err)
				}
				games[i] = playFrom(t, p, gameAt(t, start), plies, playouts)
			}
			if len(games[0]) == 0 || !reflect.DeepEqual(games[0], games[1]) {
				for i := range min(len(games[0]), len(games[1])) {
					if !reflect.DeepEqual(games[0][i], games[1][i]) {
						t.Fatalf("move %d: without the cache %+v\nwith it %+v", i+1, games[0][i], games[1][i])
					}
				}
				t.Fatalf("%d moves without the cache, %d with it", len(games[0]), len(games[1]))
			}
		})
	}
}

// BenchmarkGameSearch measures what the evaluation cache and the split mate search buy in
// play: each iteration is a game of 40 moves from one of the four realSearchStarts at
// 10,000 playouts a move, the tree and the caches kept from move to move as a match keeps
// them; cache=0 turns the cache off, and mate=whole runs the whole mate search at every
// expansion (MateExpandDepth = MateDepth) where the default leaves mates longer than one to
// Deepen. It reports CPU time per playout (cpu-ns/playout), which other load distorts less
// than wall time.
func BenchmarkGameSearch(b *testing.B) {
	def := DefaultSettings().Player.Eval
	for _, c := range []struct {
		mib, expand int
	}{{0, def.MateExpandDepth}, {def.CacheMiB, def.MateExpandDepth}, {def.CacheMiB, def.MateDepth}} {
		name := fmt.Sprintf("cache=%d", c.mib)
		if c.expand != def.MateExpandDepth {
			name += ",mate=whole"
		}
		b.Run(name, func(b *testing.B) {
			cfg := DefaultSettings().Player
			cfg.Eval.CacheMiB, cfg.Eval.MateExpandDepth = c.mib, c.expand
			var playouts int64
			cpu := cpuTime()
			for i := range b.N {
				p, err := NewPlayer(cfg)
				if err != nil {
					b.Fatal(err)
				}
				for _, d := range playFrom(b, p, gameAt(b, realSearchStarts[i%len(realSearchStarts)]), 40, 10000) {
					playouts += d.Playouts
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(playouts), "cpu-ns/playout")
			b.ReportMetric(float64(playouts)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}
