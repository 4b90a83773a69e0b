package label

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/shogilab/shogilab/internal/filelock"
	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/train/labels"
)

// DefaultBlock is how many positions one process of the labeller labels
// (Run.Block): starting Fairy-Stockfish costs some tenths of a second of
// CPU, a hundredth of a block of 100 positions at depth 10 (some 15 ms
// each, issue 31), and a kill loses at most the block under way, a second
// or two.
const DefaultBlock = 100

// Run labels one shard of a list of positions into a labels table.
type Run struct {
	Labeller  Labeller
	Positions []Position  // the whole run's list (Collect), the same in every shard
	Shard     shard.Shard // the zero Shard is the whole run
	// Block is the positions each process of the labeller labels; the list
	// is cut into blocks from its start, and a shard labels a contiguous
	// range of blocks (Shard.IDs of the block count), so that the shards'
	// rows are the unsharded run's. Zero means DefaultBlock.
	Block int
	// Dir is where the shard's table (labels-I-of-N.parquet, FileName)
	// and, while it runs, its journal (labels-I-of-N.journal.jsonl) go.
	Dir string
	// Provenance is the table's footer: Command from the caller, and
	// Labeller and Options from Labeller.Identify; Run fills in the rest.
	Provenance labels.Provenance
	// OnRow, if not nil, is called after each row with the rows of the
	// shard done and its size.
	OnRow func(done, total int)
}

// Summary is what a run did.
type Summary struct {
	File      string  `json:"file"`
	Shard     string  `json:"shard"`
	Positions int     `json:"positions"` // the shard's
	Kept      int     `json:"kept"`      // rows a resume found in the journal (or a finished table)
	Labelled  int     `json:"labelled"`  // rows this run labelled
	Seconds   float64 `json:"seconds"`   // of labelling
	PerSecond float64 `json:"positions_per_second"`
}

// FileName is the name of shard s's table: labels-I-of-N.parquet, I and N
// zero-padded to one width so that the files sort in shard order.
func FileName(s shard.Shard) string {
	w := len(strconv.Itoa(s.Count - 1))
	return fmt.Sprintf("labels-%0*d-of-%0*d.parquet", w, s.Index, w, s.Count)
}

// JournalName is the journal of the table at path.
func JournalName(path string) string {
	return strings.TrimSuffix(path, ".parquet") + ".journal.jsonl"
}

// Span is the shard's half-open range of the list.
func (r Run) Span() (lo, hi int) {
	b := r.block()
	blo, bhi := r.shard().IDs((len(r.Positions) + b - 1) / b)
	return min(blo*b, len(r.Positions)), min(bhi*b, len(r.Positions))
}

func (r Run) shard() shard.Shard {
	if r.Shard.Count == 0 {
		return shard.Whole
	}
	return r.Shard
}

func (r Run) block() int {
	if r.Block > 0 {
		return r.Block
	}
	return DefaultBlock
}

// digest is RunKey's value: a SHA-256 of the shard's positions, the
// labeller's spec, whether it keeps state and the block size.
func (r Run) digest(lo, hi int) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%d\n%d %d\n", r.Labeller.String(), r.block(), lo, hi)
	if r.Labeller.KeepState {
		fmt.Fprintln(h, "keep-state")
	}
	enc := json.NewEncoder(h)
	for _, p := range r.Positions[lo:hi] {
		enc.Encode(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// journalHeader is the journal's first line.
type journalHeader struct {
	Journal string `json:"journal"` // "labels"
	Run     string `json:"run"`     // RunKey's digest
}

// Do labels the shard. The rows go, one line each, to the journal,
// appended and written at once, so that a kill loses at most the block
// under way; run again with the same positions, labeller and block, it
// keeps the journal's whole blocks, cuts the rest (a block is relabelled
// from its start by a new process, so that its rows are those of an
// unbroken run), and goes on. When the shard's last row is written the
// journal becomes the table (atomically) and is removed. A shard whose
// table exists is done: Do checks that it is this run's and returns.
func (r Run) Do(ctx context.Context) (Summary, error) {
	lo, hi := r.Span()
	path := filepath.Join(r.Dir, FileName(r.shard()))
	sum := Summary{File: path, Shard: r.shard().String(), Positions: hi - lo}
	run := r.digest(lo, hi)
	prov := r.Provenance
	prov.Limit = strings.TrimPrefix(r.Labeller.Go().Format(), "go ")
	prov.Shard, prov.Positions, prov.Block, prov.Run = r.shard().String(), len(r.Positions), r.block(), run

	// A second run on the same shard and directory (a resubmitted cluster job) refuses at
	// once instead of writing the journal twice. The lock is a hidden file beside the table
	// (package filelock): a killed run's is taken over, and Release removes it.
	lock, err := filelock.Acquire(filelock.Beside(path))
	var held *filelock.HeldError
	if errors.As(err, &held) {
		return sum, fmt.Errorf("label: %s is being written by another run (%s): wait for it to end or use another directory", path, held)
	}
	if err != nil {
		return sum, fmt.Errorf("label: lock: %w", err)
	}
	defer lock.Release()

	journal := JournalName(path)
	if _, err := os.Stat(journal); errors.Is(err, os.ErrNotExist) {
		if t, err := labels.Open(path); err == nil {
			got := t.Provenance().Run
			t.Close()
			if got != run {
				return sum, fmt.Errorf("label: %s is another run's (other positions, labeller or block): use another directory", path)
			}
			sum.Kept = hi - lo
			return sum, nil
		}
	}
	kept, end, err := resume(journal, run, int64(lo), r.block(), hi-lo)
	if err != nil {
		return sum, err
	}
	if err := os.Truncate(journal, end); err != nil && !errors.Is(err, os.ErrNotExist) {
		return sum, fmt.Errorf("label: %w", err)
	}
	f, err := os.OpenFile(journal, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return sum, fmt.Errorf("label: %w", err)
	}
	defer f.Close()
	if end == 0 {
		line, _ := json.Marshal(journalHeader{Journal: labels.Table, Run: run})
		if _, err := f.Write(append(line, '\n')); err != nil {
			return sum, fmt.Errorf("label: %w", err)
		}
	}
	sum.Kept = kept
	start := time.Now()
	done := kept
	for b := lo + kept; b < hi; b += r.block() {
		block := r.Positions[b:min(b+r.block(), hi)]
		if err := r.labelBlock(ctx, f, block, int64(b), &done, hi-lo); err != nil {
			return sum, err
		}
	}
	sum.Labelled = done - kept
	sum.Seconds = time.Since(start).Seconds()
	if sum.Seconds > 0 {
		sum.PerSecond = float64(sum.Labelled) / sum.Seconds
	}
	if err := f.Close(); err != nil {
		return sum, fmt.Errorf("label: %w", err)
	}
	if err := writeTable(journal, path, prov); err != nil {
		return sum, err
	}
	if err := os.Remove(journal); err != nil {
		return sum, fmt.Errorf("label: %w", err)
	}
	return sum, nil
}

// labelBlock labels one block into the journal f. An engine that fails (on
// a loaded machine it can miss a deadline) is replaced and the whole block
// labelled again, twice at most, its rows cut from the journal first, so
// that every block's rows come from one unbroken process.
func (r Run) labelBlock(ctx context.Context, f *os.File, block []Position, first int64, done *int, total int) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("label: %w", err)
	}
	mark, doneAt := st.Size(), *done
	for try := 0; ; try++ {
		err = r.Labeller.labelBlock(ctx, block, first, func(row labels.Row) error {
			line, err := json.Marshal(row)
			if err != nil {
				return err
			}
			if _, err := f.Write(append(line, '\n')); err != nil {
				return fmt.Errorf("label: %w", err)
			}
			*done++
			if r.OnRow != nil {
				r.OnRow(*done, total)
			}
			return nil
		})
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("label: interrupted after %d of %d positions of shard %s; run the same command again to resume: %w", *done, total, r.shard(), ctx.Err())
		}
		if try == 2 {
			return fmt.Errorf("label: block of positions %d..%d: %w", first, first+int64(len(block))-1, err)
		}
		if err := f.Truncate(mark); err != nil {
			return fmt.Errorf("label: %w", err)
		}
		*done = doneAt
	}
}

// resume reads a journal a previous run left: it checks the header against
// run, and returns the rows of whole blocks (a block's every row, or the
// shard's last rows) and the offset where they end, after which the journal
// is to be cut. A missing journal is an empty one.
func resume(path, run string, first int64, block, total int) (kept int, end int64, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("label: %w", err)
	}
	defer f.Close()
	in := bufio.NewReader(f)
	var off int64
	rows := 0
	for lineNo := 1; ; lineNo++ {
		line, err := in.ReadBytes('\n')
		if err == io.EOF {
			break // a line without its newline is a row a kill cut: dropped
		}
		if err != nil {
			return 0, 0, fmt.Errorf("label: %w", err)
		}
		off += int64(len(line))
		if lineNo == 1 {
			var h journalHeader
			if err := json.Unmarshal(line, &h); err != nil || h.Journal != labels.Table {
				return 0, 0, fmt.Errorf("label: %s:1: not a labels journal", path)
			}
			if h.Run != run {
				return 0, 0, fmt.Errorf("label: %s is another run's (other positions, labeller or block): use another directory, or remove it", path)
			}
			end = off
			continue
		}
		var row labels.Row
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&row); err != nil {
			return 0, 0, fmt.Errorf("label: %s:%d: %v", path, lineNo, err)
		}
		if row.Index != first+int64(rows) {
			return 0, 0, fmt.Errorf("label: %s:%d: row of position %d where %d was next", path, lineNo, row.Index, first+int64(rows))
		}
		rows++
		if rows%block == 0 || rows == total {
			kept, end = rows, off
		}
	}
	return kept, end, nil
}

// writeTable turns a finished journal into the table at path.
func writeTable(journal, path string, prov labels.Provenance) error {
	f, err := os.Open(journal)
	if err != nil {
		return fmt.Errorf("label: %w", err)
	}
	defer f.Close()
	w, err := labels.Create(path, prov)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sc.Scan() // the header
	for sc.Scan() {
		var row labels.Row
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			w.Abort()
			return fmt.Errorf("label: %s: %w", journal, err)
		}
		if err := w.Write(row); err != nil {
			w.Abort()
			return err
		}
	}
	if err := sc.Err(); err != nil {
		w.Abort()
		return fmt.Errorf("label: %s: %w", journal, err)
	}
	return w.Close()
}
