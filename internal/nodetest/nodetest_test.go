package nodetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestAvailable plants a package's file below a directory's node_modules: found there, and
// a missing one skips the test that asks for it (CI unset) instead of passing it.
func TestAvailable(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed (.ci/run installs it)")
		}
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	file := filepath.Join("pkg", "package.json")
	if err := os.MkdirAll(filepath.Join(dir, "node_modules", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "node_modules", file), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Available(t, "pkg", dir, file, "ci/install-pkg.sh") {
		t.Fatal("a planted package is not available")
	}
	t.Setenv("CI", "")
	var skipped bool
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Available(t, "other", dir, filepath.Join("other", "package.json"), "ci/install-other.sh")
		t.Error("a missing package did not skip the test")
	})
	if !skipped {
		t.Error("a missing package did not skip the test")
	}
}
