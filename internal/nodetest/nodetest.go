package nodetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Dir is where an installer put its package: the directory named by the environment
// variable env, or def where env is unset or empty.
func Dir(env, def string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	return def
}

// Available reports whether node runs here and finds file (a path below dir/node_modules)
// of the package that the script installer put in dir; name names the package in the
// failure or the skip.
func Available(t testing.TB, name, dir, file, installer string) bool {
	t.Helper()
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", file))
	if nodeErr == nil && modErr == nil {
		return true
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s not found: node %v, %s: %v (bash %s installs it)", name, nodeErr, dir, modErr, installer)
	}
	t.Skipf("%s not installed (bash %s); skipping", name, installer)
	return false
}
