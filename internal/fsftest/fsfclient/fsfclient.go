// Package fsfclient starts Debian's Fairy-Stockfish set to Minishogi as a USI client
// (usi.Client), the independent judge that tests of the engine, the solver and the commands
// ask for moves, scores and perft counts. It lives apart from internal/fsftest, which finds
// the program, because the rules' tests use that finder and may import the standard library
// alone (docs/architecture.md, import rules).
package fsfclient

import (
	"context"
	"testing"

	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/usi"
)

// Start starts fairy-stockfish (found by fsftest.Path, so the test fails under CI=true and is
// skipped elsewhere when it is missing) set to minishogi and ready; the test's cleanup closes
// it.
func Start(t testing.TB) *usi.Client {
	t.Helper()
	return StartAt(t, fsftest.Path(t))
}

// StartAt is Start for the fairy-stockfish at path.
func StartAt(t testing.TB, path string) *usi.Client {
	t.Helper()
	c, err := usi.StartVariant(context.Background(), []string{path}, "minishogi")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
