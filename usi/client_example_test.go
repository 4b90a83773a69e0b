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
	bm, err := c.Go(ctx, usi.GoParams{MoveTime: 50 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("bestmove", bm.Move, "score", bm.Info.CP)
}

func ExampleParseInfo() {
	in, err := usi.ParseInfo("info depth 5 seldepth 7 score cp 34 nodes 1234 nps 5000 pv 2e3d 1a2b")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(in.Depth, in.CP, in.Nodes, in.PV)

	in, _ = usi.ParseInfo("info depth 9 score mate -2 pv 4a3b 2e3d")
	fmt.Println(in.Kind == usi.ScoreMate, in.Mate)
	// Output:
	// 5 34 1234 [2e3d 1a2b]
	// true -2
}

func ExampleParseOptionLine() {
	opt, err := usi.ParseOptionLine("option name UCI_Variant type combo default shogi var minishogi var shogi")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%s) default %s, choices %v\n", opt.Name, opt.Type, opt.Default, opt.Vars)
	// Output:
	// UCI_Variant (combo) default shogi, choices [minishogi shogi]
}
