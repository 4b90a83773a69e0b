package minishogi

import (
	"context"
	"errors"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// Perft counts the leaf nodes of the legal move tree to the given depth, counting the moves
// of the last ply without making them (bulk counting, as Fairy-Stockfish does).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	if depth == 1 {
		return uint64(ml.N)
	}
	var nodes uint64
	for _, m := range ml.Slice() {
		u := p.MakeMove(m)
		nodes += p.Perft(depth - 1)
		p.UnmakeMove(m, u)
	}
	return nodes
}

// DivideEntry is one root move with the number of leaves below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// PerftDivide returns, for each legal move in generation order, the perft count of the
// position after it at depth-1 (the `go perft` output of USI engines).
func (p *Position) PerftDivide(depth int) []DivideEntry {
	var ml MoveList
	p.GenerateLegal(&ml)
	out := make([]DivideEntry, ml.N)
	for i, m := range ml.Slice() {
		u := p.MakeMove(m)
		out[i] = DivideEntry{m, p.Perft(depth - 1)}
		p.UnmakeMove(m, u)
	}
	return out
}

// ParallelPerft is Perft spread over workers goroutines (all CPUs when workers < 1). The
// tree is split two plies below the root so that the work items are many and small enough
// to balance.
func (p *Position) ParallelPerft(depth, workers int) uint64 {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	if depth < 3 || workers == 1 {
		return p.Perft(depth)
	}
	type task struct {
		pos Position
	}
	var tasks []task
	var ml MoveList
	p.GenerateLegal(&ml)
	for _, m1 := range ml.Slice() {
		u1 := p.MakeMove(m1)
		var ml2 MoveList
		p.GenerateLegal(&ml2)
		for _, m2 := range ml2.Slice() {
			u2 := p.MakeMove(m2)
			tasks = append(tasks, task{*p})
			p.UnmakeMove(m2, u2)
		}
		p.UnmakeMove(m1, u1)
	}
	var next atomic.Int64
	var total atomic.Uint64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(len(tasks)) {
					return
				}
				total.Add(tasks[i].pos.Perft(depth - 2))
			}
		}()
	}
	wg.Wait()
	return total.Load()
}

// PerftContext is Perft that stops with ctx's error when ctx is done, and with an error
// when the count would overflow 64 bits. It looks at ctx at every node more than
// bulkDepth plies above the leaves, about every millisecond, and counts the subtrees
// below them with Perft.
func (p *Position) PerftContext(ctx context.Context, depth int) (uint64, error) {
	if depth <= bulkDepth {
		return p.Perft(depth), nil
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	var nodes uint64
	for _, m := range ml.Slice() {
		u := p.MakeMove(m)
		n, err := p.PerftContext(ctx, depth-1)
		p.UnmakeMove(m, u)
		if err != nil {
			return 0, err
		}
		var carry uint64
		if nodes, carry = bits.Add64(nodes, n, 0); carry != 0 {
			return 0, errors.New("minishogi: perft: the count overflows 64 bits")
		}
	}
	return nodes, nil
}

// bulkDepth is the depth PerftContext leaves to Perft: a few hundred thousand leaves from
// the start position, a millisecond or so.
const bulkDepth = 4
