package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"github.com/shogilab/shogilab/internal/bounded"
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
// header with its four strings at their longest (65535 bytes each) and the weights at the
// largest sizes, MaxHidden1×MaxHidden2; about 28 MB. A file is checked against it by its
// size before it is read.
const MaxFileBytes = len(Magic) + 2 + 4*(2+0xffff) + 4 + 4*2 + 4 +
	2*(NumFeatures*MaxHidden1+MaxHidden1+2*MaxHidden1*MaxHidden2+MaxHidden2) + 4*MaxHidden2 + 4 + 4

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
	for _, s := range []string{h.Data, h.Command} {
		if len(s) > 0xffff {
			return nil, fmt.Errorf("nnue: write: a header string has %d bytes; at most 65535", len(s))
		}
	}
	var b bytes.Buffer
	le := binary.LittleEndian
	put := func(v any) { _ = binary.Write(&b, le, v) } // a bytes.Buffer does not fail
	str := func(s string) { put(uint16(len(s))); b.WriteString(s) }
	b.WriteString(Magic)
	version := versionValueOnly
	if n.hp > 0 {
		version = Version
	}
	put(uint16(version))
	str(Family)
	str(FeatureSet)
	put(uint32(NumFeatures))
	put(uint16(n.h1))
	put(uint16(n.h2))
	put(uint16(QA))
	put(uint16(QB))
	put(uint32(h.Generation))
	str(h.Data)
	str(h.Command)
	put(n.w1)
	put(n.b1)
	put(n.w2)
	put(n.b2)
	put(n.w3)
	put(n.b3)
	if n.hp > 0 {
		put(uint16(n.hp))
		str(MoveFeatureSet)
		put(uint32(NumMoveFeatures))
		put(uint16(QP))
		put(n.wp)
		put(n.bp)
		put(n.e)
		put(n.c)
	}
	put(crc32.ChecksumIEEE(b.Bytes()))
	return b.Bytes(), nil
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

// reader reads the fields in order, remembering the first failure.
type reader struct {
	data []byte
	off  int
	err  error
	what string // the field being read, for the error
}

func (r *reader) take(n int, what string) []byte {
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

func (r *reader) u16(what string) int {
	b := r.take(2, what)
	if b == nil {
		return 0
	}
	return int(binary.LittleEndian.Uint16(b))
}

func (r *reader) u32(what string) uint32 {
	b := r.take(4, what)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (r *reader) str(what string) string {
	n := r.u16(what + " length")
	return string(r.take(n, what))
}

func (r *reader) int16s(n int, what string) []int16 {
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

func (r *reader) int32s(n int, what string) []int32 {
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

func decode(data []byte) (*Net, error) {
	r := &reader{data: data}
	if m := r.take(len(Magic), "magic"); r.err != nil || string(m) != Magic {
		return nil, fmt.Errorf("not an evaluation file (no %q magic)", Magic)
	}
	var h Header
	h.Version = r.u16("version")
	if r.err == nil && (h.Version < versionValueOnly || h.Version > Version) {
		return nil, fmt.Errorf("version %d; this program reads versions %d to %d", h.Version, versionValueOnly, Version)
	}
	h.Family = r.str("family")
	if r.err == nil && h.Family != Family {
		return nil, fmt.Errorf("family %q; this program evaluates %q", h.Family, Family)
	}
	h.FeatureSet = r.str("feature set")
	if r.err == nil && h.FeatureSet != FeatureSet {
		return nil, fmt.Errorf("feature set %q; this program knows %q", h.FeatureSet, FeatureSet)
	}
	inputs := r.u32("inputs")
	if r.err == nil && inputs != NumFeatures {
		return nil, fmt.Errorf("%d inputs; feature set %s has %d", inputs, FeatureSet, NumFeatures)
	}
	h.Hidden1, h.Hidden2 = r.u16("hidden1"), r.u16("hidden2")
	if r.err == nil {
		if err := checkSizes(h.Hidden1, h.Hidden2); err != nil {
			return nil, fmt.Errorf("sizes %d×%d: need 1 to %d and 1 to %d", h.Hidden1, h.Hidden2, MaxHidden1, MaxHidden2)
		}
	}
	qa, qb := r.u16("qa"), r.u16("qb")
	if r.err == nil && (qa != QA || qb != QB) {
		return nil, fmt.Errorf("quantisation scales %d and %d; this program uses %d and %d", qa, qb, QA, QB)
	}
	h.Generation = int(r.u32("generation"))
	h.Data = r.str("data")
	h.Command = r.str("command")
	n := &Net{Header: h, h1: h.Hidden1, h2: h.Hidden2}
	n.w1 = r.int16s(NumFeatures*n.h1, "W1")
	n.b1 = r.int16s(n.h1, "B1")
	n.w2 = r.int16s(2*n.h1*n.h2, "W2")
	n.b2 = r.int32s(n.h2, "B2")
	n.w3 = r.int16s(n.h2, "W3")
	if b := r.int32s(1, "B3"); b != nil {
		n.b3 = b[0]
	}
	if h.Version >= 2 {
		if err := n.decodePolicy(r); err != nil {
			return nil, err
		}
	}
	body := r.off
	sum := r.u32("checksum")
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(data) {
		return nil, fmt.Errorf("%d bytes after the checksum", len(data)-r.off)
	}
	if got := crc32.ChecksumIEEE(data[:body]); got != sum {
		return nil, fmt.Errorf("checksum %08x, the contents give %08x: the file is corrupted", sum, got)
	}
	return n, nil
}

// decodePolicy reads the policy head of a version 2 file.
func (n *Net) decodePolicy(r *reader) error {
	h := &n.Header
	h.Policy = r.u16("policy size")
	if r.err == nil && (h.Policy < 1 || h.Policy > MaxPolicyHidden) {
		return fmt.Errorf("policy size %d: need 1 to %d", h.Policy, MaxPolicyHidden)
	}
	h.MoveFeatureSet = r.str("move feature set")
	if r.err == nil && h.MoveFeatureSet != MoveFeatureSet {
		return fmt.Errorf("move feature set %q; this program knows %q", h.MoveFeatureSet, MoveFeatureSet)
	}
	rows := r.u32("move rows")
	if r.err == nil && rows != NumMoveFeatures {
		return fmt.Errorf("%d move rows; move feature set %s has %d", rows, MoveFeatureSet, NumMoveFeatures)
	}
	qp := r.u16("qp")
	if r.err == nil && qp != QP {
		return fmt.Errorf("policy scale %d; this program uses %d", qp, QP)
	}
	if r.err != nil {
		return r.err
	}
	n.hp = h.Policy
	n.wp = r.int16s(2*n.h1*n.hp, "PW")
	n.bp = r.int32s(n.hp, "PB")
	n.e = r.int16s(NumMoveFeatures*n.hp, "E")
	n.c = r.int32s(NumMoveFeatures, "C")
	if r.err != nil {
		return r.err
	}
	if err := n.checkPolicySums(); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "nnue: "))
	}
	n.floatTable()
	return nil
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
