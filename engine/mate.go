package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// MaxTsumePlies bounds `go mate`: a mate longer than this is not looked for, and
// `checkmate nomate` means that no tsume of at most this many plies exists.
const MaxTsumePlies = 255

// mateSlice is how long the tsume search runs between looks at its context: the df-pn
// table keeps what was decided, so a slice that ends only costs the walk back down.
const mateSlice = 50 * time.Millisecond

// Mate answers USI's `go mate` (usi.Mater): it looks for a tsume, a forced mate in which
// every move of the side to move gives check, with the df-pn search of package retro (the
// solver package's method) over the checking moves, trying the lengths 1, 3, 5, ... up to
// MaxTsumePlies, so that the first mate found is the shortest. The line returned is the
// shortest mate against the longest defence. The search's table takes the memory of the
// USI_Hash option. It returns nomate when no tsume exists within MaxTsumePlies plies.
func (e *Engine) Mate(ctx context.Context, info func(usi.SearchInfo)) (moves []string, nomate bool, err error) {
	root := e.game.Position()
	if r := e.game.Result(); r.Over() {
		info(gameOver(r))
		return nil, true, nil
	}
	budget := uint64(e.set.Player.Search.MaxNodes) * uint64(mcts.NodeBytes)
	entryBytes := uint64(retro.EntryBytes[minishogi.Code]())
	ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](minishogi.Tsume{Attacker: root.SideToMove()}, int(budget/entryBytes))
	start := time.Now()
	for n := 1; n <= MaxTsumePlies; n += 2 {
		var mates bool
		for {
			ms.SetDeadline(time.Now().Add(mateSlice))
			mates, err = ms.Prove(root, true, n)
			if !errors.Is(err, retro.ErrDeadline) {
				break
			}
			if ctx.Err() != nil {
				return nil, false, nil
			}
		}
		if err != nil {
			return nil, false, fmt.Errorf("engine: go mate: %w", err)
		}
		elapsed := time.Since(start)
		info(usi.SearchInfo{Has: usi.InfoDepth | usi.InfoNodes | usi.InfoTime | usi.InfoHashFull,
			Depth: n, Nodes: ms.Nodes(), Time: elapsed,
			HashFull: int(min(1000, uint64(ms.TableSize())*entryBytes*1000/max(budget, 1)))})
		if !mates {
			continue
		}
		ms.SetDeadline(time.Time{})
		line, err := ms.MateLine(root, true, n)
		if err != nil {
			return nil, false, fmt.Errorf("engine: go mate: %w", err)
		}
		for _, m := range line {
			moves = append(moves, m.String())
		}
		return moves, false, nil
	}
	info(usi.SearchInfo{String: fmt.Sprintf("no tsume within %d plies", MaxTsumePlies)})
	return nil, true, nil
}
