// Package data turns game records and labels tables (train/label) into training examples
// for the evaluators' fits: one example per distinct position, with the game's result and
// the search's root value as targets, split into a training and a held-out set by game id
// (a labelled position, which belongs to no game here, by a hash of the position).
//
// A tour:
//
//	set, err := data.Load([]string{"games.jsonl.gz"}, data.Options{HeldOut: 0.1})
//	for _, ex := range set.Train { ... ex.Pos, ex.Target(0.5) ... }
//
// The split: a game is held out when a hash of its id (SplitMix64, see heldOut) falls in
// the held-out fraction, so it depends on the ids alone and not on the order of files or
// games. Duplicates: positions (board, hands, side to move, not the move number) that occur
// more than once in a set are one example whose targets are the means over the
// occurrences; a position of a held-out game that also occurs in a training game is left
// out of the held-out set, so the held-out loss is measured on positions the fit never saw.
package data

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	ms "github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/train/labels"
)

// Example is one distinct position with its targets, both for the side to move.
type Example struct {
	Pos ms.Position
	// Result is the mean outcome of the games the position occurred in: +1 won, -1
	// lost, 0 drawn, for the side to move.
	Result float32
	// Value is the mean root value of the searches at the position, in [-1, 1] (for an
	// external engine, its score mapped by selfplay's convention); where no search
	// statistics were recorded, Result stands in.
	Value float32
	// Count is how many times the position occurred.
	Count int
	// Policy is where to move, the mean of the occurrences' targets (recordTarget: the
	// search's visit shares, or the move an external engine played); nil when no
	// occurrence had one.
	Policy PolicyTarget
}

// Target mixes the two targets: lambda·Result + (1-lambda)·Value.
func (e *Example) Target(lambda float32) float32 {
	return lambda*e.Result + (1-lambda)*e.Value
}

// Options control Load.
type Options struct {
	// HeldOut is the fraction of games (by the hash of their id) held out, 0 to 1.
	HeldOut float64
	// MaxPly, if positive, drops positions at or beyond that ply (0: keep all).
	MaxPly int
	// Mirror adds to the training set the mirror image (Mirror) of each of its
	// positions that is not there already, with the same targets.
	Mirror bool
}

// Set is the examples of some record files.
type Set struct {
	Train, Held []Example
	Games       int // games read
	Positions   int // positions read, duplicates included
	HeldGames   int
	Dropped     int    // held-out positions left out because a training game has them
	Mirrored    int    // training examples added as mirror images
	Labelled    int    // rows read from labels tables (counted in Positions too)
	Digest      string // SHA-256 of the files' bytes, in order
}

// Describe is a one-line account of the set, for an evaluation file's header.
func (s *Set) Describe() string {
	mirrored := ""
	if s.Mirrored > 0 {
		mirrored = fmt.Sprintf(" (%d of them mirror images)", s.Mirrored)
	}
	labelled := ""
	if s.Labelled > 0 {
		labelled = fmt.Sprintf(" and %d labelled positions", s.Labelled)
	}
	return fmt.Sprintf("%d games (%d held out)%s, %d positions, %d distinct for training%s, %d held out; sha256 %s",
		s.Games, s.HeldGames, labelled, s.Positions, len(s.Train), mirrored, len(s.Held), s.Digest)
}

// heldOut reports whether game id is held out: SplitMix64 of the id (Steele, Lea and
// Flood, "Fast splittable pseudorandom number generators", 2014) as a fraction of 2^64.
func heldOut(id int, frac float64) bool {
	z := uint64(id) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11)/(1<<53) < frac
}

// accum gathers the occurrences of one position.
type accum struct {
	pos           ms.Position
	result, value float64
	count         int
	policy        PolicyTarget // the sum of the occurrences' targets
	policyN       int          // occurrences with a target
}

// checkAndDigest checks o and returns the digest of the files at paths: what Load and
// LoadPolicy do before reading.
func checkAndDigest(paths []string, o Options) (string, error) {
	if !(o.HeldOut >= 0 && o.HeldOut <= 1) {
		return "", fmt.Errorf("data: held-out fraction %v; need 0 to 1", o.HeldOut)
	}
	return digestFiles(paths)
}

// Load reads the positions of the record files or tables at paths (table.Positions), and
// the rows of the labels tables among them (labelExample), in the order of paths.
func Load(paths []string, o Options) (*Set, error) {
	digest, err := checkAndDigest(paths, o)
	if err != nil {
		return nil, err
	}
	s := &Set{Digest: digest}
	var sets [2]map[uint64]*accum // 0: train, 1: held out
	var order [2][]uint64         // first-seen order, so that the examples come out reproducibly
	sets[0], sets[1] = map[uint64]*accum{}, map[uint64]*accum{}
	// add counts one occurrence of pos in set which (0 train, 1 held out).
	add := func(which int, pos ms.Position, result, value float64, target PolicyTarget) {
		key := pos.Hash()
		a := sets[which][key]
		if a == nil {
			a = &accum{pos: pos}
			sets[which][key] = a
			order[which] = append(order[which], key)
		}
		a.result += result
		a.value += value
		a.count++
		if target != nil {
			for _, mp := range target {
				a.policy = a.policy.add(mp.Move, mp.P)
			}
			a.policyN++
		}
	}
	lastGame := -1
	fromRecords := func(p *table.Position) error {
		if p.Game != lastGame || p.Ply == 0 {
			s.Games++
			lastGame = p.Game
			if heldOut(p.Game, o.HeldOut) {
				s.HeldGames++
			}
		}
		s.Positions++
		if o.MaxPly > 0 && p.Ply >= o.MaxPly {
			return nil
		}
		pos, err := ms.ParseSFEN(p.SFEN)
		if err != nil {
			return fmt.Errorf("data: game %d ply %d: %w", p.Game, p.Ply, err)
		}
		result, ok := outcome(p.Result, p.Side)
		if !ok {
			return fmt.Errorf("data: game %d: result %q", p.Game, p.Result)
		}
		value := result
		if p.Stats != nil {
			value = p.Stats.Value
		}
		which := 0
		if heldOut(p.Game, o.HeldOut) {
			which = 1
		}
		target, err := recordTarget(&pos, p)
		if err != nil {
			return fmt.Errorf("data: game %d ply %d: %w", p.Game, p.Ply, err)
		}
		add(which, pos, result, value, target)
		return nil
	}
	fromLabels := func(path string, r labels.Row) error {
		s.Labelled++
		s.Positions++
		if o.MaxPly > 0 && r.Ply != nil && *r.Ply >= o.MaxPly {
			return nil
		}
		ex, held, err := labelExample(path, r, o.HeldOut)
		if err != nil {
			return err
		}
		which := 0
		if held {
			which = 1
		}
		add(which, ex.Pos, float64(ex.Result), float64(ex.Value), ex.Policy)
		return nil
	}
	for _, path := range paths {
		if table.IsParquet(path) {
			kind, err := table.KindOf(path)
			if err != nil {
				return nil, fmt.Errorf("data: %w", err)
			}
			if kind == labels.Table {
				err := labels.Rows([]string{path}, func(r labels.Row) error { return fromLabels(path, r) })
				if err != nil {
					return nil, err
				}
				continue
			}
		}
		if err := table.Positions([]string{path}, fromRecords); err != nil {
			return nil, err
		}
	}
	for which := range sets {
		for _, key := range order[which] {
			a := sets[which][key]
			if which == 1 && sets[0][key] != nil {
				s.Dropped++
				continue
			}
			n := float64(a.count)
			ex := Example{Pos: a.pos, Result: float32(a.result / n), Value: float32(a.value / n), Count: a.count}
			if a.policyN > 0 {
				ex.Policy = a.policy
				ex.Policy.scale(1 / float32(a.policyN))
			}
			if which == 0 {
				s.Train = append(s.Train, ex)
			} else {
				s.Held = append(s.Held, ex)
			}
		}
	}
	if o.Mirror {
		n := len(s.Train)
		if s.Train, err = addMirrors(s.Train); err != nil {
			return nil, err
		}
		s.Mirrored = len(s.Train) - n
	}
	return s, nil
}

// outcome is the result for the side to move: +1, -1 or 0.
func outcome(r, side record.Result) (float64, bool) {
	switch r {
	case record.Draw:
		return 0, true
	case side:
		return 1, true
	case record.Sente, record.Gote:
		return -1, true
	}
	return 0, false
}

func digestFiles(paths []string) (string, error) {
	h := sha256.New()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return "", fmt.Errorf("data: %w", err)
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("data: %s: %w", p, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}
