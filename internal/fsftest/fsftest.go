// Package fsftest finds Debian's Fairy-Stockfish for the tests that play against it or
// compare with it: without it such a test fails under CI=true (CI installs it, so missing
// means broken) and is skipped elsewhere.
package fsftest

import (
	"os"
	"os/exec"
	"testing"
)

// Path returns the path of fairy-stockfish, looked up on PATH and in /usr/games, where
// Debian installs it.
func Path(t testing.TB) string {
	t.Helper()
	path := Optional(t)
	if path == "" {
		t.Skip("fairy-stockfish is not installed (apt-get install fairy-stockfish)")
	}
	return path
}

// Optional is Path for a test that can do part of its work without fairy-stockfish: it
// returns "" when the program is missing, except under CI=true, where that fails the test.
func Optional(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"fairy-stockfish", "/usr/games/fairy-stockfish"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("fairy-stockfish is not installed (apt-get install fairy-stockfish; it lives in /usr/games)")
	}
	return ""
}
