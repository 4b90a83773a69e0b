package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	ms "github.com/shogilab/shogilab/rules/minishogi"
)

func testWeights() Weights {
	w := DefaultWeights()
	w.Board[ms.Pawn], w.Hand[ms.Gold], w.Tempo, w.PriorHang, w.PriorMate = 111, 555, 12.5, 0.25, 19
	return w
}

// TestWeightsFileRoundTrip: a file written and read back gives the same weights and
// header; its length is the format's: 8 magic, 2 version, 2+6 family, 2+13 features,
// 2 count, 4 generation, 2+len(data), 2+len(command), 27·4 weights, 4 checksum.
func TestWeightsFileRoundTrip(t *testing.T) {
	h := FileHeader{Generation: 3, Data: "some games", Command: "train linear x"}
	data, err := MarshalWeights(testWeights(), h)
	if err != nil {
		t.Fatal(err)
	}
	if want := 8 + 2 + 8 + 15 + 2 + 4 + 2 + len(h.Data) + 2 + len(h.Command) + 27*4 + 4; len(data) != want {
		t.Errorf("file of %d bytes; want %d", len(data), want)
	}
	path := filepath.Join(t.TempDir(), "w.lin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	w, got, err := ReadWeightsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if w != testWeights() || got != h {
		t.Errorf("read back %+v %+v", w, got)
	}
	if !IsWeightsFile(data) || IsWeightsFile([]byte("SLABNNUE....")) {
		t.Error("IsWeightsFile tells the families apart wrongly")
	}
}

// TestWeightsFileRejects: a truncated file at every length, a flipped byte anywhere, a
// foreign file, another version, trailing bytes and a non-positive ValueScale are errors
// naming what is wrong.
func TestWeightsFileRejects(t *testing.T) {
	good, err := MarshalWeights(testWeights(), FileHeader{Data: "d", Command: "c"})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(good); n++ {
		if _, _, err := DecodeWeights(good[:n]); err == nil {
			t.Fatalf("a file cut to %d of %d bytes was read", n, len(good))
		}
	}
	for i := range good {
		bad := append([]byte(nil), good...)
		bad[i] ^= 0x10
		if _, _, err := DecodeWeights(bad); err == nil {
			t.Fatalf("a file with byte %d flipped was read", i)
		}
	}
	version := append([]byte(nil), good...)
	version[8] = 2
	zeroScale := testWeights()
	zeroScale.ValueScale = 0
	noScale, _ := MarshalWeights(zeroScale, FileHeader{})
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"foreign", []byte("SLABNNUE and more"), "not a linear evaluation file"},
		{"version", version, "version 2"},
		{"trailing", append(append([]byte(nil), good...), 0), "1 bytes after the checksum"},
		{"truncated", good[:40], "truncated"},
		{"scale", noScale, "ValueScale"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, _, err := DecodeWeights(c.data); err == nil || !strings.HasPrefix(err.Error(), "eval: ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v; want one saying %q", c.name, err, c.want)
			}
		})
	}
}

func FuzzDecodeWeights(f *testing.F) {
	good, _ := MarshalWeights(testWeights(), FileHeader{Data: "d"})
	f.Add(good)
	f.Add(good[:30])
	f.Fuzz(func(t *testing.T, data []byte) {
		w, h, err := DecodeWeights(data)
		if err != nil {
			return
		}
		again, err := MarshalWeights(w, h)
		if err != nil {
			t.Fatal(err)
		}
		if w2, h2, err := DecodeWeights(again); err != nil || w2 != w || h2 != h {
			t.Fatalf("a file read does not round-trip: %v", err)
		}
	})
}
