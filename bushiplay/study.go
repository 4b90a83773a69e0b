package bushiplay

import (
	"runtime"
	"sync"

	"github.com/shogilab/shogilab/rules/bushi"
)

// NumLayoutClasses is the number of layouts up to rotation of the cube, by Burnside's lemma
// (see the test of bushi.CanonicalLayouts): (16^6 + 8·16^2 + 6·16^3)/24.
const NumLayoutClasses = 700160

// LayoutResult is one layout's game solved from the empty board.
type LayoutResult struct {
	Layout bushi.Layout // canonical: least code among its rotations
	Orbit  int          // how many of the 16^6 raw layouts are rotations of it
	Result Result
	Plies  int // game length under perfect play; −1 for a draw
}

// Study tallies every layout's result.
type Study struct {
	Classes Counts // canonical layouts, each once
	Raw     Counts // all 16^6 layouts, each class weighted by its orbit
	// Example holds, per Result, the canonical layout with the least code that has it (nil
	// if none does).
	Example [3]*LayoutResult
	Longest [3]*LayoutResult // per Result, a layout with the longest game (least code on ties)
}

// StudyOptions configure StudyLayouts.
type StudyOptions struct {
	Workers  int            // goroutines solving layouts; all CPUs if < 1
	Limit    int            // if positive, study only the first Limit classes (by code)
	Progress func(done int) // if not nil, called from one goroutine with the classes done
}

// StudyLayouts solves every canonical layout (NumLayoutClasses of them, or opt.Limit) from the
// empty board in parallel. The result does not depend on the number of workers.
func StudyLayouts(opt StudyOptions) Study {
	workers := opt.Workers
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	const batchSize = 512 // large enough that channel traffic is negligible
	batches := make(chan []LayoutResult, workers)
	done := make(chan []LayoutResult, workers)
	go func() {
		batch := make([]LayoutResult, 0, batchSize)
		classes := 0
		for l, orbit := range bushi.CanonicalLayouts() {
			if classes++; opt.Limit > 0 && classes > opt.Limit {
				break
			}
			batch = append(batch, LayoutResult{Layout: l, Orbit: orbit})
			if len(batch) == batchSize {
				batches <- batch
				batch = make([]LayoutResult, 0, batchSize)
			}
		}
		batches <- batch
		close(batches)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var rs rootSolver
			for batch := range batches {
				for i := range batch {
					r, err := bushi.NewRules(batch[i].Layout)
					if err != nil {
						panic(err) // every code decodes to a valid layout
					}
					batch[i].Result, batch[i].Plies = rs.solve(r)
				}
				done <- batch
			}
		})
	}
	go func() { wg.Wait(); close(done) }()

	var st Study
	n := 0
	for batch := range done {
		for i := range batch {
			st.add(&batch[i])
		}
		n += len(batch)
		if opt.Progress != nil {
			opt.Progress(n)
		}
	}
	return st
}

func (st *Study) add(lr *LayoutResult) {
	st.Classes.add(lr.Result)
	switch lr.Result {
	case BlackWins:
		st.Raw.BlackWins += lr.Orbit
	case WhiteWins:
		st.Raw.WhiteWins += lr.Orbit
	default:
		st.Raw.Draws += lr.Orbit
	}
	code := lr.Layout.Code()
	if ex := st.Example[lr.Result]; ex == nil || code < ex.Layout.Code() {
		c := *lr
		st.Example[lr.Result] = &c
	}
	if lo := st.Longest[lr.Result]; lo == nil || lr.Plies > lo.Plies || lr.Plies == lo.Plies && code < lo.Layout.Code() {
		c := *lr
		st.Longest[lr.Result] = &c
	}
}
