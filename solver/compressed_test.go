package solver

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// readAll reads a file through OpenFile.
func readAll(path string) ([]byte, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// TestOpenFileCompressed: a proof file reads back the same plain, gzip- or xz-compressed
// (compressed here with the libraries' writers, not by OpenFile's code); a cut compressed
// file is an error saying so.
func TestOpenFileCompressed(t *testing.T) {
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
		got, err := readAll(path)
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
		if _, err := readAll(cut); err == nil || !strings.Contains(err.Error(), "ends early") && !strings.Contains(err.Error(), "damaged") {
			t.Errorf("%s cut: %v, want an error saying the file is cut or damaged", name, err)
		}
	}
}
