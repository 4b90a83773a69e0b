// Package shogiopstest runs JavaScript against lishogi's shogiops, the rules and notation
// library behind lishogi.org, which the tests use as a reader of KIF that is not ours. It comes
// from npm, installed by ci/install-shogiops.sh into $SHOGILAB_SHOGIOPS (default
// /opt/shogilab-shogiops).
package shogiopstest

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/nodetest"
)

// Dir is where ci/install-shogiops.sh put the package.
func Dir() string { return nodetest.Dir("SHOGILAB_SHOGIOPS", "/opt/shogilab-shogiops") }

// Available reports whether shogiops can run here. Under CI=true a test that needs it fails
// instead of skipping (the CI script installs it).
func Available(t testing.TB) bool {
	t.Helper()
	return nodetest.Available(t, "shogiops", Dir(), filepath.Join("shogiops", "package.json"), "ci/install-shogiops.sh")
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
