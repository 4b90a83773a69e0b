package match_test

import (
	"context"
	"fmt"

	"github.com/shogilab/shogilab/engine/match"
	"github.com/shogilab/shogilab/rules/minishogi"
)

func ExamplePlay() {
	res, _ := match.Play(context.Background(), match.NewRandom(), match.NewRandom(),
		match.Options{Games: 4, Seed: 1, Rules: minishogi.GameOptions{MaxPlies: 100}})
	s := res.Summary
	fmt.Println(s.Games, s.WinsA+s.Draws+s.LossesA, len(res.Games[0].Moves) > 0)
	// Output: 4 4 true
}
