package table_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
)

// The shipped 400-playout run as Parquet tables, read back: a game's moves
// and result only, from the games table's two columns.
func ExampleConvert() {
	dir, err := os.MkdirTemp("", "dataset-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	games, positions := filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet")
	n, err := table.Convert(context.Background(), []string{"../../datasets/selfplay/mcts400/games-0-of-1.jsonl.gz"}, games, positions)
	if err != nil {
		log.Fatal(err)
	}
	r := table.NewReader([]string{games}, table.Options{Fields: record.FieldMoves | record.FieldResult})
	defer r.Close()
	g, err := r.Read()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "games; the first:", g.Moves[:4], g.Result, g.Players.Sente.Name == "")
	// Output:
	// 200 games; the first: [4e4d 3a4b 3e3d 4a3b] gote true
}

// A trainer's view of a record file: each position with the move played
// and the search's visits, here the first three of the first game.
func ExamplePositions() {
	n := 0
	err := table.Positions([]string{"../../datasets/selfplay/mcts400/games-0-of-1.jsonl.gz"}, func(p *table.Position) error {
		if n == 3 {
			return io.EOF // enough
		}
		n++
		fmt.Println(p.Game, p.Ply, p.SFEN, p.Side, p.Move, p.Stats.Visits, p.Stats.Top[0], p.Result)
		return nil
	})
	fmt.Println(err)
	// Output:
	// 1 0 rbsgk/4p/5/P4/KGSBR b - 1 sente 2e3d 401 {2e3d 162} sente
	// 1 1 rbsgk/4p/5/P1B2/KGS1R w - 2 gote 1a2b 401 {3a4b 234} sente
	// 1 2 rbsg1/3kp/5/P1B2/KGS1R b - 3 sente 1e2e 401 {1e2e 258} sente
	// EOF
}
