package atomicfile_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/internal/atomicfile"
)

// A failed write leaves the previous file as it was; a successful one replaces it whole.
func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "atomicfile")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "proof.txt")
	atomicfile.WriteFile(path, []byte("mate in 8\n"))

	err := atomicfile.Write(path, func(w io.Writer) error {
		io.WriteString(w, "mate in")
		return errors.New("the checker refused the proof")
	})
	b, _ := os.ReadFile(path)
	fmt.Printf("%v; the file holds %q\n", err, b)

	atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "mate in 10\n")
		return err
	})
	b, _ = os.ReadFile(path)
	fmt.Printf("%q\n", b)
	// Output:
	// the checker refused the proof; the file holds "mate in 8\n"
	// "mate in 10\n"
}
