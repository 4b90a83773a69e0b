package main

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/gob"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/shogilab/shogilab/internal/bounded"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/solver"
)

// splitFormat and resultFormat open the subproblem and result files (gzip over gob), so that
// one is never read as the other; raise them when the layouts change. A split of version 2
// fixes some of the defender's replies (--split-replies), which a reader of version 1 would
// not see: a split without them is still written as version 1. A result of version 1 has no
// certificates: solve merge still reads it for the proof, and refuses it for a certificate.
const (
	splitFormat    = "shogilab-split 2"
	splitFormatV1  = "shogilab-split 1"
	resultFormat   = "shogilab-split-result 2"
	resultFormatV1 = "shogilab-split-result 1"
)

// splitFile is a solve split after Plies plies (solver.SplitLeavesUnder): its leaves, as
// SFEN, each a subproblem of a mate within MaxPlies-Plies plies, and the defender's replies
// it fixed above them (none: every reply, version 1).
type splitFile struct {
	Format   string
	Name     string
	Root     string
	Attacker minishogi.Color
	Plies    int
	MaxPlies int
	Leaves   []string
	Fixed    map[minishogi.Code]minishogi.Move
}

// leafResult is one subproblem's answer, with its proof's moves and (from version 2) the
// replies of its certificate of no mate within Lower plies, the longest length its deepening
// disproved (-1: none), when Certified; CertNote says why a certificate was not kept (over
// --certificate-max). Certified is apart from Replies since gob drops an empty map.
type leafResult struct {
	Leaf      string
	Found     bool
	Plies     int
	Moves     map[minishogi.Code]minishogi.Move
	Lower     int
	Certified bool
	Replies   map[minishogi.Code]minishogi.Move
	CertNote  string
}

// resultFile is a shard's answers.
type resultFile struct {
	Format  string
	Split   string // the split's root and plies, to match the results to their split
	Shard   string
	Results []leafResult
}

// id names the split in its results, so that results of another split are refused: its
// root, plies and bound, and a digest of its fixed replies.
func (s *splitFile) id() string {
	id := fmt.Sprintf("%s %s after %d plies within %d", s.Name, s.Root, s.Plies, s.MaxPlies)
	if len(s.Fixed) == 0 {
		return id
	}
	h := fnv.New64a()
	for _, c := range slices.SortedFunc(maps.Keys(s.Fixed), func(a, b minishogi.Code) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }) {
		fmt.Fprintf(h, "%x %x %d\n", c[0], c[1], s.Fixed[c])
	}
	return fmt.Sprintf("%s, %d replies fixed (%016x)", id, len(s.Fixed), h.Sum64())
}

// positions says "1 position" or "n positions".
func positions(n int) string {
	if n == 1 {
		return "1 position"
	}
	return fmt.Sprintf("%d positions", n)
}

// writeSplit writes the subproblems of root split after k plies to path, with the defender's
// replies of fixed followed alone where it has them (nil: every reply).
func writeSplit(path, name string, root minishogi.Position, attacker minishogi.Color, k, maxPlies int, fixed map[minishogi.Code]minishogi.Move, stdout io.Writer) error {
	if k < 1 || k >= maxPlies {
		return cli.Usagef("--split is %d, want 1..%d (below --max-plies)", k, maxPlies-1)
	}
	leaves, followed, err := solver.SplitLeavesUnder(root, attacker, k, fixed)
	if err != nil {
		return err
	}
	s := splitFile{Format: splitFormatV1, Name: name, Root: root.SFEN(), Attacker: attacker, Plies: k, MaxPlies: maxPlies}
	if len(followed) > 0 {
		s.Format, s.Fixed = splitFormat, followed
	}
	for _, p := range leaves {
		s.Leaves = append(s.Leaves, p.SFEN())
	}
	if err := saveGob(path, &s); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d subproblems after %d plies, each a mate within %d plies", path, len(s.Leaves), k, maxPlies-k)
	if len(followed) > 0 {
		fmt.Fprintf(stdout, "; the defender's replies fixed at %s (a lower bound only: solve merge --certificate)", positions(len(followed)))
	}
	fmt.Fprintln(stdout)
	return nil
}

func saveGob(path string, v any) error {
	return writeFile(path, func(w io.Writer) error {
		zw := gzip.NewWriter(w)
		if err := gob.NewEncoder(zw).Encode(v); err != nil {
			return err
		}
		return zw.Close()
	})
}

// maxGobBytes bounds what a split or result file decompresses to, and each gob message in
// it: a split of a million leaves is some 40 MB, a shard's proofs some tens of MB (the
// largest proof shipped has 59,633 entries, datasets/README.md).
const maxGobBytes = 256 << 20

func loadGob(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: not a split or result file (%v)", path, err)
	}
	frames := &gobFrames{r: bufio.NewReader(bounded.NewReader(zr, maxGobBytes, "decompressed")), limit: maxGobBytes}
	if err := gob.NewDecoder(frames).Decode(v); err != nil {
		return fmt.Errorf("%s: truncated or not a split or result file (%v)", path, err)
	}
	return nil
}

// gobFrames passes a gob stream through, refusing a message longer than limit before gob sees
// its length: gob allocates a message whole from the length that precedes it (up to 8 GiB),
// so a file of a megabyte that decompresses to a long run of zeros after a large length
// would take gigabytes (issue 33: 2.0 to 2.4 GB for a 0.9 MB file) before "not a split file".
// A message is an unsigned count in gob's encoding (one byte below 0x80, else the negated
// number of big-endian bytes that follow) and that many bytes.
type gobFrames struct {
	r       *bufio.Reader
	limit   int64
	left    int64  // bytes of the current message not yet passed on
	pending []byte // the count of the next message, read and checked, not yet passed on
}

func (g *gobFrames) Read(p []byte) (int, error) {
	if g.left == 0 && len(g.pending) == 0 {
		b, err := g.r.ReadByte()
		if err != nil {
			return 0, err
		}
		g.pending = append(g.pending[:0], b)
		n := uint64(b)
		if b >= 0x80 {
			k := int(-int8(b))
			if k < 1 || k > 8 {
				return 0, fmt.Errorf("a message count of %d bytes: not a gob stream", k)
			}
			n = 0
			for range k {
				c, err := g.r.ReadByte()
				if err != nil {
					return 0, io.ErrUnexpectedEOF
				}
				g.pending = append(g.pending, c)
				n = n<<8 | uint64(c)
			}
		}
		if n > uint64(g.limit) {
			return 0, fmt.Errorf("a message of %d bytes, more than %s", n, bounded.Size(g.limit))
		}
		g.left = int64(n)
	}
	if len(g.pending) > 0 {
		n := copy(p, g.pending)
		g.pending = g.pending[n:]
		return n, nil
	}
	if int64(len(p)) > g.left {
		p = p[:g.left]
	}
	n, err := g.r.Read(p)
	g.left -= int64(n)
	if err == io.EOF && g.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

func readSplit(path string) (*splitFile, error) {
	var s splitFile
	if err := loadGob(path, &s); err != nil {
		return nil, err
	}
	if s.Format != splitFormat && s.Format != splitFormatV1 {
		return nil, fmt.Errorf("%s: not a split file (want %q or %q)", path, splitFormat, splitFormatV1)
	}
	return &s, nil
}

// runShard solves one shard of a split: the leaves i, i+n, i+2n, ... It saves its progress
// as it goes, every --every and on SIGINT or SIGTERM, in the checkpoint (the results of the
// subproblems solved so far) and beside it in CHECKPOINT.dfpn (the df-pn search of the
// subproblem in progress), so that a preempted or timed-out array task, run again, loses
// minutes and not its shard.
func runShard(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("solve shard", flag.ContinueOnError)
	shardFlag := fs.String("shard", "", "solve shard `i/n` of the subproblems (default: from a Slurm array task, SLURM_ARRAY_TASK_ID)")
	shards := fs.Int("shards", 0, "the shard count `n`, with a Slurm array task's id as the shard (default: the array's range 0..SLURM_ARRAY_TASK_MAX)")
	out := fs.String("o", "", "write the results to `FILE` (default: SPLIT-I-of-N.result, or --out's)")
	outDir := fs.String("out", "", "write the results to `DIR`/shard-I-of-N.result (a job array's shared directory)")
	memory := fs.String("memory", "1GiB", "df-pn table `budget` for each subproblem")
	checkpoint := fs.String("checkpoint", "", "save the shard's progress to `FILE` (default: the results' FILE.ckpt) and the search in progress to FILE.dfpn; a run finds them and resumes")
	every := fs.Duration("every", 10*time.Minute, "the `DURATION` between checkpoints of the results and of a subproblem's search")
	certMax := fs.Int("certificate-max", 200000, "keep each subproblem's certificate of its lower bound when it has at most `N` entries (0: none)")
	if err := cli.ParseHelp(fs, args, stdout, `usage: solve shard SPLIT [--shard i/n | --shards n] [-o FILE | --out DIR]

Solves a share of the subproblems that solve handicap NAME --split K wrote: each a minimal
mate within the plies left, with its proof and a certificate of its lower bound (the longest
length disproved). solve merge puts the shards' results together.
The shard's progress is saved as it goes (--checkpoint): after a kill, a preemption or a
time limit, the same command resumes it.`); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one split file, got %d arguments", fs.NArg())
	}
	budget, err := parseBytes(*memory)
	if err != nil {
		return cli.Usagef("--memory: %v", err)
	}
	if *every <= 0 {
		return cli.Usagef("--every is %v, want more than 0", *every)
	}
	if *certMax < 0 {
		return cli.Usagef("--certificate-max is %d, want 0 or more", *certMax)
	}
	part, ok, err := shard.Select(*shardFlag, *shards, os.Getenv)
	switch {
	case err != nil:
		return cli.Usagef("%v", err)
	case !ok:
		return cli.Usagef("no --shard i/n and no Slurm array (SLURM_ARRAY_TASK_ID)")
	}
	// The split is read before the work that watches ctx: a read blocked on it (a FIFO, a
	// stalled network file system) must not hold up a signal.
	var sp *splitFile
	if err := cli.Detach(ctx, func() (err error) { sp, err = readSplit(fs.Arg(0)); return err }); err != nil {
		return err
	}
	path := *out
	switch {
	case path != "" && *outDir != "":
		return cli.Usagef("give -o FILE or --out DIR, not both")
	case *outDir != "":
		if err := cli.CheckOutputDir(*outDir); err != nil {
			return err
		}
		path = filepath.Join(*outDir, fmt.Sprintf("shard-%d-of-%d.result", part.Index, part.Count))
	case path == "":
		path = fmt.Sprintf("%s-%d-of-%d.result", fs.Arg(0), part.Index, part.Count)
	}
	ckpt := *checkpoint
	if ckpt == "" {
		ckpt = path + ".ckpt"
	}
	// Where the results and the checkpoints go is checked before any subproblem is solved.
	for _, p := range []struct{ flag, path string }{{"-o", path}, {"--checkpoint", ckpt}} {
		if err := cli.CheckOutputFile(p.path); err != nil {
			return fmt.Errorf("%s: %w", p.flag, err)
		}
	}
	unlock, err := lockCheckpoint(path)
	if err != nil {
		return err
	}
	defer unlock()
	limitHeap(budget)
	res := resultFile{Format: resultFormat, Split: sp.id(), Shard: part.String()}
	if _, err := os.Stat(ckpt); err == nil {
		if err := loadGob(ckpt, &res); err != nil {
			return fmt.Errorf("--checkpoint: %w", err)
		}
		if res.Format != resultFormat {
			return fmt.Errorf("--checkpoint %s is of a %q result, not %q: remove it to solve the shard again", ckpt, res.Format, resultFormat)
		}
		if res.Split != sp.id() || res.Shard != part.String() {
			return fmt.Errorf("--checkpoint %s is of shard %s of the split %q, not of shard %s of %s: remove it or choose another", ckpt, res.Shard, res.Split, part, fs.Arg(0))
		}
		fmt.Fprintf(stderr, "solve: resuming shard %s from %s: %d subproblems solved\n", part, ckpt, len(res.Results))
	}
	search := ckpt + ".dfpn"
	total := 0
	for i := part.Index; i < len(sp.Leaves); i += part.Count {
		total++
	}
	// The results are saved every --every, not after each subproblem: the file holds them
	// all and grows with each (a certificate makes a result some tens of KB), so saving it
	// after each of many small subproblems took most of the time (the two-piece split after 3
	// plies within 10: 4.3 MB rewritten 519 times, 448 s for a shard that now takes 29 s).
	saved := time.Now()
	for i := part.Index + len(res.Results)*part.Count; i < len(sp.Leaves); i += part.Count {
		p, err := minishogi.ParseSFEN(sp.Leaves[i])
		if err != nil {
			return fmt.Errorf("%s: subproblem %d: %v", fs.Arg(0), i, err)
		}
		opt := solver.DFPNOptions{Name: fmt.Sprintf("%s subproblem %d", sp.Name, i), MaxPlies: sp.MaxPlies - sp.Plies, MemoryBudget: budget, Certificate: *certMax,
			Checkpoint: func(c *solver.Checkpoint) error { return solver.WriteCheckpoint(search, c) }, CheckpointEvery: *every, Interrupt: ctx.Done()}
		// The search of this subproblem saved by a run that was stopped; one of the previous
		// subproblem (a kill after its result was saved) does not match and is not used.
		if c, err := solver.OpenCheckpoint(search); err == nil {
			if c.Header.Matches(opt.Header(p, sp.Attacker)) == nil {
				opt.Resume = c
			} else {
				c.Close()
			}
		}
		d, err := solver.SolveDFPN(p, sp.Attacker, opt)
		if opt.Resume != nil {
			opt.Resume.Close()
		}
		if err != nil {
			return err
		}
		stopped := func() error {
			if err := saveGob(ckpt, &res); err != nil {
				return err
			}
			return fmt.Errorf("%w after %d of the shard's %d subproblems; its state is saved in %s: run the same command again to resume", context.Canceled, len(res.Results), total, ckpt)
		}
		if d.Stopped {
			return stopped()
		}
		// The certificate is the one solve handicap --certificate reads off the table
		// (solver.DFPN.Certificate); solve merge checks it.
		r := leafResult{Leaf: sp.Leaves[i], Found: d.Found, Plies: d.Plies, Lower: d.Lower, CertNote: d.CertificateNote}
		if d.Proof != nil {
			r.Moves = d.Proof.Moves
		}
		if d.Certificate != nil {
			r.Certified, r.Replies = true, d.Certificate.Replies
		}
		res.Results = append(res.Results, r)
		if time.Since(saved) >= *every {
			if err := saveGob(ckpt, &res); err != nil {
				return err
			}
			saved = time.Now()
		}
		os.Remove(search)
		if ctx.Err() != nil { // a signal while the search was ending: its result is kept
			return stopped()
		}
	}
	if err := saveGob(path, &res); err != nil {
		return err
	}
	os.Remove(ckpt)
	os.Remove(search)
	left := 0
	for _, r := range res.Results {
		if r.CertNote != "" {
			left++
		}
	}
	fmt.Fprintf(stdout, "%s: shard %s, %d subproblems solved", path, part, len(res.Results))
	if left > 0 {
		fmt.Fprintf(stdout, "; %d certificates over --certificate-max %d left out (solve merge --certificate names those it needs)", left, *certMax)
	}
	fmt.Fprintln(stdout)
	return nil
}

// runMerge combines the shards' results into the root's answer, one proof and one
// certificate.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("solve merge", flag.ContinueOnError)
	proofFile := fs.String("proof", "", "write the merged proof to `FILE`")
	certFile := fs.String("certificate", "", "write the merged certificate of the lower bound (no mate within L plies) to `FILE`")
	if err := cli.ParseHelp(fs, args, stdout, `usage: solve merge SPLIT RESULT... [--proof FILE] [--certificate FILE]

Combines the results of solve shard by the AND/OR rule over the first K plies into the root's
minimal mate within the split's bound, checks the merged proof and writes it; with
--certificate, also the subproblems' certificates into one of no mate within L plies (the
mate's length minus 2, or the bound when nothing mates), checked before it is written
(docs/proofs.md#split-certificates). A split that follows only some of the defender's
replies (solve handicap --split-replies) shows a lower bound only: it takes --certificate
and no --proof.`); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		return cli.Usagef("want the split file and its result files, got %d arguments", fs.NArg())
	}
	for _, f := range []struct{ flag, path string }{{"--proof", *proofFile}, {"--certificate", *certFile}} {
		if f.path == "" {
			continue
		}
		if err := cli.CheckOutputFile(f.path); err != nil {
			return fmt.Errorf("%s: %w", f.flag, err)
		}
	}
	sp, err := readSplit(fs.Arg(0))
	if err != nil {
		return err
	}
	if len(sp.Fixed) > 0 && (*proofFile != "" || *certFile == "") {
		return cli.Usagef("%s fixes the defender's replies at %s: it can show a lower bound only; want --certificate FILE and no --proof", fs.Arg(0), positions(len(sp.Fixed)))
	}
	root, err := minishogi.ParseSFEN(sp.Root)
	if err != nil {
		return fmt.Errorf("%s: root: %v", fs.Arg(0), err)
	}
	leaves := map[minishogi.Code]solver.LeafResult{}
	from := map[minishogi.Code]string{} // the result file of each subproblem
	// read calls each result of a result file of the split with its leaf's position.
	read := func(path string, each func(r *leafResult, p minishogi.Position) error) error {
		var rf resultFile
		if err := loadGob(path, &rf); err != nil {
			return err
		}
		if rf.Format != resultFormat && rf.Format != resultFormatV1 || rf.Split != sp.id() {
			return fmt.Errorf("%s: not a result of the split %s", path, fs.Arg(0))
		}
		if rf.Format == resultFormatV1 && *certFile != "" {
			return fmt.Errorf("%s: a %q file has no certificates: solve its shard again to merge a certificate", path, resultFormatV1)
		}
		for i := range rf.Results {
			p, err := minishogi.ParseSFEN(rf.Results[i].Leaf)
			if err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			if err := each(&rf.Results[i], p); err != nil {
				return err
			}
		}
		return nil
	}
	// The answers and proofs first; the certificates, which may be some hundred times larger
	// in all, only of the subproblems the merged certificate needs, afterwards.
	for _, path := range fs.Args()[1:] {
		err := read(path, func(r *leafResult, p minishogi.Position) error {
			lr := solver.LeafResult{Found: r.Found, Plies: r.Plies, CertificateSize: len(r.Replies)}
			if r.Found {
				lr.Proof = &solver.Proof{Plies: r.Plies, AttackerToMove: p.SideToMove() == sp.Attacker, Moves: r.Moves}
			}
			leaves[p.Code()], from[p.Code()] = lr, path
			return nil
		})
		if err != nil {
			return err
		}
	}
	if len(sp.Fixed) > 0 {
		// The defender's other replies went unsearched: no mate can be shown, only a bound.
		return mergeCertificate(sp, root, leaves, from, fs.Args()[1:], read, *certFile, 0, stdout)
	}
	found, plies, proof, err := solver.MergeSplit(root, sp.Attacker, sp.Plies, sp.MaxPlies, leaves)
	if err != nil {
		return err
	}
	if !found {
		fmt.Fprintf(stdout, "%s: no forced mate within %d plies (proven)\n", sp.Name, sp.MaxPlies)
	} else {
		if err := solver.CheckProof(root, proof); err != nil {
			return fmt.Errorf("the merged proof does not check: %v", err)
		}
		if *proofFile != "" {
			if err := writeProofFile(*proofFile, root, sp.Attacker, proof); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "%s: mate in %d plies (minimal: no shorter mate exists); merged proof checked, %d attacker entries\n", sp.Name, plies, len(proof.Moves))
	}
	if *certFile == "" {
		return nil
	}
	return mergeCertificate(sp, root, leaves, from, fs.Args()[1:], read, *certFile, plies, stdout)
}

// mergeCertificate reads the certificates of the subproblems the merged certificate needs
// (solver.CertificateLeaves) from the result files, in their order, merges them and writes
// the certificate to certFile. plies is the root's minimal mate when the merge found one, for
// the message when nothing is left to disprove.
func mergeCertificate(sp *splitFile, root minishogi.Position, leaves map[minishogi.Code]solver.LeafResult, from map[minishogi.Code]string,
	results []string, read func(path string, each func(r *leafResult, p minishogi.Position) error) error, certFile string, plies int, stdout io.Writer) error {
	needed, err := solver.CertificateLeaves(root, sp.Attacker, sp.Plies, sp.MaxPlies, sp.Fixed, leaves)
	if err != nil {
		return err
	}
	files := map[string]bool{}
	need := map[minishogi.Code]bool{}
	for _, c := range needed {
		need[c], files[from[c]] = true, true
	}
	for _, path := range results {
		if !files[path] {
			continue
		}
		err := read(path, func(r *leafResult, p minishogi.Position) error {
			c := p.Code()
			switch {
			case !need[c]:
			case r.Certified:
				lr := leaves[c]
				lr.Certificate = &solver.Certificate{Plies: r.Lower, AttackerToMove: p.SideToMove() == sp.Attacker, Replies: r.Replies}
				if lr.Certificate.Replies == nil { // gob leaves out an empty map
					lr.Certificate.Replies = map[minishogi.Code]minishogi.Move{}
				}
				leaves[c] = lr
			case r.CertNote != "":
				return fmt.Errorf("%s: the subproblem %s has no certificate: %s", path, r.Leaf, r.CertNote)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	cert, err := solver.MergeCertificate(root, sp.Attacker, sp.Plies, sp.MaxPlies, sp.Fixed, leaves)
	var bad *solver.SubproblemError
	switch {
	case errors.As(err, &bad):
		return fmt.Errorf("%s: %w", from[bad.Leaf], err)
	case err != nil:
		return err
	case cert == nil && len(sp.Fixed) > 0:
		fmt.Fprintf(stdout, "%s: no certificate: against the fixed replies the attacker mates within 1 ply, which leaves no shorter length to disprove\n", sp.Name)
		return nil
	case cert == nil:
		fmt.Fprintf(stdout, "%s: no certificate: the mate in %d plies leaves no shorter length to disprove\n", sp.Name, plies)
		return nil
	case len(cert.Replies) > solver.MaxEntries:
		return fmt.Errorf("the merged certificate has %d entries, more than a certificate file may hold (%d, docs/proofs.md#limits); not written", len(cert.Replies), solver.MaxEntries)
	}
	if err := writeFile(certFile, func(w io.Writer) error { return solver.WriteCertificate(w, root, sp.Attacker, cert) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: no mate within %d plies; merged certificate checked, %d defender entries\n", sp.Name, cert.Plies, len(cert.Replies))
	return nil
}
