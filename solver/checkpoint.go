package solver

import (
	"bufio"
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"

	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// CheckpointFormat is the version of the checkpoint layout, raised whenever it changes.
//
// A checkpoint file is gzip (compress/gzip) over encoding/gob: first a CheckpointHeader,
// then the state's numbers and its table's size, then the table in messages of at most
// checkpointChunk entries. The header names what is being solved, so that resuming a
// different problem, or with different options, is refused before the table is read.
// gob holds a whole message in memory while it encodes or decodes it, so format 1, which
// wrote the table as one message, took some three times the table's memory to save a table
// of tens of millions of entries (20 GB for the two-piece search on a 6 GiB budget, which
// the system killed); format 2 saves in constant memory beyond the table. Format 1 files
// are still read.
const CheckpointFormat = 2

// checkpointChunk is the most table entries one gob message of a checkpoint holds.
const checkpointChunk = 1 << 16

// checkpointCounts is the state of a format 2 checkpoint before its table.
type checkpointCounts struct {
	Plies     int
	Disproved int
	Nodes     int64
	Seconds   float64
	Entries   int // the table entries that follow
}

// checkpointMagic opens every header, so that a foreign gob stream is told apart.
const checkpointMagic = "shogilab df-pn checkpoint"

// CheckpointHeader says which search a checkpoint belongs to.
type CheckpointHeader struct {
	Magic    string
	Format   int
	Name     string // the problem's name (a handicap's), or empty
	Root     minishogi.Code
	Attacker minishogi.Color
	MaxPlies int
	Upper    bool
}

// CheckpointState is the iterative deepening's position: the mate length being searched
// (Plies), the longest length disproved (Disproved, -1: none), the nodes and seconds so far,
// and the df-pn table.
type CheckpointState struct {
	Plies     int
	Disproved int
	Nodes     int64
	Seconds   float64
	// Entries is the table as ReadCheckpoint read it. A checkpoint that a search makes
	// streams its live table instead (table), so that saving does not copy it, and one that
	// OpenCheckpoint opened streams its file (chunks), so that resuming does not either.
	Entries []retro.TableEntry[minishogi.Code]
	table   iter.Seq[retro.TableEntry[minishogi.Code]]
	size    int // the live table's entries, or the file's
	chunks  *chunkReader
}

// chunkReader reads the table of an opened format 2 checkpoint one message at a time.
type chunkReader struct {
	path string
	f    *os.File
	zr   *gzip.Reader
	dec  *gob.Decoder
	read int // entries read so far
	size int // entries the file announces
	done bool
}

// each calls fn with the entries of every message in turn; at the end it checks the gzip
// stream's CRC and length, which gzip checks only there.
func (r *chunkReader) each(fn func([]retro.TableEntry[minishogi.Code])) error {
	for {
		chunk, err := r.decode()
		if err != nil {
			return fmt.Errorf("checkpoint %s: %w", r.path, err)
		}
		if chunk == nil {
			return nil
		}
		fn(chunk)
	}
}

// decode returns the next message's entries, or nil after the last.
func (r *chunkReader) decode() ([]retro.TableEntry[minishogi.Code], error) {
	if r.done {
		return nil, fmt.Errorf("its table was read already (a checkpoint resumes one search)")
	}
	if r.read == r.size {
		r.done = true
		if _, err := io.Copy(io.Discard, r.zr); err != nil {
			return nil, fmt.Errorf("truncated or damaged: %v", err)
		}
		return nil, nil
	}
	var chunk []retro.TableEntry[minishogi.Code]
	if err := r.dec.Decode(&chunk); err != nil {
		return nil, fmt.Errorf("truncated or damaged after %d of %d table entries: %v", r.read, r.size, err)
	}
	if len(chunk) == 0 || len(chunk) > checkpointChunk || r.read+len(chunk) > r.size {
		return nil, fmt.Errorf("damaged: a table message of %d entries after %d of %d", len(chunk), r.read, r.size)
	}
	r.read += len(chunk)
	return chunk, nil
}

// restore stores the state's table in ms: the entries read, or the opened file's messages
// one at a time, so that the table is never held twice.
func (s *CheckpointState) restore(ms *retro.MateSearch[minishogi.Position, minishogi.Move, minishogi.Code]) error {
	if s.chunks == nil {
		ms.Restore(s.Entries, s.Nodes)
		return nil
	}
	ms.Reserve(s.size)
	if err := s.chunks.each(func(chunk []retro.TableEntry[minishogi.Code]) { ms.Restore(chunk, 0) }); err != nil {
		return err
	}
	ms.Restore(nil, s.Nodes)
	return nil
}

// liveTable returns the state's table and its size: the live table of a search, or Entries.
func (s *CheckpointState) liveTable() (iter.Seq[retro.TableEntry[minishogi.Code]], int) {
	if s.table != nil {
		return s.table, s.size
	}
	return slices.Values(s.Entries), len(s.Entries)
}

// Checkpoint is a saved df-pn search.
type Checkpoint struct {
	Header CheckpointHeader
	State  CheckpointState
}

// WriteCheckpoint writes c to path through package atomicfile: a temporary file of this
// process beside it, synced, then renamed, so that a kill at any moment leaves either the
// previous checkpoint or the new one, and two processes never share a temporary file.
// Keeping two processes off one checkpoint is the caller's (a lock, filelock.Beside).
func WriteCheckpoint(path string, c *Checkpoint) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	defer f.Abort()
	bw := bufio.NewWriter(f)
	zw := gzip.NewWriter(bw)
	enc := gob.NewEncoder(zw)
	err = enc.Encode(&c.Header)
	table, size := c.State.liveTable()
	if err == nil {
		err = enc.Encode(checkpointCounts{Plies: c.State.Plies, Disproved: c.State.Disproved,
			Nodes: c.State.Nodes, Seconds: c.State.Seconds, Entries: size})
	}
	if err == nil {
		err = writeChunks(enc, table, size)
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Commit()
	}
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return nil
}

// writeChunks encodes the size entries of table in messages of at most checkpointChunk.
func writeChunks(enc *gob.Encoder, table iter.Seq[retro.TableEntry[minishogi.Code]], size int) error {
	chunk := make([]retro.TableEntry[minishogi.Code], 0, min(size, checkpointChunk))
	n := 0
	for e := range table {
		chunk = append(chunk, e)
		n++
		if len(chunk) == checkpointChunk {
			if err := enc.Encode(chunk); err != nil {
				return err
			}
			chunk = chunk[:0]
		}
	}
	if len(chunk) > 0 {
		if err := enc.Encode(chunk); err != nil {
			return err
		}
	}
	if n != size {
		return fmt.Errorf("the table has %d entries, not the %d announced", n, size)
	}
	return nil
}

// ReadCheckpoint reads a checkpoint written by WriteCheckpoint, its table into
// State.Entries; a file that is not one, of another format version, or truncated is an
// error naming the file.
func ReadCheckpoint(path string) (*Checkpoint, error) {
	c, err := OpenCheckpoint(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if r := c.State.chunks; r != nil {
		// The size is the file's word, so memory is reserved for at most a chunk ahead of
		// what the file really holds.
		c.State.Entries = make([]retro.TableEntry[minishogi.Code], 0, min(r.size, checkpointChunk))
		if err := r.each(func(chunk []retro.TableEntry[minishogi.Code]) { c.State.Entries = append(c.State.Entries, chunk...) }); err != nil {
			return nil, err
		}
		if err := c.Close(); err != nil {
			return nil, fmt.Errorf("checkpoint %s: %w", path, err)
		}
	}
	return c, nil
}

// OpenCheckpoint reads a checkpoint's header and counts and leaves its table in the file, to
// be streamed into the search that resumes it (DFPNOptions.Resume), so that a resume needs
// no memory beyond the table's own. It first reads the whole file through once, holding
// nothing, so that a truncated or damaged file (gzip's CRC and length) is refused here and
// not after the search has begun. Close the checkpoint when done. A format 1 file is read
// whole.
func OpenCheckpoint(path string) (*Checkpoint, error) {
	if err := checkGzip(path); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	c, err := openCheckpoint(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	if c.State.chunks == nil {
		f.Close()
	}
	return c, nil
}

// Close closes the file of an opened checkpoint (a no-op for one read whole or made by a
// search).
func (c *Checkpoint) Close() error {
	if r := c.State.chunks; r != nil {
		c.State.chunks = nil
		return r.f.Close()
	}
	return nil
}

// checkGzip reads the file at path through gzip to its end, which checks the stream's CRC and
// length.
func checkGzip(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("not a checkpoint (not gzip: %v)", err)
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return fmt.Errorf("truncated or damaged: %v", err)
	}
	return nil
}

func openCheckpoint(f *os.File) (*Checkpoint, error) {
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("not a checkpoint (not gzip: %v)", err)
	}
	dec := gob.NewDecoder(zr)
	var c Checkpoint
	if err := dec.Decode(&c.Header); err != nil {
		return nil, fmt.Errorf("not a checkpoint (bad header: %v)", err)
	}
	if c.Header.Magic != checkpointMagic {
		return nil, fmt.Errorf("not a df-pn checkpoint")
	}
	switch c.Header.Format {
	case 1: // the state and its table in one message
		if err := dec.Decode(&c.State); err != nil {
			return nil, fmt.Errorf("truncated or damaged: %v", err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			return nil, fmt.Errorf("truncated or damaged: %v", err)
		}
	case CheckpointFormat:
		var n checkpointCounts
		if err := dec.Decode(&n); err != nil {
			return nil, fmt.Errorf("truncated or damaged: %v", err)
		}
		if n.Entries < 0 {
			return nil, fmt.Errorf("damaged: a table of %d entries", n.Entries)
		}
		c.State = CheckpointState{Plies: n.Plies, Disproved: n.Disproved, Nodes: n.Nodes, Seconds: n.Seconds,
			size: n.Entries, chunks: &chunkReader{path: f.Name(), f: f, zr: zr, dec: dec, size: n.Entries}}
	default:
		return nil, fmt.Errorf("format %d, this program reads formats 1 and %d", c.Header.Format, CheckpointFormat)
	}
	return &c, nil
}

// Matches returns an error saying how h differs from the header of the search it would
// resume, or nil.
func (h CheckpointHeader) Matches(want CheckpointHeader) error {
	switch {
	case h.Name != want.Name:
		return fmt.Errorf("the checkpoint is of %q, not %q", h.Name, want.Name)
	case h.Root != want.Root || h.Attacker != want.Attacker:
		return fmt.Errorf("the checkpoint is of another root position or attacker")
	case h.MaxPlies != want.MaxPlies || h.Upper != want.Upper:
		return fmt.Errorf("the checkpoint was taken with --max-plies %d --upper=%v, not %d and %v", h.MaxPlies, h.Upper, want.MaxPlies, want.Upper)
	}
	return nil
}
