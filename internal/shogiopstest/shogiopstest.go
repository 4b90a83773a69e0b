// Package shogiopstest runs JavaScript against lishogi's shogiops, the rules and notation
// library behind lishogi.org, which the tests use as a reader of KIF that is not ours. It comes
// from npm, installed by ci/install-shogiops.sh into $SHOGILAB_SHOGIOPS (default
// /opt/shogilab-shogiops).
package shogiopstest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Dir is where ci/install-shogiops.sh put the package.
func Dir() string {
	if d := os.Getenv("SHOGILAB_SHOGIOPS"); d != "" {
		return d
	}
	return "/opt/shogilab-shogiops"
}

// Available reports whether shogiops can run here. Under CI=true a test that needs it fails
// instead of skipping (the CI script installs it).
func Available(t testing.TB) bool {
	t.Helper()
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(Dir(), "node_modules", "shogiops", "package.json"))
	if nodeErr == nil && modErr == nil {
		return true
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("shogiops not found: node %v, %s: %v (bash ci/install-shogiops.sh installs it)", nodeErr, Dir(), modErr)
	}
	t.Skipf("shogiops not installed (bash ci/install-shogiops.sh); skipping")
	return false
}

// Run runs module, an ECMAScript module that imports from "shogiops/..." (shogiops is a
// module package, which only a module can import), with stdin as its standard input, and
// returns what it prints, failing t on an error. It runs in Dir, where node finds the
// package. The caller checks Available first.
func Run(t testing.TB, module, stdin string) []byte {
	t.Helper()
	cmd := exec.Command("node", "--input-type=module", "-e", module)
	cmd.Dir = Dir()
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("shogiops: %v: %s", err, stderr.String())
	}
	return out
}
