package engine_test

import (
	"context"
	"fmt"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// A gold dropped on 1b, guarded by the pawn on 1c, mates the king on 1a.
func ExamplePlayer_Think() {
	pos, _ := minishogi.ParseSFEN("4k/5/4P/5/K4 b Gs 1")
	g := minishogi.NewGame(pos, minishogi.GameOptions{})
	cfg := engine.DefaultPlayerConfig()
	cfg.Search.MaxNodes = 1 << 16
	p, _ := engine.NewPlayer(cfg)
	d, _ := p.Think(context.Background(), g, mcts.Limits{Playouts: 1000})
	fmt.Println(d.Move, d.Score, d.Stop)
	// Output: G*1b mate 1 proven
}
