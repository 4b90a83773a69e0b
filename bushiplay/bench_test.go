package bushiplay

import (
	"testing"

	"github.com/shogilab/shogilab/rules/bushi"
)

// BenchmarkSolveLayout measures one layout's solve from the empty board, the unit of work of
// StudyLayouts.
func BenchmarkSolveLayout(b *testing.B) {
	r, err := bushi.NewRules(bushi.DefaultLayout())
	if err != nil {
		b.Fatal(err)
	}
	var rs rootSolver
	b.ReportAllocs()
	for b.Loop() {
		rs.solve(r)
	}
}
