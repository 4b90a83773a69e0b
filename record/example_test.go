package record_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/record"
)

// bareKingMate is the mate in 8 plies Fairy-Stockfish plays from the
// bare-king handicap (docs/rules.md#bare-king): Gote moves first, so after eight
// plies Gote is to move, mated, and Sente has won.
func bareKingMate() *record.Game {
	return &record.Game{
		ID: 0, Seed: 42, Variant: "minishogi",
		Start: "4k/5/5/P4/KGSBR w - 1", StartName: "bare-king",
		Moves:  []string{"1a2a", "4e4d", "2a2b", "2e5b", "2b2a", "4d3c", "2a3a", "1e1a"},
		Result: record.Sente, Termination: record.Checkmate, Plies: 8,
		Players: record.Players{
			Sente: record.Player{Name: "fsf", Kind: record.KindUSI},
			Gote:  record.Player{Name: "fsf", Kind: record.KindUSI},
		},
		Rules:   record.Rules{Repetition: record.RepetitionFirstMoverLoses, MaxPlies: 200},
		Version: "example",
	}
}

func ExampleMarshalLine() {
	line, err := record.MarshalLine(bareKingMate())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(line))
	// Output:
	// {"id":0,"seed":42,"variant":"minishogi","start":"4k/5/5/P4/KGSBR w - 1","start_name":"bare-king","moves":["1a2a","4e4d","2a2b","2e5b","2b2a","4d3c","2a3a","1e1a"],"result":"sente","termination":"checkmate","plies":8,"players":{"sente":{"name":"fsf","kind":"usi"},"gote":{"name":"fsf","kind":"usi"}},"rules":{"repetition":"first-mover-loses","max_plies":200},"version":"example"}
}

func ExampleGame_Validate() {
	g := bareKingMate()
	g.Result = record.Gote // but Gote is the side that was mated
	fmt.Println(g.Validate())
	// Output:
	// record: game 0: result is gote but termination checkmate after 8 plies from "4k/5/5/P4/KGSBR w - 1" means sente
}

func ExampleReader() {
	dir, err := os.MkdirTemp("", "record-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "games.jsonl.gz")
	w, err := record.Create(path) // gzip, one member per game
	if err != nil {
		log.Fatal(err)
	}
	for id := range 3 {
		g := bareKingMate()
		g.ID, g.Seed = id, uint64(100+id)
		if err := w.Write(g); err != nil {
			log.Fatal(err)
		}
	}
	w.Close()

	r := record.NewReader([]string{path})
	defer r.Close()
	for {
		g, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(g.ID, g.Seed, g.Result, g.Termination, g.Plies)
	}
	// Output:
	// 0 100 sente checkmate 8
	// 1 101 sente checkmate 8
	// 2 102 sente checkmate 8
}

func ExampleScanFile() {
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	w.Write(bareKingMate())
	whole := buf.Len()
	buf.WriteString(`{"id":1,"seed":`) // what a kill mid-write leaves

	dir, err := os.MkdirTemp("", "record-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	n := 0
	end, err := record.ScanFile(path, func(*record.Game) error { n++; return nil })
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "complete game; the partial record starts at its end:", end == int64(whole))
	// Output:
	// 1 complete game; the partial record starts at its end: true
}
