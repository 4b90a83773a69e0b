package solver

import (
	"bufio"
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// CheckpointFormat is the version of the checkpoint layout, raised whenever it changes.
//
// A checkpoint file is gzip (compress/gzip) over encoding/gob: first a CheckpointHeader,
// then a CheckpointState. The header names what is being solved, so that resuming a
// different problem, or with different options, is refused before the table is read.
const CheckpointFormat = 1

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
	Entries   []retro.TableEntry[minishogi.Code]
}

// Checkpoint is a saved df-pn search.
type Checkpoint struct {
	Header CheckpointHeader
	State  CheckpointState
}

// WriteCheckpoint writes c to path atomically: to path.tmp, synced, then renamed, so that a
// kill at any moment leaves either the previous checkpoint or the new one.
func WriteCheckpoint(path string, c *Checkpoint) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	bw := bufio.NewWriter(f)
	zw := gzip.NewWriter(bw)
	enc := gob.NewEncoder(zw)
	err = enc.Encode(&c.Header)
	if err == nil {
		err = enc.Encode(&c.State)
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("checkpoint %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // make the rename itself durable where the system allows
		d.Close()
	}
	return nil
}

// ReadCheckpoint reads a checkpoint written by WriteCheckpoint; a file that is not one, of
// another format version, or truncated is an error naming the file.
func ReadCheckpoint(path string) (*Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	defer f.Close()
	c, err := readCheckpoint(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return c, nil
}

func readCheckpoint(r io.Reader) (*Checkpoint, error) {
	zr, err := gzip.NewReader(r)
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
	if c.Header.Format != CheckpointFormat {
		return nil, fmt.Errorf("format %d, this program reads format %d", c.Header.Format, CheckpointFormat)
	}
	if err := dec.Decode(&c.State); err != nil {
		return nil, fmt.Errorf("truncated or damaged: %v", err)
	}
	// gzip checks its CRC and length only at the end of the stream.
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return nil, fmt.Errorf("truncated or damaged: %v", err)
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
