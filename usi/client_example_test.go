package usi_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/shogilab/shogilab/usi"
)

// Drive Fairy-Stockfish as a minishogi engine: handshake, choose the variant,
// count moves and ask for a move. (Not run as a test: it needs the engine;
// client_test.go runs the same steps against it.)
func ExampleStart() {
	ctx := context.Background()
	c, err := usi.Start(ctx, []string{"/usr/games/fairy-stockfish"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Handshake(ctx); err != nil {
		log.Fatal(err)
	}
	if err := c.SetOption("UCI_Variant", "minishogi"); err != nil {
		log.Fatal(err)
	}
	if err := c.IsReady(ctx); err != nil {
		log.Fatal(err)
	}
	if err := c.Position("", nil); err != nil { // position startpos
		log.Fatal(err)
	}
	perft, err := c.Perft(ctx, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("perft 2:", perft.Nodes) // 181
	var score int
	bm, err := c.Go(ctx, usi.GoParams{MoveTime: 50 * time.Millisecond}, func(in usi.SearchInfo) {
		if in.Kind == usi.ScoreCP {
			score = in.CP
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("bestmove", bm.Move, "score", score)
}
