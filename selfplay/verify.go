package selfplay

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// VerifySummary counts what Verify read.
type VerifySummary struct {
	Files        int                        `json:"files"`
	Games        int                        `json:"games"`
	Plies        int                        `json:"plies"`
	Results      map[record.Result]int      `json:"results"`
	Terminations map[record.Termination]int `json:"terminations"`
}

// VerifyOptions are Verify's optional checks.
type VerifyOptions struct {
	// CheckSeeds makes Verify also check that every game's seed is
	// GameSeed(Seed, id): the records come from a run with base seed Seed.
	CheckSeeds bool
	Seed       uint64
}

// Verify replays every record of the files with the rules and stops at the
// first bad one, returning a *record.LineError that names its file and
// line. See VerifyGame for what is checked. A game id found twice in one
// directory is also an error, naming both places: a run's shards share a
// directory and its ids are unique (files of other runs, such as the ladder's,
// live in directories of their own). Cancelling ctx stops it with ctx's
// error.
func Verify(ctx context.Context, paths []string, opts VerifyOptions) (VerifySummary, error) {
	sum := VerifySummary{Files: len(paths), Results: map[record.Result]int{}, Terminations: map[record.Termination]int{}}
	type game struct {
		dir string
		id  int
	}
	type place struct {
		file string
		line int
	}
	seen := map[game]place{} // some tens of bytes per game: millions fit
	for _, p := range paths {
		dir := filepath.Dir(p)
		err := eachRecord(ctx, p, func(line int, g *record.Game) error {
			if prev, dup := seen[game{dir, g.ID}]; dup {
				return fmt.Errorf("game %d is also in %s:%d: a directory holds one run, whose ids are unique (did two runs write it at once?)", g.ID, prev.file, prev.line)
			}
			seen[game{dir, g.ID}] = place{p, line}
			if err := VerifyGame(g); err != nil {
				return err
			}
			if opts.CheckSeeds && g.Seed != GameSeed(opts.Seed, g.ID) {
				return fmt.Errorf("game %d: seed %d is not that of base seed %d", g.ID, g.Seed, opts.Seed)
			}
			sum.Games++
			sum.Plies += g.Plies
			sum.Results[g.Result]++
			sum.Terminations[g.Termination]++
			return nil
		})
		if err != nil {
			return sum, fmt.Errorf("selfplay: verify: %w", err)
		}
	}
	return sum, nil
}

// VerifyGame replays g with the rules: the start must be a Minishogi
// position, every move legal when it is played and none after the game has
// ended, and the end must match the record:
//
//   - when the rules end the game after the last move (checkmate,
//     stalemate, repetition, perpetual check, the play limit), the record
//     must give that termination and result;
//   - otherwise the game ended off the board: resignation, illegal_move or
//     time_forfeit (the side to move, which resigned, answered an illegal
//     move or overstepped its clock, lost)
//     or engine_error (either side's engine failed; not a draw).
func VerifyGame(g *record.Game) error {
	if err := verifyGame(g); err != nil {
		return fmt.Errorf("game %d: %w", g.ID, err)
	}
	return nil
}

func verifyGame(g *record.Game) error {
	if g.Variant != "minishogi" {
		return fmt.Errorf("variant %q is not minishogi", g.Variant)
	}
	start, err := minishogi.ParseSFEN(g.Start)
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	rep, err := minishogi.ParseRepetitionRule(g.Rules.Repetition)
	if err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	if g.Plies != len(g.Moves) {
		return fmt.Errorf("plies is %d but there are %d moves", g.Plies, len(g.Moves))
	}
	game := minishogi.NewGame(start, minishogi.GameOptions{Repetition: rep, MaxPlies: g.Rules.MaxPlies})
	for i, m := range g.Moves {
		if res := game.Result(); res.Over() {
			return fmt.Errorf("move %d %s comes after the game ended by %s", i+1, m, res.Termination)
		}
		if err := game.PlayUSI(m); err != nil {
			return fmt.Errorf("move %d %s: %w", i+1, m, err)
		}
	}
	res := game.Result()
	if res.Over() {
		want := record.Termination(res.Termination.String())
		if g.Termination != want || g.Result != record.Result(res.String()) {
			return fmt.Errorf("the moves end in %s (%s) but the record says %s (%s)", want, res, g.Termination, g.Result)
		}
		return nil
	}
	pos := game.Position()
	toMove := record.Result(pos.SideToMove().String())
	switch g.Termination {
	case record.Resignation, record.IllegalMove, record.TimeForfeit:
		if g.Result == toMove || g.Result == record.Draw {
			return fmt.Errorf("%s by %s, the side to move, but the result is %s", g.Termination, toMove, g.Result)
		}
	case record.EngineError:
		if g.Result == record.Draw {
			return errors.New("engine_error but the result is a draw")
		}
	default:
		return fmt.Errorf("termination %s but the game is not over after its %d moves", g.Termination, g.Plies)
	}
	return nil
}
