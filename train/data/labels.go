package data

import (
	"fmt"

	ms "github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/train/labels"
)

// labelExample is the example of one row of a labels table (train/label): a position a deep
// search labelled, whose policy target is the labeller's best move and whose value target is
// the labeller's score as an expected outcome (labels.Row.Value). Its Result is the outcome
// of the game the position was first found in, where the row knows it (labels.Row.Score: 1,
// 0.5 or 0, as +1, 0, -1); where it does not (a position of an SFEN file), the value stands
// in, so that every λ-mix of the two is the labeller's value.
//
// A row is held out by a hash of its position (heldOut of minishogi's Hash), not of a game:
// a labels table holds each position once, so the split depends on the position alone and
// not on the order of the tables or their rows.
func labelExample(path string, r labels.Row, frac float64) (ex Example, held bool, err error) {
	pos, err := ms.ParseSFEN(r.SFEN)
	if err != nil {
		return Example{}, false, fmt.Errorf("data: %s: row %d (%s): %w", path, r.Index, r.SFEN, err)
	}
	target, err := PlayedTarget(&pos, r.Move)
	if err != nil {
		return Example{}, false, fmt.Errorf("data: %s: row %d (%s): %w", path, r.Index, r.SFEN, err)
	}
	result := r.Value
	if r.Score != nil {
		result = 2**r.Score - 1
	}
	ex = Example{Pos: pos, Result: float32(result), Value: float32(r.Value), Count: 1, Policy: target}
	return ex, heldOut(int(pos.Hash()), frac), nil
}
