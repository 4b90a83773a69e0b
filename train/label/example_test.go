package label_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/train/label"
)

// A position found again with another move number is the same position: it is listed
// once, where it was first found, and counted.
func ExampleCollect() {
	dir, _ := os.MkdirTemp("", "label")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "some.sfen")
	os.WriteFile(path, []byte("# two openings and the first again\n"+
		"rbsgk/4p/5/P4/KGSBR b - 1\n"+
		"r1sgk/B1b1p/5/P4/KGS1R b - 3\n"+
		"rbsgk/4p/5/P4/KGSBR b - 9\n"), 0o644)
	positions, st, err := label.Collect(label.Sources{Files: []string{path}, Name: filepath.Base})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d found, %d distinct\n", st.Found, st.Distinct)
	for _, p := range positions {
		fmt.Printf("%s:%d %s, found %d times\n", p.Source, p.Line, p.SFEN, p.Occurrences)
	}
	// Output:
	// 3 found, 2 distinct
	// some.sfen:2 rbsgk/4p/5/P4/KGSBR b - 1, found 2 times
	// some.sfen:3 r1sgk/B1b1p/5/P4/KGS1R b - 3, found 1 times
}
