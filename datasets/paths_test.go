package datasets_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// machinePath is an absolute path into a machine's own directories: a scratch or home
// folder, or the working copy a dataset was made in. A shipped file names its inputs
// relative to the repository (datasets/README.md), so that its command runs on any clone.
var machinePath = regexp.MustCompile(`(^|[\s"'=:(])/(work|tmp|home|root|Users|scratch|var/tmp)/`)

// TestNoMachinePaths reads every data file under datasets/ (gzip ones unpacked; the prose
// of the README files is left out, as its example commands may build into /tmp) and
// refuses one that names a machine path: provenance, reports, evaluation file headers and
// records' metadata alike. The xz certificates hold positions only and are not unpacked.
func TestNoMachinePaths(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".xz") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				return err
			}
			if b, err = io.ReadAll(io.LimitReader(zr, 256<<20)); err != nil {
				return err
			}
		}
		if loc := machinePath.FindIndex(b); loc != nil {
			end := min(loc[1]+60, len(b))
			if i := bytes.IndexByte(b[loc[0]:end], '\n'); i >= 0 {
				end = loc[0] + i
			}
			t.Errorf("%s: a machine path at byte %d: %q", path, loc[0], b[loc[0]:end])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
