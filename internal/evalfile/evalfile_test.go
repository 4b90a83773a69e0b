package evalfile

import (
	"encoding/binary"
	"hash/crc32"
	"strings"
	"testing"
)

var kind = Kind{Magic: "TESTMAGI", MinVersion: 1, MaxVersion: 2, Family: "fam", FeatureSet: "feat", What: "a test file"}

// sample is a file written by hand, byte by byte, from the layout in doc.go: magic,
// version 2, "fam", "feat", a uint16 7, provenance (generation 3, "d", "c"), two int16s
// -1 and 2, one float32 0.5, and the CRC-32 of all of it.
func sample() []byte {
	b := []byte("TESTMAGI")
	b = append(b, 2, 0)
	b = append(b, 3, 0, 'f', 'a', 'm')
	b = append(b, 4, 0, 'f', 'e', 'a', 't')
	b = append(b, 7, 0)
	b = append(b, 3, 0, 0, 0, 1, 0, 'd', 1, 0, 'c')
	b = append(b, 0xff, 0xff, 2, 0)
	b = append(b, 0, 0, 0, 0x3f) // 0.5 is 0x3f000000
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func TestWriterMatchesTheLayout(t *testing.T) {
	w := NewWriter("TESTMAGI", 2, "fam", "feat")
	w.U16(7)
	w.Provenance(Provenance{Generation: 3, Data: "d", Command: "c"})
	w.Int16s([]int16{-1, 2})
	w.Float32s([]float32{0.5})
	got, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if want := sample(); string(got) != string(want) {
		t.Errorf("wrote % x\nwant  % x", got, want)
	}
}

func TestReaderReadsTheLayout(t *testing.T) {
	r, version, err := NewReader(sample(), kind)
	if err != nil {
		t.Fatal(err)
	}
	n := r.U16("n")
	p := r.Provenance()
	xs := r.Int16s(2, "xs")
	fs := r.Float32s(1, "fs")
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	if version != 2 || n != 7 || p != (Provenance{3, "d", "c"}) || xs[0] != -1 || xs[1] != 2 || fs[0] != 0.5 {
		t.Errorf("read version %d, n %d, %+v, %v, %v", version, n, p, xs, fs)
	}
}

// TestReaderRejects: each damage gives an error naming what is wrong.
func TestReaderRejects(t *testing.T) {
	edit := func(f func([]byte) []byte) []byte { return f(sample()) }
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"foreign", []byte("NOTMAGIC and more"), `not a test file (no "TESTMAGI" magic)`},
		{"empty", nil, "not a test file"},
		{"newer version", edit(func(b []byte) []byte { b[8] = 3; return b }), "version 3; this program reads versions 1 to 2"},
		{"version 0", edit(func(b []byte) []byte { b[8] = 0; return b }), "version 0"},
		{"family", edit(func(b []byte) []byte { b[12] = 'g'; return b }), `family "gam"`},
		{"feature set", edit(func(b []byte) []byte { b[17] = 'g'; return b }), `feature set "geat"`},
		{"truncated in the head", sample()[:14], "truncated: family"},
		{"truncated in the weights", sample()[:len(sample())-6], "truncated: fs needs 4 bytes"},
		{"no checksum", sample()[:len(sample())-2], "truncated: checksum"},
		{"trailing", append(sample(), 0), "1 bytes after the checksum"},
		{"flipped weight", edit(func(b []byte) []byte { b[len(b)-6] ^= 1; return b }), "the file is corrupted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, _, err := NewReader(c.data, kind)
			if err == nil {
				r.U16("n")
				r.Provenance()
				r.Int16s(2, "xs")
				r.Float32s(1, "fs")
				err = r.Finish()
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v; want an error with %q", err, c.want)
			}
		})
	}
}

func TestWriterRefusesLongStrings(t *testing.T) {
	w := NewWriter("TESTMAGI", 1, "fam", "feat")
	w.Provenance(Provenance{Data: strings.Repeat("x", MaxString+1)})
	if _, err := w.Finish(); err == nil || !strings.Contains(err.Error(), "65536 bytes") {
		t.Errorf("%v; want an error naming 65536 bytes", err)
	}
}
