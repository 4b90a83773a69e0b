package solver

import (
	"strings"
	"testing"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestSplitMergeFourPiece splits the four-piece handicap (a minimal mate in 10, Gote to move
// first; datasets/README.md) after one and after two plies, solves every subproblem within
// the plies left, in two shards (alternate leaves), and merges: the root must be the mate in
// 10 of the unsplit solve, with one proof the checker accepts.
func TestSplitMergeFourPiece(t *testing.T) {
	root, _ := minishogi.Handicap("four-piece")
	for _, k := range []int{1, 2} {
		leaves := SplitLeaves(root, k)
		if len(leaves) == 0 {
			t.Fatalf("k=%d: no leaves", k)
		}
		results := map[minishogi.Code]LeafResult{}
		for shard := range 2 {
			for i := shard; i < len(leaves); i += 2 {
				d, err := SolveDFPN(leaves[i], minishogi.Sente, DFPNOptions{MaxPlies: 10 - k})
				if err != nil {
					t.Fatal(err)
				}
				results[leaves[i].Code()] = LeafResult{Found: d.Found, Plies: d.Plies, Proof: d.Proof}
			}
		}
		found, plies, proof, err := MergeSplit(root, minishogi.Sente, k, 10, results)
		if err != nil {
			t.Fatal(err)
		}
		if !found || plies != 10 {
			t.Fatalf("k=%d: merged mate %v in %d, want 10", k, found, plies)
		}
		if err := CheckProof(root, proof); err != nil {
			t.Fatalf("k=%d: merged proof rejected: %v", k, err)
		}
		// Below the mate's length the merge must find none.
		if found, _, _, err := MergeSplit(root, minishogi.Sente, k, 9, results); err != nil || found {
			t.Fatalf("k=%d: within 9 plies: found %v, %v", k, found, err)
		}
		delete(results, leaves[0].Code())
		if _, _, _, err := MergeSplit(root, minishogi.Sente, k, 10, results); err == nil || !strings.Contains(err.Error(), "solver: merge: no result for the subproblem "+leaves[0].SFEN()) {
			t.Fatalf("k=%d: without the first subproblem's result: %v; want it named as missing", k, err)
		}
	}
}
