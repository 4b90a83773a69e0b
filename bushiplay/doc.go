// Package bushiplay plays Bushi shogi (package rules/bushi) with the project's machinery:
// solved by the retrograde core (package retro) and searched by MCTS (package mcts).
//
// Solve solves one layout's game from every position; its Value, Result, BestMove and Line
// give the perfect game. StudyLayouts solves every layout, one per class of rotations of the
// cube (NumLayoutClasses = 700,160 classes of the 16^6 layouts), on all CPUs. Game is the
// game as an mcts.Game, with a repetition limit for play; Searcher picks moves with MCTS.
//
//	r, _ := bushi.NewRules(bushi.DefaultLayout())
//	sol := bushiplay.Solve(r)
//	fmt.Println(sol.Result(bushi.Start())) // who wins from the empty board
package bushiplay
