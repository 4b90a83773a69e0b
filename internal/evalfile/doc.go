// Package evalfile is the one codec of the evaluation files' common frame: a magic of 8
// bytes, a uint16 version, the family and feature-set strings, the family's own fields,
// the provenance (generation, training data, command), the weights, and a CRC-32 of
// everything before it, with nothing after. engine/nnue (network files, engine/nnue/file.go
// gives the layout) and engine/eval (linear files, engine/eval/file.go) lay out their own
// fields between. All integers are little-endian; a string is a uint16 byte length and
// that many bytes.
//
// A tour:
//
//	w := evalfile.NewWriter("SLABLINR", 1, "linear", "handset-terms")
//	w.U16(27)
//	w.Provenance(evalfile.Provenance{Data: "..."})
//	w.Float32s(weights)
//	data, err := w.Finish() // appends the checksum
//
//	r, version, err := evalfile.NewReader(data, evalfile.Kind{Magic: "SLABLINR", ...})
//	n := r.U16("count")
//	p := r.Provenance()
//	ws := r.Float32s(n, "weights")
//	err = r.Finish() // the checksum, and nothing after it
//
// A reader remembers its first failure: every later read returns zeros, and Err or Finish
// reports it ("truncated: W1 needs 1664000 bytes at offset 90, the file has 1000").
package evalfile
