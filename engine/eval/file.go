package eval

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/shogilab/shogilab/internal/bounded"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// The linear evaluation file format, version 1: the hand-set evaluation's terms with
// fitted weights (train linear). Integers are little-endian; a string is a uint16 byte
// length and that many bytes of UTF-8.
//
//	magic      8 bytes  "SLABLINR"
//	version    uint16   1
//	family     string   "linear"
//	features   string   "handset-terms"
//	count      uint16   the number of weights, 27
//	generation uint32   the training loop's generation (0: a single fit)
//	data       string   what the weights were fitted to
//	command    string   the command that fitted them
//	weights    float32 × count, in the order of weightFields
//	crc        uint32   CRC-32 (IEEE) of every byte before it
//
// Nothing may follow. engine/nnue's network files start with a magic of their own, so a
// reader can tell the two families apart by their first 8 bytes (IsWeightsFile).
const (
	WeightsMagic   = "SLABLINR"
	WeightsVersion = 1
	WeightsFamily  = "linear"
	WeightsTerms   = "handset-terms"
)

// MaxWeightsFileBytes is the largest linear evaluation file ReadWeightsFile reads (package
// internal/bounded): the header with its four strings at their longest (65535 bytes each)
// and every weight; about 256 KiB. A file is checked against it by its size before it is
// read.
const MaxWeightsFileBytes = len(WeightsMagic) + 2 + 4*(2+0xffff) + 2 + 4 + 4*maxWeights + 4

// maxWeights bounds the weights of the format: the count field is a uint16.
const maxWeights = 0xffff

// NumWeights is the number of weights of the linear family's feature set (WeightsTerms).
func NumWeights() int { return len(weightFields(new(Weights))) }

// FileHeader is the description a linear evaluation file carries before its weights.
type FileHeader struct {
	Generation int
	Data       string // the training data: files, positions, digest
	Command    string // the command that made the file
}

// weightFields are the weights in file order: Board by piece type (pawn to dragon, the
// king left out), Hand in HandTypes' order, then the scalar weights.
func weightFields(w *Weights) []*float32 {
	var f []*float32
	for pt := ms.Pawn; pt <= ms.Dragon; pt++ {
		if pt != ms.King {
			f = append(f, &w.Board[pt])
		}
	}
	for _, pt := range ms.HandTypes {
		f = append(f, &w.Hand[pt])
	}
	return append(f, &w.KingZoneAttacked, &w.KingEscape, &w.Threat, &w.Tempo, &w.ValueScale,
		&w.PriorCapture, &w.PriorPromote, &w.PriorDecline, &w.PriorCheck, &w.PriorDropNearKing,
		&w.PriorEscape, &w.PriorHang, &w.PriorMate)
}

// IsWeightsFile reports whether data starts as a linear evaluation file.
func IsWeightsFile(data []byte) bool { return bytes.HasPrefix(data, []byte(WeightsMagic)) }

// MarshalWeights returns w with header h in the linear evaluation file format.
func MarshalWeights(w Weights, h FileHeader) ([]byte, error) {
	for _, s := range []string{h.Data, h.Command} {
		if len(s) > 0xffff {
			return nil, fmt.Errorf("eval: write: a header string has %d bytes; at most 65535", len(s))
		}
	}
	var b bytes.Buffer
	le := binary.LittleEndian
	put := func(v any) { _ = binary.Write(&b, le, v) } // a bytes.Buffer does not fail
	str := func(s string) { put(uint16(len(s))); b.WriteString(s) }
	b.WriteString(WeightsMagic)
	put(uint16(WeightsVersion))
	str(WeightsFamily)
	str(WeightsTerms)
	fields := weightFields(&w)
	put(uint16(len(fields)))
	put(uint32(h.Generation))
	str(h.Data)
	str(h.Command)
	for _, f := range fields {
		put(*f)
	}
	put(crc32.ChecksumIEEE(b.Bytes()))
	return b.Bytes(), nil
}

// ReadWeightsFile reads a linear evaluation file, a regular file of at most
// MaxWeightsFileBytes. Its errors read "eval: PATH: what is wrong".
func ReadWeightsFile(path string) (Weights, FileHeader, error) {
	data, err := bounded.ReadFile(path, int64(MaxWeightsFileBytes))
	if err != nil {
		return Weights{}, FileHeader{}, fmt.Errorf("eval: %w", err)
	}
	w, h, err := decodeWeights(data)
	if err != nil {
		return Weights{}, FileHeader{}, fmt.Errorf("eval: %s: %w", path, err)
	}
	return w, h, nil
}

// DecodeWeights reads weights in the linear evaluation file format from data.
func DecodeWeights(data []byte) (Weights, FileHeader, error) {
	w, h, err := decodeWeights(data)
	if err != nil {
		return Weights{}, FileHeader{}, fmt.Errorf("eval: %w", err)
	}
	return w, h, nil
}

func decodeWeights(data []byte) (Weights, FileHeader, error) {
	var h FileHeader
	off := 0
	short := func(what string) error { return fmt.Errorf("truncated: the file ends in its %s", what) }
	take := func(n int) []byte {
		if off+n > len(data) {
			return nil
		}
		b := data[off : off+n]
		off += n
		return b
	}
	u16 := func(what string) (int, error) {
		b := take(2)
		if b == nil {
			return 0, short(what)
		}
		return int(binary.LittleEndian.Uint16(b)), nil
	}
	str := func(what string) (string, error) {
		n, err := u16(what)
		if err != nil {
			return "", err
		}
		b := take(n)
		if b == nil {
			return "", short(what)
		}
		return string(b), nil
	}
	if !IsWeightsFile(data) {
		return Weights{}, h, fmt.Errorf("not a linear evaluation file (no %q magic)", WeightsMagic)
	}
	off = len(WeightsMagic)
	version, err := u16("version")
	if err != nil {
		return Weights{}, h, err
	}
	if version != WeightsVersion {
		return Weights{}, h, fmt.Errorf("version %d; this program reads version %d", version, WeightsVersion)
	}
	family, err := str("family")
	if err != nil {
		return Weights{}, h, err
	}
	if family != WeightsFamily {
		return Weights{}, h, fmt.Errorf("family %q; this program reads %q", family, WeightsFamily)
	}
	terms, err := str("feature set")
	if err != nil {
		return Weights{}, h, err
	}
	if terms != WeightsTerms {
		return Weights{}, h, fmt.Errorf("feature set %q; this program knows %q", terms, WeightsTerms)
	}
	var w Weights
	fields := weightFields(&w)
	count, err := u16("count")
	if err != nil {
		return Weights{}, h, err
	}
	if count != len(fields) {
		return Weights{}, h, fmt.Errorf("%d weights; feature set %s has %d", count, WeightsTerms, len(fields))
	}
	b := take(4)
	if b == nil {
		return Weights{}, h, short("generation")
	}
	h.Generation = int(binary.LittleEndian.Uint32(b))
	if h.Data, err = str("data"); err != nil {
		return Weights{}, h, err
	}
	if h.Command, err = str("command"); err != nil {
		return Weights{}, h, err
	}
	for _, f := range fields {
		b := take(4)
		if b == nil {
			return Weights{}, h, short("weights")
		}
		*f = math.Float32frombits(binary.LittleEndian.Uint32(b))
	}
	body := off
	b = take(4)
	if b == nil {
		return Weights{}, h, short("checksum")
	}
	if off != len(data) {
		return Weights{}, h, fmt.Errorf("%d bytes after the checksum", len(data)-off)
	}
	if sum, got := binary.LittleEndian.Uint32(b), crc32.ChecksumIEEE(data[:body]); sum != got {
		return Weights{}, h, fmt.Errorf("checksum %08x, the contents give %08x: the file is corrupted", sum, got)
	}
	cfg := DefaultConfig()
	cfg.Weights = w
	if err := cfg.Validate(); err != nil {
		return Weights{}, h, errors.New(err.Error()[len("eval: config: "):])
	}
	for _, f := range fields {
		if math.IsNaN(float64(*f)) || math.IsInf(float64(*f), 0) {
			return Weights{}, h, errors.New("a weight is not a finite number")
		}
	}
	return w, h, nil
}
