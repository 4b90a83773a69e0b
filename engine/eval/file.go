package eval

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/shogilab/shogilab/internal/bounded"
	"github.com/shogilab/shogilab/internal/evalfile"
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
const MaxWeightsFileBytes = evalfile.HeaderBytes + 2 + 4*maxWeights + 4

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
	fw := evalfile.NewWriter(WeightsMagic, WeightsVersion, WeightsFamily, WeightsTerms)
	fields := weightFields(&w)
	fw.U16(len(fields))
	fw.Provenance(evalfile.Provenance{Generation: h.Generation, Data: h.Data, Command: h.Command})
	xs := make([]float32, len(fields))
	for i, f := range fields {
		xs[i] = *f
	}
	fw.Float32s(xs)
	data, err := fw.Finish()
	if err != nil {
		return nil, fmt.Errorf("eval: write: %w", err)
	}
	return data, nil
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

// weightsKind is the head of every linear evaluation file (package internal/evalfile).
var weightsKind = evalfile.Kind{Magic: WeightsMagic, MinVersion: WeightsVersion, MaxVersion: WeightsVersion,
	Family: WeightsFamily, FeatureSet: WeightsTerms, What: "a linear evaluation file"}

func decodeWeights(data []byte) (Weights, FileHeader, error) {
	var h FileHeader
	r, _, err := evalfile.NewReader(data, weightsKind)
	if err != nil {
		return Weights{}, h, err
	}
	var w Weights
	fields := weightFields(&w)
	count := r.U16("count")
	if r.Err() == nil && count != len(fields) {
		return Weights{}, h, fmt.Errorf("%d weights; feature set %s has %d", count, WeightsTerms, len(fields))
	}
	p := r.Provenance()
	h.Generation, h.Data, h.Command = p.Generation, p.Data, p.Command
	xs := r.Float32s(len(fields), "weights")
	if err := r.Finish(); err != nil {
		return Weights{}, h, err
	}
	for i, f := range fields {
		*f = xs[i]
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
