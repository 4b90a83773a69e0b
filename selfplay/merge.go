package selfplay

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
)

// MergeSummary is what Merge wrote.
type MergeSummary struct {
	Files int    `json:"files"`
	Games int    `json:"games"`
	Out   string `json:"out"`
}

// Merge combines shard files into out (gzip when its name ends in .gz),
// sorted by id. It fails, writing nothing, when an id appears twice (naming
// both places) or when an id is missing: with games > 0 the run must hold
// ids 0..games-1 exactly; with games 0, every id from 0 to the largest
// found. The merged file is written through package atomicfile, so out is
// never partial and keeps its previous content on any failure. Cancelling
// ctx stops it with ctx's error, writing nothing.
//
// Merge holds every game in memory (a Minishogi record is a few kilobytes;
// a million games need a few gigabytes).
func Merge(ctx context.Context, paths []string, out string, games int) (MergeSummary, error) {
	sum := MergeSummary{Files: len(paths), Out: out}
	if len(paths) == 0 {
		return sum, fmt.Errorf("selfplay: merge: no input files")
	}
	if table.IsParquet(out) {
		return sum, fmt.Errorf("selfplay: merge: %s: merge writes record files; make Parquet tables of the merged file with selfplay export --format parquet", out)
	}
	if outInfo, err := os.Stat(out); err == nil {
		for _, p := range paths {
			if in, err := os.Stat(p); err == nil && os.SameFile(in, outInfo) {
				return sum, fmt.Errorf("selfplay: merge: the output %s is also an input (%s): write the merged file elsewhere", out, p)
			}
		}
	}
	type place struct {
		file string
		line int
	}
	byID := map[int]*record.Game{}
	where := map[int]place{}
	for _, p := range paths {
		err := eachRecord(ctx, p, func(line int, g *record.Game) error {
			if prev, dup := where[g.ID]; dup {
				return fmt.Errorf("game %d is also in %s:%d", g.ID, prev.file, prev.line)
			}
			byID[g.ID] = g
			where[g.ID] = place{p, line}
			return nil
		})
		if err != nil {
			return sum, fmt.Errorf("selfplay: merge: %w", err)
		}
	}
	want := games
	if want == 0 {
		for id := range byID {
			if id == math.MaxInt {
				return sum, fmt.Errorf("selfplay: merge: game %d (in %s): no run has that many games", id, where[id].file)
			}
			want = max(want, id+1)
		}
	}
	// What is missing is counted from the ids present, and the first few are named: the
	// memory goes with the games, never with the id range (issue 33: a string for every
	// missing id of a billion took 24 GB).
	if missing, first := missingIDs(byID, want, 10); missing > 0 {
		names := make([]string, len(first))
		for i, id := range first {
			names[i] = strconv.Itoa(id)
		}
		more := ""
		if missing > len(first) {
			more = ", ..."
		}
		return sum, fmt.Errorf("selfplay: merge: %d of %d games missing, ids %s%s", missing, want, strings.Join(names, ", "), more)
	}
	if len(byID) > want {
		var extra []int
		for id := range byID {
			if id >= want {
				extra = append(extra, id)
			}
		}
		slices.Sort(extra)
		return sum, fmt.Errorf("selfplay: merge: game %d (in %s) is beyond the %d games asked for", extra[0], where[extra[0]].file, want)
	}

	f, err := atomicfile.Create(out)
	if err != nil {
		return sum, fmt.Errorf("selfplay: merge: %w", err)
	}
	defer f.Abort()
	w := record.NewWriter(f)
	if strings.HasSuffix(out, ".gz") {
		w = record.NewGzipWriter(f)
	}
	for id := range want {
		if ctx.Err() != nil {
			return sum, fmt.Errorf("selfplay: merge: %w", ctx.Err())
		}
		if err := w.Write(byID[id]); err != nil {
			return sum, fmt.Errorf("selfplay: merge: %w", err)
		}
	}
	if err := f.Commit(); err != nil {
		return sum, fmt.Errorf("selfplay: merge: %w", err)
	}
	sum.Games = want
	return sum, nil
}

// missingIDs counts the ids from 0 to want-1 that games lacks and returns the first n of
// them, in time and memory that go with the games present, not with want.
func missingIDs(games map[int]*record.Game, want, n int) (missing int, first []int) {
	ids := make([]int, 0, len(games))
	for id := range games {
		if id < want {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	next := 0 // the smallest id not yet accounted for
	for _, id := range append(ids, want) {
		for ; next < id && len(first) < n; next++ {
			first = append(first, next)
		}
		next = id + 1
	}
	return want - len(ids), first
}
