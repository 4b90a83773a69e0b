package nnue

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/shogilab/shogilab/internal/bounded"
	"github.com/shogilab/shogilab/internal/evalfile"
)

// The evaluation file format, version 2. All integers are little-endian; a string is a
// uint16 byte length and that many bytes of UTF-8.
//
//	magic      8 bytes  "SLABNNUE"
//	version    uint16   1 (a value network alone) or 2 (with a policy head)
//	family     string   "nnue"
//	features   string   the feature set, "halfkp-5x5"
//	inputs     uint32   NumFeatures (13000 for halfkp-5x5)
//	hidden1    uint16   accumulator size per perspective
//	hidden2    uint16   hidden layer size
//	qa, qb     uint16   the quantisation scales, 127 and 64
//	generation uint32   the training loop's generation (0: a single fit)
//	data       string   what the network was trained on (files, positions, digest)
//	command    string   the command that trained it
//	W1         int16 × inputs·hidden1     the feature transformer, row by feature
//	B1         int16 × hidden1
//	W2         int16 × 2·hidden1·hidden2  input-major (side to move's half first)
//	B2         int32 × hidden2
//	W3         int16 × hidden2
//	B3         int32
//	                    version 2 only, the policy head (Model gives its formula):
//	policy     uint16   its hidden size, 1 to MaxPolicyHidden
//	moves      string   the move feature set, "moves-5x5" (moves.go)
//	move rows  uint32   NumMoveFeatures (1665 for moves-5x5)
//	qp         uint16   the policy's weight scale, 256
//	PW         int16 × 2·hidden1·policy   input-major (side to move's half first), at qp
//	PB         int32 × policy             at qa·qp
//	E          int16 × move rows·policy   the move table, row by move feature, at qp
//	C          int32 × move rows          at qp
//	crc        uint32   CRC-32 (IEEE) of every byte before it
//
// Nothing may follow. The reader checks every field against what this version can
// evaluate, so a foreign, truncated or corrupted file is an error naming what is wrong.
//
// Version 1 is version 2 without the policy head: a network without one is written as
// version 1, byte for byte as programs before the policy head wrote it, and a version 1
// file reads as a network without a policy head, for which the evaluator's hand-set priors
// apply (engine/eval).
const (
	Magic = "SLABNNUE"
	// Version is the newest version of the format, which this program reads with the
	// versions before it.
	Version = 2
	// versionValueOnly is the version of a network without a policy head.
	versionValueOnly = 1
	// Family names this kind of evaluator in evaluation files.
	Family = "nnue"
)

// MaxFileBytes is the largest evaluation file ReadFile reads (package internal/bounded): the
// header with its four strings at their longest (65535 bytes each), the weights at the
// largest sizes, MaxHidden1×MaxHidden2, and the policy head at its largest, MaxPolicyHidden
// units with its move feature set's name at its longest; about 30 MB. A file is checked
// against it by its size before it is read.
const MaxFileBytes = evalfile.HeaderBytes + 4 + 4*2 +
	2*(NumFeatures*MaxHidden1+MaxHidden1+2*MaxHidden1*MaxHidden2+MaxHidden2) + 4*MaxHidden2 + 4 +
	2 + 2 + evalfile.MaxString + 4 + 2 +
	2*2*MaxHidden1*MaxPolicyHidden + 4*MaxPolicyHidden + 2*NumMoveFeatures*MaxPolicyHidden + 4*NumMoveFeatures +
	4

// Header is the description an evaluation file carries before its weights.
type Header struct {
	Version          int
	Family           string
	FeatureSet       string
	Hidden1, Hidden2 int
	Policy           int    // the policy head's hidden size (0: no policy head, version 1)
	MoveFeatureSet   string // the policy's move features ("" without a policy head)
	Generation       int
	Data             string // the training data: files, positions, digest
	Command          string // the command that made the file
}

// MarshalBinary returns n in the evaluation file format.
func (n *Net) MarshalBinary() ([]byte, error) {
	h := n.Header
	version := versionValueOnly
	if n.hp > 0 {
		version = Version
	}
	w := evalfile.NewWriter(Magic, version, Family, FeatureSet)
	w.U32(NumFeatures)
	w.U16(n.h1)
	w.U16(n.h2)
	w.U16(QA)
	w.U16(QB)
	w.Provenance(evalfile.Provenance{Generation: h.Generation, Data: h.Data, Command: h.Command})
	w.Int16s(n.w1)
	w.Int16s(n.b1)
	w.Int16s(n.w2)
	w.Int32s(n.b2)
	w.Int16s(n.w3)
	w.Int32s([]int32{n.b3})
	if n.hp > 0 {
		w.U16(n.hp)
		w.Str(MoveFeatureSet)
		w.U32(NumMoveFeatures)
		w.U16(QP)
		w.Int16s(n.wp)
		w.Int32s(n.bp)
		w.Int16s(n.e)
		w.Int32s(n.c)
	}
	data, err := w.Finish()
	if err != nil {
		return nil, fmt.Errorf("nnue: write: %w", err)
	}
	return data, nil
}

// ReadFile reads an evaluation file: a regular file of at most MaxFileBytes, whose magic is
// checked before the rest is read. Its errors read "nnue: PATH: what is wrong".
func ReadFile(path string) (*Net, error) {
	f, err := bounded.Open(path, int64(MaxFileBytes))
	if err != nil {
		return nil, fmt.Errorf("nnue: %w", err)
	}
	defer f.Close()
	head := make([]byte, len(Magic))
	if _, err := io.ReadFull(f, head); err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("nnue: %s: %w", path, err)
	}
	if string(head) != Magic {
		return nil, fmt.Errorf("nnue: %s: not an evaluation file (no %q magic)", path, Magic)
	}
	rest, err := io.ReadAll(bounded.NewReader(f, int64(MaxFileBytes-len(Magic)), path))
	if err != nil {
		return nil, fmt.Errorf("nnue: %w", err)
	}
	n, err := decode(append(head, rest...))
	if err != nil {
		return nil, fmt.Errorf("nnue: %s: %w", path, err)
	}
	return n, nil
}

// Decode reads a network in the evaluation file format from data.
func Decode(data []byte) (*Net, error) {
	n, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("nnue: %w", err)
	}
	return n, nil
}

// kind is the head every network file has (package internal/evalfile reads it).
var kind = evalfile.Kind{Magic: Magic, MinVersion: versionValueOnly, MaxVersion: Version, Family: Family, FeatureSet: FeatureSet}

func decode(data []byte) (*Net, error) {
	r, version, err := evalfile.NewReader(data, kind)
	if err != nil {
		return nil, err
	}
	h := Header{Version: version, Family: Family, FeatureSet: FeatureSet}
	inputs := r.U32("inputs")
	if r.Err() == nil && inputs != NumFeatures {
		return nil, fmt.Errorf("%d inputs; feature set %s has %d", inputs, FeatureSet, NumFeatures)
	}
	h.Hidden1, h.Hidden2 = r.U16("hidden1"), r.U16("hidden2")
	if r.Err() == nil {
		if err := checkSizes(h.Hidden1, h.Hidden2); err != nil {
			return nil, fmt.Errorf("sizes %d×%d: need 1 to %d and 1 to %d", h.Hidden1, h.Hidden2, MaxHidden1, MaxHidden2)
		}
	}
	qa, qb := r.U16("qa"), r.U16("qb")
	if r.Err() == nil && (qa != QA || qb != QB) {
		return nil, fmt.Errorf("quantisation scales %d and %d; this program uses %d and %d", qa, qb, QA, QB)
	}
	p := r.Provenance()
	h.Generation, h.Data, h.Command = p.Generation, p.Data, p.Command
	n := &Net{Header: h, h1: h.Hidden1, h2: h.Hidden2}
	n.w1 = r.Int16s(NumFeatures*n.h1, "W1")
	n.b1 = r.Int16s(n.h1, "B1")
	n.w2 = r.Int16s(2*n.h1*n.h2, "W2")
	n.b2 = r.Int32s(n.h2, "B2")
	n.w3 = r.Int16s(n.h2, "W3")
	if b := r.Int32s(1, "B3"); b != nil {
		n.b3 = b[0]
	}
	if version >= 2 {
		if err := n.decodePolicy(r); err != nil {
			return nil, err
		}
	}
	if err := r.Finish(); err != nil {
		return nil, err
	}
	if n.hp > 0 {
		// After the checksum: a corrupted file is reported as corrupted, not as a
		// policy whose sums could overflow.
		if err := n.checkPolicySums(); err != nil {
			return nil, errors.New(strings.TrimPrefix(err.Error(), "nnue: "))
		}
		n.floatTable()
	}
	return n, nil
}

// decodePolicy reads the policy head of a version 2 file.
func (n *Net) decodePolicy(r *evalfile.Reader) error {
	h := &n.Header
	h.Policy = r.U16("policy size")
	if r.Err() == nil && (h.Policy < 1 || h.Policy > MaxPolicyHidden) {
		return fmt.Errorf("policy size %d: need 1 to %d", h.Policy, MaxPolicyHidden)
	}
	h.MoveFeatureSet = r.Str("move feature set")
	if r.Err() == nil && h.MoveFeatureSet != MoveFeatureSet {
		return fmt.Errorf("move feature set %q; this program knows %q", h.MoveFeatureSet, MoveFeatureSet)
	}
	rows := r.U32("move rows")
	if r.Err() == nil && rows != NumMoveFeatures {
		return fmt.Errorf("%d move rows; move feature set %s has %d", rows, MoveFeatureSet, NumMoveFeatures)
	}
	qp := r.U16("qp")
	if r.Err() == nil && qp != QP {
		return fmt.Errorf("policy scale %d; this program uses %d", qp, QP)
	}
	if r.Err() != nil {
		return r.Err()
	}
	n.hp = h.Policy
	n.wp = r.Int16s(2*n.h1*n.hp, "PW")
	n.bp = r.Int32s(n.hp, "PB")
	n.e = r.Int16s(NumMoveFeatures*n.hp, "E")
	n.c = r.Int32s(NumMoveFeatures, "C")
	return r.Err()
}

// Write writes n to w in the evaluation file format.
func (n *Net) Write(w io.Writer) error {
	data, err := n.MarshalBinary()
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("nnue: write: %w", err)
	}
	return nil
}
