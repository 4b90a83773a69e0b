package evalfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
)

// MagicLen is the length of every evaluation file's magic.
const MagicLen = 8

// MaxString is the longest string the format holds: its length is a uint16.
const MaxString = 0xffff

// Kind is what a reader expects at the head of a file: its magic, the versions it reads,
// its family and feature set.
type Kind struct {
	Magic                  string
	MinVersion, MaxVersion int
	Family, FeatureSet     string
	// What names the file in the error for a wrong magic, as in "not a linear evaluation
	// file" ("an evaluation file" if empty).
	What string
}

// Provenance is what every evaluation file says of how it was made.
type Provenance struct {
	Generation int    // the training loop's generation (0: a single fit)
	Data       string // the training data: files, positions, digest
	Command    string // the command that made the file
}

// HeaderBytes is the most bytes the common head and the provenance take beside the family's
// own fields: the magic, the version, four strings at their longest and the generation.
const HeaderBytes = MagicLen + 2 + 4*(2+MaxString) + 4

// Writer writes one evaluation file into memory.
type Writer struct {
	b   bytes.Buffer
	err error
}

// NewWriter starts a file with its magic, version, family and feature set.
func NewWriter(magic string, version int, family, features string) *Writer {
	w := &Writer{}
	w.b.WriteString(magic)
	w.U16(version)
	w.Str(family)
	w.Str(features)
	return w
}

func (w *Writer) put(v any) { _ = binary.Write(&w.b, binary.LittleEndian, v) } // a bytes.Buffer does not fail

// U16 writes v as a uint16.
func (w *Writer) U16(v int) { w.put(uint16(v)) }

// U32 writes v as a uint32.
func (w *Writer) U32(v uint32) { w.put(v) }

// Str writes s with its length; a string longer than MaxString makes Finish fail.
func (w *Writer) Str(s string) {
	if len(s) > MaxString && w.err == nil {
		w.err = fmt.Errorf("a header string has %d bytes; at most %d", len(s), MaxString)
	}
	w.U16(len(s))
	w.b.WriteString(s)
}

// Provenance writes the generation, the data and the command.
func (w *Writer) Provenance(p Provenance) {
	w.U32(uint32(p.Generation))
	w.Str(p.Data)
	w.Str(p.Command)
}

// Int16s, Int32s and Float32s write numbers in order.
func (w *Writer) Int16s(xs []int16)     { w.put(xs) }
func (w *Writer) Int32s(xs []int32)     { w.put(xs) }
func (w *Writer) Float32s(xs []float32) { w.put(xs) }

// Finish appends the checksum and returns the file, or the first error of the writes.
func (w *Writer) Finish() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	w.put(crc32.ChecksumIEEE(w.b.Bytes()))
	return w.b.Bytes(), nil
}

// Reader reads the fields of one file in order, remembering the first failure.
type Reader struct {
	data []byte
	off  int
	err  error
}

// NewReader checks the head of data against k and returns a reader positioned after it,
// with the file's version. Its errors say what is wrong, without a prefix.
func NewReader(data []byte, k Kind) (*Reader, int, error) {
	what := k.What
	if what == "" {
		what = "an evaluation file"
	}
	if !bytes.HasPrefix(data, []byte(k.Magic)) {
		return nil, 0, fmt.Errorf("not %s (no %q magic)", what, k.Magic)
	}
	r := &Reader{data: data, off: len(k.Magic)}
	version := r.U16("version")
	if r.err == nil && (version < k.MinVersion || version > k.MaxVersion) {
		if k.MinVersion == k.MaxVersion {
			return nil, 0, fmt.Errorf("version %d; this program reads version %d", version, k.MaxVersion)
		}
		return nil, 0, fmt.Errorf("version %d; this program reads versions %d to %d", version, k.MinVersion, k.MaxVersion)
	}
	family := r.Str("family")
	if r.err == nil && family != k.Family {
		return nil, 0, fmt.Errorf("family %q; this program reads %q", family, k.Family)
	}
	features := r.Str("feature set")
	if r.err == nil && features != k.FeatureSet {
		return nil, 0, fmt.Errorf("feature set %q; this program knows %q", features, k.FeatureSet)
	}
	if r.err != nil {
		return nil, 0, r.err
	}
	return r, version, nil
}

// Err is the first failure, nil if none.
func (r *Reader) Err() error { return r.err }

// Off is the offset of the next field.
func (r *Reader) Off() int { return r.off }

func (r *Reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.data)-r.off < n {
		r.err = fmt.Errorf("truncated: %s needs %d bytes at offset %d, the file has %d", what, n, r.off, len(r.data))
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

// U16 reads a uint16 (0 after a failure).
func (r *Reader) U16(what string) int {
	b := r.take(2, what)
	if b == nil {
		return 0
	}
	return int(binary.LittleEndian.Uint16(b))
}

// U32 reads a uint32 (0 after a failure).
func (r *Reader) U32(what string) uint32 {
	b := r.take(4, what)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

// Str reads a string with its length.
func (r *Reader) Str(what string) string {
	n := r.U16(what + " length")
	return string(r.take(n, what))
}

// Provenance reads the generation, the data and the command.
func (r *Reader) Provenance() Provenance {
	var p Provenance
	p.Generation = int(r.U32("generation"))
	p.Data = r.Str("data")
	p.Command = r.Str("command")
	return p
}

// Int16s reads n int16s (nil after a failure).
func (r *Reader) Int16s(n int, what string) []int16 {
	b := r.take(2*n, what)
	if b == nil {
		return nil
	}
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return out
}

// Int32s reads n int32s (nil after a failure).
func (r *Reader) Int32s(n int, what string) []int32 {
	b := r.take(4*n, what)
	if b == nil {
		return nil
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// Float32s reads n float32s (nil after a failure).
func (r *Reader) Float32s(n int, what string) []float32 {
	b := r.take(4*n, what)
	if b == nil {
		return nil
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// Finish reads the checksum, which must be the file's last bytes and match every byte
// before it; it returns the first failure of the whole read.
func (r *Reader) Finish() error {
	body := r.off
	sum := r.U32("checksum")
	if r.err != nil {
		return r.err
	}
	if r.off != len(r.data) {
		return fmt.Errorf("%d bytes after the checksum", len(r.data)-r.off)
	}
	if got := crc32.ChecksumIEEE(r.data[:body]); got != sum {
		return fmt.Errorf("checksum %08x, the contents give %08x: the file is corrupted", sum, got)
	}
	return nil
}
