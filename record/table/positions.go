package table

import (
	"fmt"
	"io"

	"github.com/shogilab/shogilab/record"
)

// Position is one move of a game with the position before it: a row of the
// positions table, and a training example (the move and the search's
// visits are policy targets, the game's result and the search's value are
// value targets).
type Position struct {
	Game   int           // the game's id
	Ply    int           // moves played before this position, from 0
	SFEN   string        // the position, with its move number
	Side   record.Result // the side to move: record.Sente or record.Gote
	Move   string        // the move played (USI)
	Result record.Result // the game's result
	// Stats is what the mover's search saw: visits, value, the most
	// visited moves; nil where the record has no statistics for the move.
	Stats *record.MoveStats
	// Mover is the kind of the player who moved (record.KindMCTS, KindUSI,
	// KindRandom), from a record file's players; "" from a table, which does not
	// carry it by position.
	Mover string
}

// Positions calls fn with every position of the files, game after game and
// ply after ply: from positions tables (.parquet) directly, from games
// tables through the positions table each names, and from record files
// (JSON Lines, plain or gzip) by replaying each game's moves. The Position
// is fn's until it returns; its Stats too.
func Positions(paths []string, fn func(*Position) error) error {
	for _, path := range paths {
		var err error
		if IsParquet(path) {
			err = tablePositions(path, fn)
		} else {
			err = recordPositions(path, fn)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func tablePositions(path string, fn func(*Position) error) error {
	var p *positionsFile
	t, err := openTable(path, PositionsTable)
	if err != nil {
		// A games table leads to its positions table, which must be its pair.
		g, gerr := openTable(path, GamesTable)
		if gerr != nil {
			return err
		}
		p, err = pairedPositions(g, true)
		g.Close()
		if err != nil {
			return err
		}
	} else {
		t.Close()
		if p, err = openPositionsColumns(path, true); err != nil {
			return err
		}
	}
	defer p.close()
	for {
		pos, err := p.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(pos); err != nil {
			return err
		}
	}
}

func recordPositions(path string, fn func(*Position) error) error {
	r := record.NewReader([]string{path})
	defer r.Close()
	for {
		g, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("table: %w", err)
		}
		before, err := replay(g)
		if err != nil {
			return err
		}
		for ply, m := range g.Moves {
			p := Position{Game: g.ID, Ply: ply, SFEN: before[ply].sfen, Side: record.Result(before[ply].side), Move: m, Result: g.Result}
			p.Mover = g.Players.Sente.Kind
			if p.Side == record.Gote {
				p.Mover = g.Players.Gote.Kind
			}
			if ply < len(g.Stats) {
				p.Stats = &g.Stats[ply]
			}
			if err := fn(&p); err != nil {
				return err
			}
		}
	}
}
