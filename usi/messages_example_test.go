package usi_test

import (
	"fmt"
	"log"
	"time"

	"github.com/shogilab/shogilab/usi"
)

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

// An engine reports its search with a SearchInfo; the numbers it has are marked in Has, so
// that a zero is written too.
func ExampleSearchInfo_Format() {
	in := usi.SearchInfo{Has: usi.InfoDepth | usi.InfoNodes | usi.InfoTime, Depth: 4, Nodes: 800,
		Kind: usi.ScoreCP, CP: -12, PV: []string{"2e3d", "4a3b"}}
	fmt.Println(in.Format())
	fmt.Println(usi.SearchInfo{String: "loaded eval.bin"}.Format())
	// Output:
	// info depth 4 nodes 800 time 0 score cp -12 pv 2e3d 4a3b
	// info string loaded eval.bin
}

func ExampleParseOption() {
	opt, err := usi.ParseOption("option name UCI_Variant type combo default shogi var minishogi var shogi")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%s) default %s, choices %v\n", opt.Name, opt.Type, opt.Default, opt.Vars)
	fmt.Println(opt.Check("minishogi"))
	fmt.Println(usi.Option{Name: "USI_Hash", Type: "spin", Default: "16", Min: 1, Max: 1024}.Format())
	// Output:
	// UCI_Variant (combo) default shogi, choices [minishogi shogi]
	// <nil>
	// option name USI_Hash type spin default 16 min 1 max 1024
}

func ExampleGoParams_Format() {
	fmt.Println(usi.GoParams{BTime: time.Minute, WTime: time.Minute, Byoyomi: 10 * time.Second}.Format())
	p, _ := usi.ParseGo("go mate 3000")
	fmt.Println(p.Mate, p.MoveTime)
	// Output:
	// go btime 60000 wtime 60000 byoyomi 10000
	// true 3s
}
