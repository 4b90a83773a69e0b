package solver

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// TestReadFileCompressed: a proof file reads back the same plain, gzip- or xz-compressed
// (compressed here with the libraries' writers, not by ReadFile's code); a cut compressed
// file is an error naming it.
func TestReadFileCompressed(t *testing.T) {
	plain := []byte(ProofFormat + "\nroot 4k/5/5/P4/KGSBR w - 1\nattacker b\nplies 8\nentries 0\n")
	var gz, x bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	xw, err := xz.NewWriter(&x)
	if err != nil {
		t.Fatal(err)
	}
	xw.Write(plain)
	xw.Close()
	dir := t.TempDir()
	for name, b := range map[string][]byte{"plain": plain, "gzip": gz.Bytes(), "xz": x.Bytes()} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path)
		if err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%s: read %q, %v; want the plain text", name, got, err)
		}
		if name == "plain" {
			continue
		}
		cut := path + ".cut"
		if err := os.WriteFile(cut, b[:len(b)-8], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadFile(cut); err == nil || !strings.Contains(err.Error(), cut) {
			t.Errorf("%s cut: %v, want an error naming the file", name, err)
		}
	}
}
