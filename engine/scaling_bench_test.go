package engine

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// realSearchPlayouts is the size of a real search: what the USI engine runs in a few seconds
// of thought, whose tree (some 5 million nodes, 150 MB) is far larger than the caches, as
// docs/tactics.md explains (Two search goroutines).
const realSearchPlayouts = 300_000

// realSearchStarts are the first four of the shipped balanced openings
// (datasets/openings/balanced.sfen), so that the searches are of positions games reach.
var realSearchStarts = []string{
	"r1sgk/B1b1p/5/P4/KGS1R b - 3",
	"r1sgk/b3p/3S1/P4/KG1BR w - 4",
	"rb1gk/3sp/5/PG3/K1SBR b - 3",
	"1bsgk/r3p/5/P1G1R/1KSB1 b - 7",
}

// BenchmarkRealSearch measures the engine with the USI defaults (the built-in network, a
// 256 MiB hash) on real-sized searches: each iteration is one fresh search of 300,000
// playouts from one of four opening positions. Three cases run back to back:
//
//   - threads=1 and threads=2: one search with one or two goroutines on one tree;
//   - apart=2: two one-goroutine searches at once, each on its own tree, which is what the
//     two cores give when nothing is shared; their summed playouts per second bound what a
//     shared tree can reach on this machine (the memory system's limit, not the tree's).
//
// Run it with -benchtime 4x (one search from each position) or a multiple of 4.
func BenchmarkRealSearch(b *testing.B) {
	// games gives each player a game of its own for each start: Think may play moves on it.
	games := func() []*minishogi.Game {
		var gs []*minishogi.Game
		for _, s := range realSearchStarts {
			pos, err := minishogi.ParseSFEN(s)
			if err != nil {
				b.Fatal(err)
			}
			gs = append(gs, minishogi.NewGame(pos, minishogi.GameOptions{}))
		}
		return gs
	}
	newPlayer := func(threads int) *Player {
		cfg := DefaultSettings().Player
		cfg.Search.Threads = threads
		p, err := NewPlayer(cfg)
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	search := func(p *Player, g *minishogi.Game) {
		p.searcher.Reset()
		d, err := p.Think(context.Background(), g, mcts.Limits{Playouts: realSearchPlayouts})
		if err != nil {
			b.Error(err)
			return
		}
		if d.Playouts != realSearchPlayouts {
			b.Errorf("%d of %d playouts, stop %v", d.Playouts, realSearchPlayouts, d.Stop)
		}
	}
	for _, c := range []struct{ threads, players int }{{1, 1}, {2, 1}, {1, 2}} {
		name := fmt.Sprintf("threads=%d", c.threads)
		if c.players > 1 {
			name = fmt.Sprintf("apart=%d", c.players)
		}
		b.Run(name, func(b *testing.B) {
			players := make([]*Player, c.players)
			starts := make([][]*minishogi.Game, c.players)
			for i := range players {
				players[i], starts[i] = newPlayer(c.threads), games()
			}
			runtime.GC()
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				var wg sync.WaitGroup
				for k, p := range players {
					g := starts[k][i%len(realSearchStarts)]
					wg.Go(func() { search(p, g) })
				}
				wg.Wait()
			}
			playouts := float64(b.N) * realSearchPlayouts * float64(c.players)
			b.ReportMetric(float64(cpuTime()-cpu)/playouts, "cpu-ns/playout")
			b.ReportMetric(playouts/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}
