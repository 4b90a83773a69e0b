package engine

import (
	"errors"
	"fmt"
	"time"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// The root mate search (PlayerConfig.RootMate, docs/tactics.md): before the tree search,
// the df-pn tsume search of package retro (the solver's) looks for a forced mate by checks
// from the root of at most RootMate plies, and a mate found is played at once. It spends at
// most a tenth of the think (rootMateShare): with a playout budget, one df-pn node for each
// playout (a node costs less than a playout, so this is some tenth of the time too, and a
// one-goroutine game stays reproducible); with a time budget, a tenth of the time. Its
// table lives for the game, so the work on one move's root carries over to the next.
const (
	rootMateShare   = 10      // the think's share left to the root mate search: 1/rootMateShare
	rootMateEntries = 1 << 18 // table size, nodes (about 14 MiB at the most)
)

type tsumeSearch = retro.MateSearch[minishogi.Position, minishogi.Move, minishogi.Code]

// newTsumeSearch returns the root mate search of attacker side with its table at its full
// size (rootMateEntries). The tsume game names its attacker: a table for each side.
func newTsumeSearch(side minishogi.Color) *tsumeSearch {
	ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](minishogi.Tsume{Attacker: side}, rootMateEntries)
	ms.Reserve(rootMateEntries)
	return ms
}

// rootMate looks for a mate from the root of game within lim's share. It returns the mate's
// first move and length, or found false when it found none within the budget or the limit.
func (p *Player) rootMate(game *Game, lim mcts.Limits) (m minishogi.Move, plies int, found bool, err error) {
	if p.cfg.RootMate == 0 || (lim.Playouts == 0 && lim.Time == 0) {
		return 0, 0, false, nil
	}
	root := *game.Position()
	// A move that leaves the opponent without a legal move wins at once (checkmate, or a
	// quiet move: docs/rules.md#no-legal-move) and comes before any mate df-pn finds,
	// which tries checks only: the tree search, which proves such moves first, plays it.
	var legal minishogi.MoveList
	root.GenerateLegal(&legal)
	for _, m := range legal.Moves[:legal.N] {
		next := root
		next.MakeMove(m)
		if !next.HasLegalMove() {
			return 0, 0, false, nil
		}
	}
	var checks minishogi.MoveList
	if root.GenerateChecks(&checks); checks.N == 0 {
		return 0, 0, false, nil // no check, no tsume
	}
	maxPlies := p.cfg.RootMate
	if game.opts.MaxPlies > 0 {
		// A mate past the play limit would be a draw (docs/rules.md).
		maxPlies = min(maxPlies, game.opts.MaxPlies-game.Ply())
	}
	ms := p.tsume[root.SideToMove()] // made by NewPlayer, since RootMate is on
	ms.SetNodeLimit(0)
	ms.SetDeadline(time.Time{})
	if lim.Playouts > 0 {
		ms.SetNodeLimit(ms.Nodes() + lim.Playouts)
	}
	if lim.Time > 0 {
		// A tenth of the think from when it began (lim.Start), not from now.
		ms.SetDeadline(lim.Start.Add(lim.Time / rootMateShare))
	}
	// The deadline holds until the move is known: finding the first move of a proven mate
	// may search children the proof did not decide, and without it that search made 1 to 3
	// moves of 200 late at byoyomi 50 (cmd/usi TestByoyomiClock). The node limit is the
	// search's alone, as when RootMate's SPRT was played (docs/tactics.md#rerun).
	defer func() {
		ms.SetNodeLimit(0)
		ms.SetDeadline(time.Time{})
	}()
	plies, found, err = ms.MinimalMate(root, true, maxPlies)
	if err == nil && found {
		ms.SetNodeLimit(0)
		m, err = ms.MateMove(root, plies)
	}
	if errors.Is(err, retro.ErrNodeLimit) || errors.Is(err, retro.ErrDeadline) {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, fmt.Errorf("root mate: %w", err)
	}
	if !found {
		return 0, 0, false, nil
	}
	return m, plies, true, nil
}
