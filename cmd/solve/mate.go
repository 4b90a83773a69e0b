package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shogilab/shogilab/analysis/matestats"
	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/internal/filelock"
	"github.com/shogilab/shogilab/internal/sysmem"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/solver"
)

// plotStudy saves the study's two figures in dir, name-layers and name-distances, and
// returns the paths written.
func plotStudy(st *solver.Study, dir, name, title string, attacker minishogi.Color, opts figure.Options) ([]string, error) {
	side := "Sente"
	if attacker == minishogi.Gote {
		side = "Gote"
	}
	layers, distances := matestats.Charts(matestats.Study(*st), title, side)
	var paths []string
	for _, c := range []struct {
		chart  figure.Chart
		suffix string
	}{{layers, "-layers"}, {distances, "-distances"}} {
		p, err := c.chart.Plot()
		if err != nil {
			return nil, err
		}
		more, err := p.Save(dir, name+c.suffix, opts)
		if err != nil {
			return nil, err
		}
		paths = append(paths, more...)
	}
	return paths, nil
}

// mateFlags are the flags shared by solve mate and solve handicap.
type mateFlags struct {
	maxPlies   int
	retroPlies int
	memory     string
	threads    int
	workers    int
	upper      bool
	certFile   string
	certMax    int
	proofFile  string
	json       bool
	plotDir    string
	plots      figure.Options
	studyPlies int
	timeLimit  time.Duration
	checkpoint string
	every      time.Duration
	resume     string
	nodeLimit  int64
	status     time.Duration
}

func (f *mateFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.maxPlies, "max-plies", 21, "search for mates of at most `N` plies")
	fs.IntVar(&f.retroPlies, "retro-plies", 10, "bound the retrograde cross-check to `N` plies (0: skip it); it also stops when its next ply would not fit in half the memory budget")
	fs.StringVar(&f.memory, "memory", "4GiB", "memory `budget` (such as 512MiB, 6GiB): half for the retrograde graph, half for the df-pn table when both run")
	fs.IntVar(&f.threads, "threads", 2, "with 2 or more, run the retrograde method and df-pn side by side; with 1, one after the other")
	fs.IntVar(&f.workers, "workers", 1, "run df-pn on `N` goroutines sharing one table (parallel df-pn with virtual proof numbers)")
	fs.BoolVar(&f.upper, "upper", false, "prove a mate within --max-plies directly, with no deepening: an upper bound (proof checked) that is not claimed minimal")
	fs.StringVar(&f.certFile, "certificate", "", "write a disproof certificate of the lower bound (no mate within L plies) to `FILE`, when it has at most --certificate-max entries")
	fs.IntVar(&f.certMax, "certificate-max", 200000, "the most entries a disproof certificate may have (`N`)")
	fs.StringVar(&f.proofFile, "proof", "", "write the proof of the mate to `FILE` (text; see solver.WriteProof)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the table")
	fs.StringVar(&f.plotDir, "out", "", "also study the reachable graph and save its plots in `DIR`, in the formats of --format")
	fs.StringVar(&f.plotDir, "plot", "", "the same as --out")
	f.plots = figure.Screen()
	f.plots.AddFlags(fs)
	fs.IntVar(&f.studyPlies, "study-plies", 8, "with --out: the graph's ply bound")
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "stop df-pn after `DURATION` (such as 30m) and report the longest length proved to have no mate (0: no limit)")
	fs.StringVar(&f.checkpoint, "checkpoint", "", "save the df-pn search to `FILE` every --every, on SIGINT or SIGTERM, and when a limit stops it (see solver.CheckpointFormat)")
	fs.DurationVar(&f.every, "every", 10*time.Minute, "with --checkpoint: the `DURATION` between checkpoints")
	fs.StringVar(&f.resume, "resume", "", "continue the df-pn search saved in `FILE` (same problem and --max-plies, --upper)")
	fs.DurationVar(&f.status, "status-every", 30*time.Second, "show df-pn's state (length searched, nodes, nodes/s, table fill, elapsed, an estimate) on stderr every `DURATION` (0: never)")
	fs.Int64Var(&f.nodeLimit, "node-limit", 0, "stop df-pn cleanly after about `N` nodes, counting a resumed search's (0: no limit)")
}

func (f *mateFlags) check() (budget uint64, err error) {
	switch {
	case f.maxPlies < 0 || f.maxPlies > 200:
		return 0, cli.Usagef("--max-plies is %d, want 0..200", f.maxPlies)
	case f.retroPlies < 0:
		return 0, cli.Usagef("--retro-plies is %d, want 0 or more", f.retroPlies)
	case f.workers < 1 || f.workers > 256:
		return 0, cli.Usagef("--workers is %d, want 1..256", f.workers)
	case f.threads < 1:
		return 0, cli.Usagef("--threads is %d, want 1 or more", f.threads)
	case f.timeLimit < 0:
		return 0, cli.Usagef("--time-limit is %v, want 0 or more", f.timeLimit)
	case f.studyPlies < 1:
		return 0, cli.Usagef("--study-plies is %d, want 1 or more", f.studyPlies)
	case f.every <= 0:
		return 0, cli.Usagef("--every is %v, want more than 0", f.every)
	case f.status < 0:
		return 0, cli.Usagef("--status-every is %v, want 0 or more", f.status)
	case f.nodeLimit < 0:
		return 0, cli.Usagef("--node-limit is %d, want 0 or more", f.nodeLimit)
	}
	budget, err = parseBytes(f.memory)
	if err != nil {
		return 0, cli.Usagef("--memory: %v", err)
	}
	// Where the results go is checked before the search, not after it.
	if f.proofFile != "" {
		if err := cli.CheckOutputFile(f.proofFile); err != nil {
			return 0, fmt.Errorf("--proof: %w", err)
		}
	}
	if f.certFile != "" {
		if err := cli.CheckOutputFile(f.certFile); err != nil {
			return 0, fmt.Errorf("--certificate: %w", err)
		}
		if f.certMax < 1 {
			return 0, cli.Usagef("--certificate-max is %d, want 1 or more", f.certMax)
		}
	}
	if f.plotDir != "" {
		if err := cli.CheckOutputDir(f.plotDir); err != nil {
			return 0, fmt.Errorf("--out: %w", err)
		}
	}
	return budget, nil
}

// parseBytes reads a size such as 6GiB, 512MiB, 100MB or 1000000.
func parseBytes(s string) (uint64, error) {
	units := []struct {
		suffix string
		scale  uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	// The number is read without its unit, but the error quotes the size as typed
	// (docs/architecture.md#commands): "-5GiB", not "-5".
	number, scale := s, uint64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			number, scale = strings.TrimSuffix(s, u.suffix), u.scale
			break
		}
	}
	n, err := strconv.ParseFloat(number, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size such as 6GiB or 512MiB", s)
	}
	return uint64(n * float64(scale)), nil
}

func runMate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f mateFlags
	var sfen, attacker string
	fs := flag.NewFlagSet("solve mate", flag.ContinueOnError)
	fs.StringVar(&sfen, "sfen", "", "the root position in SFEN (required)")
	fs.StringVar(&attacker, "attacker", "", "the side that must mate: b (Sente) or w (Gote) (required)")
	f.register(fs)
	if err := cli.ParseHelp(fs, args, stdout, `usage: solve mate --sfen SFEN --attacker b|w [flags]

Finds the shortest forced mate of the attacker from the position, or proves there is none
within --max-plies plies, by two independent methods: df-pn with iterative deepening on the
mate length, and bounded retrograde analysis (every position within N plies, labelled
backwards). Prints the length, a principal variation (the defender's longest defence), the
work done, and whether the proof read off df-pn passed the checker.`); err != nil {
		return err
	}
	if sfen == "" || attacker == "" {
		return cli.Usagef("--sfen and --attacker are required")
	}
	root, err := minishogi.ParseSFEN(sfen)
	if err != nil {
		return cli.Usagef("--sfen: %v", err)
	}
	side, err := solver.ParseColor(attacker)
	if err != nil {
		return cli.Usagef("--attacker: %v", err)
	}
	return solveMate(ctx, f, "", root, side, stdout, stderr)
}

// mateReport is the --json object.
type mateReport struct {
	Handicap  string `json:"handicap,omitempty"`
	SFEN      string `json:"sfen"`
	Attacker  string `json:"attacker"`
	MaxPlies  int    `json:"max_plies"`
	MatePlies *int   `json:"mate_plies"`
	// NoMateWithin is the longest length proved to have no mate: max_plies, or less when
	// the search was stopped early. Stopped says it was: by --time-limit, --node-limit, or
	// SIGINT or SIGTERM (which one, stderr says).
	NoMateWithin *int     `json:"no_mate_within,omitempty"`
	Stopped      bool     `json:"stopped,omitempty"`
	PV           []string `json:"pv"`
	Positions    int      `json:"positions"`
	Nodes        int64    `json:"nodes"`
	Seconds      float64  `json:"seconds"`
	ProofChecked bool     `json:"proof_checked"`
	ProofEntries int      `json:"proof_entries"`
	ProofFile    string   `json:"proof_file,omitempty"`
	ProofBytes   int64    `json:"proof_bytes,omitempty"`
	PeakRSSBytes uint64   `json:"peak_rss_bytes"`
	// Bounds are the two sides of the result, each saying whether it is certified.
	Bounds boundsJSON `json:"bounds"`
	DFPN   methodJSON `json:"dfpn"`
	Retro  *retroJSON `json:"retro,omitempty"`
	Study  *studyJSON `json:"study,omitempty"`
	Plots  []string   `json:"plots,omitempty"`
}

// boundsJSON is the result as two separate bounds: a mate within at most Upper plies (a
// proof, checked) and no mate within Lower plies (proved by the search; certified when a
// disproof certificate was written and passed its checker).
type boundsJSON struct {
	Upper          *int   `json:"mate_within"`
	UpperCertified bool   `json:"mate_within_certified"`
	Lower          *int   `json:"no_mate_within"`
	LowerCertified bool   `json:"no_mate_within_certified"`
	Exact          bool   `json:"exact"`
	Certificate    string `json:"certificate_file,omitempty"`
	CertBytes      int64  `json:"certificate_bytes,omitempty"`
	CertEntries    int    `json:"certificate_entries,omitempty"`
	CertNote       string `json:"certificate_note,omitempty"`
}

type methodJSON struct {
	MatePlies *int     `json:"mate_plies"`
	PV        []string `json:"pv"`
	Positions int      `json:"positions"`
	Nodes     int64    `json:"nodes"`
	Seconds   float64  `json:"seconds"`
}

type retroJSON struct {
	methodJSON
	SearchedPlies      int     `json:"searched_plies"`
	UpperBound         int     `json:"upper_bound,omitempty"`
	Layers             []int   `json:"layers"`
	Edges              int     `json:"edges"`
	EnumerateSeconds   float64 `json:"enumerate_seconds"`
	SweepSeconds       float64 `json:"sweep_seconds"`
	EnumeratePerSecond float64 `json:"enumerate_positions_per_second"`
	SweepPerSecond     float64 `json:"sweep_positions_per_second"`
	HeapBytes          uint64  `json:"heap_bytes"`
	BytesPerPosition   float64 `json:"bytes_per_position"`
}

type studyJSON struct {
	Plies           int   `json:"plies"`
	Layers          []int `json:"layers"`
	MatesByLayer    []int `json:"mates_by_layer"`
	MatesByDistance []int `json:"mates_by_distance"`
	// AllocatedBytes is the memory the deepest study allocated; Note says why the study
	// stopped short of --study-plies (the memory budget), when it did.
	AllocatedBytes uint64 `json:"allocated_bytes"`
	Note           string `json:"note,omitempty"`
}

func methodOf(m solver.Mate) methodJSON {
	j := methodJSON{PV: usiMoves(m.PV), Positions: m.Positions, Nodes: m.Nodes, Seconds: m.Seconds}
	if m.Found {
		plies := m.Plies
		j.MatePlies = &plies
	}
	return j
}

func usiMoves(moves []minishogi.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}

// solveMate runs both methods. A signal (ctx) stops df-pn, after a last checkpoint with
// --checkpoint, and ends the command at once with the interrupt, without waiting for the
// retrograde method, which cannot be stopped midway.
func solveMate(ctx context.Context, f mateFlags, handicap string, root minishogi.Position, attacker minishogi.Color, stdout, stderr io.Writer) error {
	budget, err := f.check()
	if err != nil {
		return err
	}
	limitHeap(budget)
	dfOpt := solver.DFPNOptions{Name: handicap, NodeLimit: f.nodeLimit}
	if f.resume != "" {
		if dfOpt.Resume, err = solver.OpenCheckpoint(f.resume); err != nil {
			return fmt.Errorf("--resume: %w", err)
		}
		defer dfOpt.Resume.Close()
		// Refused here, before any search runs, not after the retrograde cross-check.
		want := solver.DFPNOptions{Name: handicap, MaxPlies: f.maxPlies, Upper: f.upper}.Header(root, attacker)
		if err := dfOpt.Resume.Header.Matches(want); err != nil {
			return fmt.Errorf("--resume %s: %w", f.resume, err)
		}
	}
	// SIGINT (^C) and SIGTERM (Slurm's at the time limit or a preemption) end the search,
	// with a last checkpoint instead of losing it.
	dfOpt.Interrupt = ctx.Done()
	if f.checkpoint != "" {
		if err := cli.CheckOutputFile(f.checkpoint); err != nil {
			return fmt.Errorf("--checkpoint: %w", err)
		}
		unlock, err := lockCheckpoint(f.checkpoint)
		if err != nil {
			return err
		}
		defer unlock()
		path := f.checkpoint
		dfOpt.Checkpoint = func(c *solver.Checkpoint) error { return solver.WriteCheckpoint(path, c) }
		dfOpt.CheckpointEvery = f.every
	}
	start := time.Now()
	progress := newMateProgress(stderr, f.maxPlies)
	dfpnBudget, retroBudget := budget, budget
	if f.retroPlies > 0 {
		dfpnBudget, retroBudget = budget/2, budget/2
	}
	var (
		d     *solver.DFPN
		dErr  error
		r     *solver.Retro
		wg    sync.WaitGroup
		runDF = func() {
			o := dfOpt
			o.MaxPlies, o.MemoryBudget, o.TimeLimit, o.Workers, o.Upper, o.Certificate = f.maxPlies, dfpnBudget, f.timeLimit, f.workers, f.upper, certMax(f)
			st := newStatus(stderr)
			o.Progress = func(n int, mate bool, nodes int64) { st.decided(nodes); progress("df-pn", n, mate, nodes) }
			o.Status, o.StatusEvery = st.show, f.status
			d, dErr = solver.SolveDFPN(root, attacker, o)
		}
		runRetro = func() {
			if min(f.retroPlies, f.maxPlies) == 0 {
				return
			}
			r = solver.SolveRetro(root, attacker, solver.RetroOptions{MaxPlies: min(f.retroPlies, f.maxPlies), MemoryBudget: retroBudget,
				Progress: func(depth, positions int) { progress("retrograde", depth, false, int64(positions)) }})
		}
	)
	// The retrograde method is waited for under cli.Detach: r is not read after a signal.
	if f.threads >= 2 {
		wg.Go(runRetro)
		runDF()
		cli.Detach(ctx, func() error { wg.Wait(); return nil })
	} else {
		runDF()
		if ctx.Err() == nil {
			cli.Detach(ctx, func() error { runRetro(); return nil })
		}
	}
	if dErr != nil {
		return dErr
	}
	if d.Stopped && f.checkpoint != "" {
		fmt.Fprintf(stderr, "solve: df-pn stopped; its state is saved in %s: continue with --resume %s\n", f.checkpoint, f.checkpoint)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	rep := mateReport{Handicap: handicap, SFEN: root.SFEN(), Attacker: colorName(attacker), MaxPlies: f.maxPlies,
		DFPN: methodOf(d.Mate), MatePlies: methodOf(d.Mate).MatePlies, PV: usiMoves(d.PV),
		Positions: d.Positions, Nodes: d.Nodes, Stopped: d.Stopped}
	if !d.Found {
		bound := d.MaxPlies
		rep.NoMateWithin = &bound
	}
	if f.upper {
		rep.MatePlies, rep.DFPN.MatePlies, rep.NoMateWithin = nil, nil, nil
	}
	if d.Lower >= 0 {
		lower := d.Lower
		rep.Bounds.Lower = &lower
	}
	rep.Bounds.Exact = d.Minimal
	rep.Bounds.CertNote = d.CertificateNote
	if d.Certificate != nil {
		if err := solver.CheckCertificate(root, d.Certificate); err != nil {
			return fmt.Errorf("the certificate read off df-pn failed the checker: %v", err)
		}
		rep.Bounds.LowerCertified = true
		rep.Bounds.CertEntries = len(d.Certificate.Replies)
		if f.certFile != "" {
			if err := writeFile(f.certFile, func(w io.Writer) error { return solver.WriteCertificate(w, root, attacker, d.Certificate) }); err != nil {
				return err
			}
			rep.Bounds.Certificate = f.certFile
			if st, err := os.Stat(f.certFile); err == nil {
				rep.Bounds.CertBytes = st.Size()
			}
		}
	}
	if r != nil {
		rj := &retroJSON{methodJSON: methodOf(r.Mate), SearchedPlies: r.MaxPlies, UpperBound: r.UpperBound, Layers: r.Layers, Edges: r.Edges,
			EnumerateSeconds: r.EnumerateSeconds, SweepSeconds: r.SweepSeconds, HeapBytes: r.HeapBytes,
			BytesPerPosition: float64(r.HeapBytes) / float64(r.Positions)}
		if r.EnumerateSeconds > 0 {
			rj.EnumeratePerSecond = float64(r.Positions) / r.EnumerateSeconds
		}
		if r.SweepSeconds > 0 {
			rj.SweepPerSecond = float64(r.Positions) / r.SweepSeconds
		}
		rep.Retro = rj
		rep.Positions += r.Positions
		rep.Nodes += r.Nodes
		// The two methods must agree wherever both decide the question.
		switch {
		case r.Found && d.Found && r.Plies != d.Plies:
			return fmt.Errorf("the methods disagree: df-pn mates in %d plies, retrograde in %d", d.Plies, r.Plies)
		case r.Found && !d.Found && !d.Stopped:
			return fmt.Errorf("the methods disagree: retrograde mates in %d plies, df-pn finds none within %d", r.Plies, f.maxPlies)
		case r.Found && d.Stopped && r.Plies <= d.MaxPlies:
			return fmt.Errorf("the methods disagree: retrograde mates in %d plies, df-pn proved no mate within %d", r.Plies, d.MaxPlies)
		case !r.Found && d.Found && d.Plies <= r.MaxPlies:
			return fmt.Errorf("the methods disagree: df-pn mates in %d plies, retrograde finds none within %d", d.Plies, r.MaxPlies)
		}
	}
	if d.Found {
		rep.ProofEntries = len(d.Proof.Moves)
		if err := solver.CheckProof(root, d.Proof); err != nil {
			return fmt.Errorf("the proof read off df-pn failed the checker: %v", err)
		}
		rep.ProofChecked = true
		upper := d.Plies
		rep.Bounds.Upper, rep.Bounds.UpperCertified = &upper, true
		if f.proofFile != "" {
			if err := writeProofFile(f.proofFile, root, attacker, d.Proof); err != nil {
				return err
			}
			rep.ProofFile = f.proofFile
			if st, err := os.Stat(f.proofFile); err == nil {
				rep.ProofBytes = st.Size()
			}
		}
	}
	if f.plotDir != "" {
		st, bytes, note := studyWithin(root, attacker, f.studyPlies, budget)
		if note != "" {
			fmt.Fprintf(stderr, "solve: %s\n", note)
		}
		rep.Study = &studyJSON{Plies: st.Plies, Layers: st.Layers, MatesByLayer: st.MatesByLayer, MatesByDistance: st.MatesByDistance,
			AllocatedBytes: bytes, Note: note}
		name, title := handicap, handicap+" handicap"
		if name == "" {
			name, title = "mate", root.SFEN()
		}
		if rep.Plots, err = plotStudy(st, f.plotDir, name, title, attacker, f.plots); err != nil {
			return err
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.PeakRSSBytes = sysmem.PeakRSS()
	if f.json {
		enc := json.NewEncoder(stdout)
		return enc.Encode(rep)
	}
	printMate(stdout, &rep)
	return nil
}

// studyWithin studies the graph of root to plies plies within a memory budget: it deepens
// one ply at a time, as the retrograde method does (solver.SolveRetro), and stops before a
// ply whose graph would not fit, projected from the larger of the last two plies' growth in
// positions (it alternates with the side to move) and the bytes the last ply's study
// allocated per position (about twice its peak heap: a safe side estimate). It returns the
// deepest study, the bytes its study allocated, and a note when it stopped short.
func studyWithin(root minishogi.Position, attacker minishogi.Color, plies int, budget uint64) (st *solver.Study, allocated uint64, note string) {
	var ms runtime.MemStats
	positions, growth, lastGrowth := 1.0, 1.0, 1.0
	for d := 1; d <= plies; d++ {
		st = nil // let the last study go before the next
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		st = solver.StudyGraph(root, attacker, d)
		runtime.ReadMemStats(&ms)
		allocated = ms.TotalAlloc - before
		n := 0.0
		for _, l := range st.Layers {
			n += float64(l)
		}
		lastGrowth, growth, positions = growth, n/positions, n
		next := n * max(growth, lastGrowth) * float64(allocated) / n
		if d < plies && next > float64(budget) {
			return st, allocated, fmt.Sprintf("the study stops at %d plies of the %d asked: the %d-ply graph would take about %.0f MiB, beyond --memory %.0f MiB",
				d, plies, d+1, next/(1<<20), float64(budget)/(1<<20))
		}
	}
	return st, allocated, ""
}

func writeProofFile(path string, root minishogi.Position, attacker minishogi.Color, proof *solver.Proof) error {
	return writeFile(path, func(w io.Writer) error { return solver.WriteProof(w, root, attacker, proof) })
}

// writeFile writes a final file (a proof, a certificate, a split or a shard's results)
// through package atomicfile: whole, or the previous file left as it was.
func writeFile(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, write)
}

// lockCheckpoint keeps a second solve off a checkpoint (and, for solve shard, its results)
// while one writes it: the second refuses at once, naming the holder.
func lockCheckpoint(path string) (unlock func(), err error) {
	l, err := filelock.Acquire(filelock.Beside(path))
	var held *filelock.HeldError
	if errors.As(err, &held) {
		return nil, fmt.Errorf("%s is in use by another solve (%s): wait for it to end or choose another file", path, held)
	}
	if err != nil {
		return nil, err
	}
	return func() { l.Release() }, nil
}

// certMax is the certificate entry limit to search with: 0 (none) without --certificate.
func certMax(f mateFlags) int {
	if f.certFile == "" {
		return 0
	}
	return f.certMax
}

func colorName(c minishogi.Color) string {
	if c == minishogi.Sente {
		return "b"
	}
	return "w"
}

func printMate(w io.Writer, rep *mateReport) {
	if rep.Handicap != "" {
		fmt.Fprintf(w, "handicap      %s\n", rep.Handicap)
	}
	fmt.Fprintf(w, "position      %s (attacker %s)\n", rep.SFEN, rep.Attacker)
	b := rep.Bounds
	certified := func(ok bool, how string) string {
		if ok {
			return "certified: " + how
		}
		return "proved by the search, not certified"
	}
	if b.Upper != nil {
		fmt.Fprintf(w, "upper bound   mate in at most %d plies (%s)\n", *b.Upper, certified(b.UpperCertified, "proof checked"))
	} else {
		fmt.Fprintf(w, "upper bound   none proved\n")
	}
	if b.Lower != nil {
		fmt.Fprintf(w, "lower bound   no mate within %d plies (%s)\n", *b.Lower, certified(b.LowerCertified, "disproof certificate checked"))
	} else {
		fmt.Fprintf(w, "lower bound   none proved\n")
	}
	if b.CertNote != "" {
		fmt.Fprintf(w, "certificate   %s\n", b.CertNote)
	} else if b.Certificate != "" {
		fmt.Fprintf(w, "certificate   %s (%d bytes, %d defender entries)\n", b.Certificate, b.CertBytes, b.CertEntries)
	}
	switch {
	case rep.MatePlies != nil:
		fmt.Fprintf(w, "result        mate in %d plies (minimal: no shorter mate exists)\n", *rep.MatePlies)
		fmt.Fprintf(w, "pv            %s\n", strings.Join(rep.PV, " "))
	case rep.NoMateWithin == nil:
		fmt.Fprintf(w, "result        the bounds above\n")
	default:
		fmt.Fprintf(w, "result        no forced mate within %d plies (proven)", *rep.NoMateWithin)
		if rep.Stopped {
			fmt.Fprintf(w, "; a limit or a signal stopped df-pn while deciding %d plies", *rep.NoMateWithin+2)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "proof         checked: %v, %d attacker entries", rep.ProofChecked, rep.ProofEntries)
	if rep.ProofFile != "" {
		fmt.Fprintf(w, ", %s (%d bytes)", rep.ProofFile, rep.ProofBytes)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "\n%-11s %-8s %12s %14s %9s\n", "method", "mate", "positions", "nodes", "seconds")
	row := func(name string, m methodJSON) {
		mate := "none"
		if m.MatePlies != nil {
			mate = strconv.Itoa(*m.MatePlies)
		}
		fmt.Fprintf(w, "%-11s %-8s %12d %14d %9.2f\n", name, mate, m.Positions, m.Nodes, m.Seconds)
	}
	row("df-pn", rep.DFPN)
	if r := rep.Retro; r != nil {
		row("retrograde", r.methodJSON)
		fmt.Fprintf(w, "\nretrograde: searched %d plies", r.SearchedPlies)
		if r.MatePlies == nil {
			fmt.Fprintf(w, " (no mate within them)")
			if r.UpperBound > 0 {
				fmt.Fprintf(w, ", a mate of %d plies seen", r.UpperBound)
			}
		}
		fmt.Fprintf(w, "; positions per ply %v; %d moves stored\n", r.Layers, r.Edges)
		fmt.Fprintf(w, "  enumeration %.0f positions/s, backward sweep %.0f positions/s, %.0f bytes/position\n",
			r.EnumeratePerSecond, r.SweepPerSecond, r.BytesPerPosition)
	}
	if st := rep.Study; st != nil {
		fmt.Fprintf(w, "\nstudy of the %d-ply graph: positions per ply %v\n  forced mates per ply %v\n  forced mates per distance %v\n  plots: %s\n",
			st.Plies, st.Layers, st.MatesByLayer, st.MatesByDistance, strings.Join(rep.Plots, ", "))
	}
	fmt.Fprintf(w, "\ntotal %.2f s, peak memory %.1f MiB\n", rep.Seconds, float64(rep.PeakRSSBytes)/(1<<20))
}

// newMateProgress reports each decided depth: on a terminal as a progress bar over the ply
// bound, otherwise as one plain line per depth.
func newMateProgress(stderr io.Writer, maxPlies int) func(method string, depth int, mate bool, count int64) {
	var mu sync.Mutex // the two methods may report at once
	start := time.Now()
	if cli.IsTerminal(stderr) {
		update, _ := cli.NewProgress(stderr, maxPlies, "plies decided (df-pn)")
		return func(method string, depth int, mate bool, count int64) {
			mu.Lock()
			defer mu.Unlock()
			if method == "df-pn" {
				update(depth)
			}
		}
	}
	return func(method string, depth int, mate bool, count int64) {
		mu.Lock()
		defer mu.Unlock()
		what := "nodes"
		if method == "retrograde" {
			what = "positions"
		}
		verdict := "no mate"
		if mate {
			verdict = "mate"
		}
		if method == "retrograde" {
			verdict = "searched"
		}
		fmt.Fprintf(stderr, "solve: %s: %d plies %s, %d %s, %.1f s\n", method, depth, verdict, count, what, time.Since(start).Seconds())
	}
}

// limitHeap asks Go's collector to keep the heap near the memory budget: a soft limit of the
// budget and an eighth, plus 256 MiB for the rest of the program. By its default rule
// (collect when the heap has doubled since the last collection) a table of gigabytes lets as
// many gigabytes of garbage pile up first, which doubled the peak of a resume
// (datasets/handicap/README.md). A GOMEMLIMIT in the environment wins.
func limitHeap(budget uint64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(int64(min(budget+budget/8+256<<20, math.MaxInt64)))
}
