package solver

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// Mate is the answer of one method to "does the attacker force mate from the root within
// MaxPlies plies, and in how few?".
type Mate struct {
	Found     bool // a forced mate exists within MaxPlies plies
	Plies     int  // its exact minimal length, when Found
	MaxPlies  int  // the bound searched: when !Found, no forced mate within it is proven
	PV        []minishogi.Move
	Positions int   // distinct positions stored (graph nodes, or table entries for df-pn)
	Nodes     int64 // positions whose moves were generated
	Seconds   float64
	// UpperBound, when not 0, is the length of a forced mate found without proof that it is
	// the shortest (the retrograde method's label beyond its exactness range).
	UpperBound int
}

// attackerToMove is the role of the side to move at the root.
func attackerToMove(root *minishogi.Position, attacker minishogi.Color) bool {
	return root.SideToMove() == attacker
}

// Retro is the result of the bounded retrograde method.
type Retro struct {
	Mate
	Graph    *retro.Graph[minishogi.Code, minishogi.Code]
	Solution *retro.MateSolution
	Layers   []int // positions first reached at each ply
	Edges    int
	// Time of the last (deepest) enumeration and of its backward sweep.
	EnumerateSeconds, SweepSeconds float64
	// HeapBytes is the heap in use after the deepest enumeration, a measure of the graph's
	// size; divided by Positions it gives bytes per position.
	HeapBytes uint64
}

// RetroOptions bound the retrograde method.
type RetroOptions struct {
	MaxPlies int
	// MemoryBudget, in bytes, stops the deepening before a ply whose graph, projected from the
	// growth of the last ply, would not fit (0: no limit).
	MemoryBudget uint64
	// Progress, if not nil, is told after each depth is searched.
	Progress func(depth, positions int)
}

// SolveRetro finds the minimal forced mate by bounded retrograde analysis, deepening the ply
// bound one ply at a time: at bound D it enumerates every position reachable within D plies
// (deduplicated by exact code) and labels them backwards (retro.Graph.SolveMate), which
// decides exactly whether a mate within D plies exists. Each depth is enumerated afresh; the
// positions grow five- to sevenfold per ply, so the repeats cost about a fifth more. The next
// depth is tried only if the heap, grown by the larger of the last two plies' growth factors
// (the growth alternates with the side to move), would fit in the memory budget.
func SolveRetro(root minishogi.Position, attacker minishogi.Color, opt RetroOptions) *Retro {
	if opt.MaxPlies < 1 {
		panic(fmt.Sprintf("solver: SolveRetro: MaxPlies is %d, want 1 or more", opt.MaxPlies))
	}
	start := time.Now()
	att := attackerToMove(&root, attacker)
	var r *Retro
	var nodes int64
	lastPositions, lastGrowth := 1, 1.0
	for d := 1; d <= opt.MaxPlies; d++ {
		r = nil // let the previous depth's graph go before the next is built
		t0 := time.Now()
		gr := retro.Enumerate[minishogi.Code, minishogi.Code](codeRules{}, []minishogi.Code{root.Code()}, retro.Options{MaxPly: d})
		t1 := time.Now()
		sol := gr.SolveMate(att, nil)
		t2 := time.Now()
		r = &Retro{Graph: gr, Solution: sol, Layers: gr.Layers(), Edges: gr.Edges(),
			EnumerateSeconds: t1.Sub(t0).Seconds(), SweepSeconds: t2.Sub(t1).Seconds()}
		r.MaxPlies, r.Positions = d, gr.Len()
		r.HeapBytes = heapInUse()
		nodes += int64(gr.Len())
		if opt.Progress != nil {
			opt.Progress(d, gr.Len())
		}
		// A root label L is a real forced mate, and the graph holds every mate within d
		// plies, so the minimum lies in [d+1, L] when L > d; with the root's fixed parity of
		// mate lengths, L is therefore exact whenever L <= d+2 (see retro.Graph.SolveMate).
		plies, ok := sol.Mated(0)
		if ok {
			r.UpperBound = plies
		}
		if ok && plies <= d+2 {
			r.Found, r.Plies = true, plies
			var codes []minishogi.Code
			for _, i := range gr.MateLine(sol, 0) {
				codes = append(codes, gr.State(i))
			}
			r.PV = movesThrough(root, codes)
			break
		}
		growth := float64(gr.Len()) / float64(lastPositions)
		if opt.MemoryBudget > 0 && float64(r.HeapBytes)*max(growth, lastGrowth) > float64(opt.MemoryBudget) {
			break
		}
		lastPositions, lastGrowth = gr.Len(), growth
	}
	r.Seconds = time.Since(start).Seconds()
	r.Nodes = nodes // positions enumerated, summed over the depths
	return r
}

// movesThrough returns the moves that lead from root through the positions with the given
// codes (codes[0] is the root's).
func movesThrough(root minishogi.Position, codes []minishogi.Code) []minishogi.Move {
	var moves []minishogi.Move
	p := root
	for _, c := range codes[1:] {
		var ml minishogi.MoveList
		p.GenerateLegal(&ml)
		for _, m := range ml.Slice() {
			u := p.MakeMove(m)
			if p.Code() == c {
				moves = append(moves, m)
				break
			}
			p.UnmakeMove(m, u)
		}
	}
	return moves
}

// heapInUse returns the bytes of live heap objects after a garbage collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// DFPN is the result of the df-pn method.
type DFPN struct {
	Mate
	Proof *Proof // when Found: a proof of the mate in Plies plies
	// Stopped is set when the time limit, the node limit or Interrupt ended the search
	// before it decided; MaxPlies is then the longest length proved to have no mate (-1 if
	// none was decided).
	Stopped bool
	// Minimal is set when Plies is proved minimal (every shorter length disproved).
	Minimal bool
	// Lower is the longest length proved to have no mate (-1: none), and Certificate, when
	// asked for and small enough, shows it.
	Lower           int
	Certificate     *Certificate
	CertificateNote string
}

// DFPNOptions bound the df-pn method.
type DFPNOptions struct {
	MaxPlies int
	// MinPlies skips the lengths below it (the caller knows there is no shorter mate).
	MinPlies int
	// MemoryBudget, in bytes, sizes the transposition table (0: no limit).
	MemoryBudget uint64
	// Progress, if not nil, is told after each mate length is decided.
	Progress func(plies int, mate bool, nodes int64)
	// NoProof skips reading the proof and the principal variation off the table.
	NoProof bool
	// Upper proves one length only, MaxPlies, with no deepening: a cheap upper bound. A
	// proved mate then comes with a proof but no claim that it is minimal (Minimal is false),
	// and the lengths below are not decided.
	Upper bool
	// Certificate, if positive, reads a disproof certificate of at most that many entries for
	// the longest length disproved (Lower); a larger one is left out (CertificateNote says so).
	Certificate int
	// Workers is the number of goroutines df-pn runs on its shared table (0 or 1: one).
	Workers int
	// TimeLimit, if positive, stops the search after about that long; the result then
	// reports the longest length disproved so far (Stopped is set).
	TimeLimit time.Duration

	// Name names the problem in a checkpoint's header (a handicap's name).
	Name string
	// Checkpoint, if not nil, is given the search's state every CheckpointEvery (0: only
	// when the search stops early) and when a node limit, the time limit or Interrupt stops
	// it; WriteCheckpoint saves it.
	Checkpoint      func(*Checkpoint) error
	CheckpointEvery time.Duration
	// Resume, if not nil, continues a saved search; its header must match this search.
	Resume *Checkpoint
	// NodeLimit, if positive, stops the search cleanly at about that many nodes (counting
	// a resumed search's), as a kill would but at a chosen point.
	NodeLimit int64
	// Interrupt, when closed, stops the search (as on SIGINT) after a last checkpoint.
	Interrupt <-chan struct{}
	// Status, if not nil, is told how the search stands every StatusEvery, for a progress
	// display during a long length.
	Status      func(DFPNStatus)
	StatusEvery time.Duration
}

// DFPNStatus is how a df-pn search stands: the length being searched, the longest
// disproved (-1: none), the nodes and seconds so far (a resumed search's included), and the
// table's entries and limit (0: none).
type DFPNStatus struct {
	Plies, Disproved      int
	Nodes                 int64
	TableSize, TableLimit int
	Seconds               float64
}

// Header is the checkpoint header of the search opt describes.
func (opt DFPNOptions) Header(root minishogi.Position, attacker minishogi.Color) CheckpointHeader {
	return CheckpointHeader{Magic: checkpointMagic, Format: CheckpointFormat, Name: opt.Name,
		Root: root.Code(), Attacker: attacker, MaxPlies: opt.MaxPlies, Upper: opt.Upper}
}

// BytesPerTableEntry is the memory one df-pn table entry takes (retro.MateSearch.EntryBytes
// for Minishogi's code: the entry and its tag); the memory budget is divided by it.
const BytesPerTableEntry = 52

// SolveDFPN finds the minimal forced mate with df-pn and iterative deepening on the mate
// length (retro.MateSearch), then reads a proof and a principal variation off the table.
func SolveDFPN(root minishogi.Position, attacker minishogi.Color, opt DFPNOptions) (*DFPN, error) {
	start := time.Now()
	att := attackerToMove(&root, attacker)
	ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](moveRules{}, int(opt.MemoryBudget/BytesPerTableEntry))
	ms.SetWorkers(max(opt.Workers, 1))
	if opt.TimeLimit > 0 {
		ms.SetDeadline(start.Add(opt.TimeLimit))
	}
	disproved := -1
	if opt.MinPlies > 0 && !opt.Upper {
		disproved = opt.MinPlies - 1 // the caller's claim
	}
	if opt.Upper {
		opt.MinPlies = opt.MaxPlies
	}
	progress := func(n int, mate bool) {
		if !mate {
			disproved = n
		}
		if opt.Progress != nil {
			opt.Progress(n, mate, ms.Nodes())
		}
	}
	first := opt.MinPlies
	var before float64 // seconds of the search before a resume
	if c := opt.Resume; c != nil {
		if err := c.Header.Matches(opt.Header(root, attacker)); err != nil {
			return nil, fmt.Errorf("solver: resume: %w", err)
		}
		if err := c.State.restore(ms); err != nil {
			return nil, fmt.Errorf("solver: resume: %w", err)
		}
		first, disproved, before = c.State.Plies, c.State.Disproved, c.State.Seconds
	}
	ms.SetNodeLimit(opt.NodeLimit)
	ms.SetInterrupt(opt.Interrupt)
	save := func(plies int) error {
		if opt.Checkpoint == nil {
			return nil
		}
		c := &Checkpoint{Header: opt.Header(root, attacker), State: CheckpointState{Plies: plies,
			Disproved: disproved, Nodes: ms.Nodes(), Seconds: before + time.Since(start).Seconds(),
			table: ms.All(), size: ms.TableSize()}}
		if err := opt.Checkpoint(c); err != nil {
			return fmt.Errorf("solver: %w", err)
		}
		return nil
	}
	// The deepening runs in slices of CheckpointEvery: a slice ends at a deadline, the
	// state is saved, and the same length is searched on from the table, which kept the
	// work (retro.MateSearch.SetDeadline).
	var end time.Time
	if opt.TimeLimit > 0 {
		end = start.Add(opt.TimeLimit)
	}
	status := func(n int) {
		if opt.Status != nil {
			opt.Status(DFPNStatus{Plies: n, Disproved: disproved, Nodes: ms.Nodes(), TableSize: ms.TableSize(),
				TableLimit: int(opt.MemoryBudget / BytesPerTableEntry), Seconds: before + time.Since(start).Seconds()})
		}
	}
	// next returns the time of the next periodic event (every), or the zero time.
	next := func(on bool, every time.Duration) time.Time {
		if !on || every <= 0 {
			return time.Time{}
		}
		return time.Now().Add(every)
	}
	earliest := func(ts ...time.Time) time.Time {
		var e time.Time
		for _, t := range ts {
			if !t.IsZero() && (e.IsZero() || t.Before(e)) {
				e = t
			}
		}
		return e
	}
	deepen := func() (int, bool, error) {
		n := first
		if att == (n%2 == 0) {
			n++
		}
		nextSave := next(opt.Checkpoint != nil, opt.CheckpointEvery)
		nextStatus := next(opt.Status != nil, opt.StatusEvery)
		for n <= opt.MaxPlies {
			ms.SetDeadline(earliest(end, nextSave, nextStatus))
			ok, err := ms.Prove(root, att, n)
			now := time.Now()
			if errors.Is(err, retro.ErrDeadline) && (end.IsZero() || now.Before(end)) {
				// A slice ended, not the search: save or report, and search on.
				if !nextSave.IsZero() && !now.Before(nextSave) {
					if serr := save(n); serr != nil {
						return 0, false, serr
					}
					nextSave = next(true, opt.CheckpointEvery)
				}
				if !nextStatus.IsZero() && !now.Before(nextStatus) {
					status(n)
					nextStatus = next(true, opt.StatusEvery)
				}
				continue
			}
			if err != nil {
				if errors.Is(err, retro.ErrDeadline) || errors.Is(err, retro.ErrNodeLimit) || errors.Is(err, retro.ErrInterrupted) {
					if serr := save(n); serr != nil {
						return 0, false, serr
					}
					return 0, false, retro.ErrDeadline // stopped early: reported as Stopped
				}
				return 0, false, err
			}
			progress(n, ok)
			if ok {
				return n, true, nil
			}
			n += 2
		}
		return 0, false, nil
	}
	plies, found, err := deepen()
	if errors.Is(err, retro.ErrDeadline) {
		r := &DFPN{Stopped: true, Lower: disproved}
		r.MaxPlies, r.Positions, r.Nodes = disproved, ms.TableSize(), ms.Nodes()
		ms.SetDeadline(time.Time{})
		r.certify(ms, root, att, opt.Certificate)
		r.Seconds = before + time.Since(start).Seconds()
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("solver: df-pn: %w", err)
	}
	r := &DFPN{Lower: disproved}
	r.Found, r.Plies, r.MaxPlies = found, plies, opt.MaxPlies
	r.Minimal = found && !opt.Upper
	if !found && !opt.Upper {
		r.Lower = opt.MaxPlies
	}
	ms.SetDeadline(time.Time{}) // reading the proof off the table must not be cut short
	if found && !opt.NoProof {
		if r.Proof, err = ms.Proof(root, att, plies); err != nil {
			return nil, fmt.Errorf("solver: df-pn: %w", err)
		}
	}
	if found && !opt.NoProof && r.Minimal {
		if r.PV, err = ms.MateLine(root, att, plies); err != nil {
			return nil, fmt.Errorf("solver: df-pn: %w", err)
		}
	}
	if err := r.certify(ms, root, att, opt.Certificate); err != nil {
		return nil, err
	}
	r.Positions, r.Nodes = ms.TableSize(), ms.Nodes()
	r.Seconds = before + time.Since(start).Seconds()
	return r, nil
}

// certify reads a disproof certificate for r.Lower plies off the table, within maxEntries.
func (r *DFPN) certify(ms *retro.MateSearch[minishogi.Position, minishogi.Move, minishogi.Code], root minishogi.Position, att bool, maxEntries int) error {
	if maxEntries <= 0 || r.Lower < 0 {
		return nil
	}
	d, err := ms.Disproof(root, att, r.Lower, maxEntries)
	switch {
	case errors.Is(err, retro.ErrTooLarge):
		r.CertificateNote = fmt.Sprintf("the certificate of no mate within %d plies has over %d entries; not written", r.Lower, maxEntries)
		return nil
	case err != nil:
		return fmt.Errorf("solver: df-pn: %w", err)
	}
	r.Certificate = d
	return nil
}
