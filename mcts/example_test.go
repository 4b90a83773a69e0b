package mcts_test

import (
	"context"
	"fmt"

	"github.com/shogilab/shogilab/mcts"
)

// nim is Nim with normal play: the player who takes the last stone wins.
// A move packs heap<<8 | stones taken.
type nim struct {
	heaps   []int
	history []mcts.Move
}

func (g *nim) LegalMoves(dst []mcts.Move) []mcts.Move {
	for h, n := range g.heaps {
		for t := 1; t <= n; t++ {
			dst = append(dst, mcts.Move(h<<8|t))
		}
	}
	return dst
}

func (g *nim) Play(m mcts.Move) {
	g.heaps[m>>8] -= int(m & 0xff)
	g.history = append(g.history, m)
}

func (g *nim) Undo() {
	m := g.history[len(g.history)-1]
	g.history = g.history[:len(g.history)-1]
	g.heaps[m>>8] += int(m & 0xff)
}

func (g *nim) Outcome() (bool, float32) {
	for _, n := range g.heaps {
		if n > 0 {
			return false, 0
		}
	}
	return true, -1 // no stone left: the side to move has lost
}

func (g *nim) Hash() uint64 {
	h := uint64(0)
	for _, n := range g.heaps {
		h = h<<8 | uint64(n)
	}
	return h
}

func (g *nim) Clone() mcts.Game {
	return &nim{append([]int(nil), g.heaps...), append([]mcts.Move(nil), g.history...)}
}

func (g *nim) MoveString(m mcts.Move) string {
	return fmt.Sprintf("take %d from heap %d", m&0xff, m>>8)
}

// Heaps of 1 and 2 stones: the only winning move takes one stone from the
// second heap (leaving 1 and 1), and the game then lasts three plies.
func Example() {
	game := &nim{heaps: []int{1, 2}}
	cfg := mcts.DefaultConfig()
	cfg.MaxNodes = 1 << 16 // a small game needs a small tree
	s, err := mcts.NewSearcher(cfg, func() mcts.Evaluator {
		return mcts.NewRolloutEvaluator(100)
	})
	if err != nil {
		panic(err)
	}
	res, err := s.Search(context.Background(), game, mcts.Limits{Playouts: 10000})
	if err != nil {
		panic(err)
	}
	fmt.Println(game.MoveString(res.Best))
	fmt.Println(res.Proof, "- search stopped:", res.Stop)
	// Output:
	// take 1 from heap 1
	// win in 3 - search stopped: proven
}

// The tree is kept from move to move: after Advance the next search starts
// with the visits the last one gave the move played.
func ExampleSearcher_Advance() {
	game := &nim{heaps: []int{3, 4, 5}}
	cfg := mcts.DefaultConfig()
	cfg.MaxNodes = 1 << 16
	cfg.Seed = 1
	s, err := mcts.NewSearcher(cfg, func() mcts.Evaluator { return mcts.UniformEvaluator{} })
	if err != nil {
		panic(err)
	}
	res, _ := s.Search(context.Background(), game, mcts.Limits{Playouts: 500})
	var kept uint32
	for _, c := range res.Root {
		if c.Move == res.Best {
			kept = c.Visits
		}
	}
	if err := s.Advance(res.Best); err != nil {
		panic(err)
	}
	game.Play(res.Best)
	res, _ = s.Search(context.Background(), game, mcts.Limits{Playouts: 100})
	fmt.Println(res.RootVisits == int64(kept)+100)
	// Output:
	// true
}

// A Gumbel root, as self-play uses it, on the heaps of Example, 1 and 2 stones, where the
// one winning move takes a stone from the second heap: the root samples 2 of the 3 moves
// by Gumbel-top-k on the priors (each seed its own sample) and halves the 200 playouts over
// them. Where the sample holds only the two losing moves (seed 3), both are soon proven
// lost, and the root turns to the move left out. Result.Target is the policy a network
// would learn from the search.
func ExampleConfig_gumbelMoves() {
	cfg := mcts.DefaultConfig()
	cfg.MaxNodes = 1 << 16
	cfg.GumbelMoves = 2
	s, err := mcts.NewSearcher(cfg, func() mcts.Evaluator { return mcts.NewRolloutEvaluator(100) })
	if err != nil {
		panic(err)
	}
	for seed := range uint64(4) {
		s.Reseed(seed)
		game := &nim{heaps: []int{1, 2}}
		res, err := s.Search(context.Background(), game, mcts.Limits{Playouts: 200})
		if err != nil {
			panic(err)
		}
		sampled := 0
		for _, c := range res.Root {
			if c.Visits > 0 || c.Proof.Outcome != 0 {
				sampled++
			}
		}
		fmt.Printf("seed %d: %s, %d moves searched\n", seed, game.MoveString(res.Best), sampled)
	}
	// Output:
	// seed 0: take 1 from heap 1, 2 moves searched
	// seed 1: take 1 from heap 1, 2 moves searched
	// seed 2: take 1 from heap 1, 2 moves searched
	// seed 3: take 1 from heap 1, 3 moves searched
}
