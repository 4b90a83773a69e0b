package selfplay

import (
	"path/filepath"
	"testing"
)

// TestPoolReusesEngines: a run of one game at a time keeps at most one idle engine a seat,
// whatever the settings: the two seats' players of game n go back to the pool and game n+1
// takes them. With an evaluation file a player's loaded settings differed from game to game
// (the evaluator is a pointer), so each game made two new engines and the pool kept them all:
// 2 per game, not 2 in all (the learning loop's self-play grew to 12 GB).
func TestPoolReusesEngines(t *testing.T) {
	evalFile := filepath.Join("..", "datasets", "evaluation", "fsf5000-64x16.nnue")
	for _, c := range []struct{ name, spec string }{
		{"built-in evaluation", "mcts"},
		{"evaluation file", "mcts:EvalFile=" + evalFile},
		{"evaluation file and Gumbel root", "mcts:EvalFile=" + evalFile + ",GumbelMoves=4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := testMatch(t, c.spec)
			pool := NewEnginePool()
			defer pool.Close()
			m.Engines = pool
			r := &Run{Match: m, Games: 6, Parallel: 1, OutDir: t.TempDir()}
			execute(t, r)
			idle := 0
			for _, list := range pool.idle {
				idle += len(list)
			}
			if idle != 2 {
				t.Errorf("after 6 games, one at a time, the pool holds %d idle engines under %d keys; want 2 (one a seat)", idle, len(pool.idle))
			}
		})
	}
}
