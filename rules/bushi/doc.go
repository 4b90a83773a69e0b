// Package bushi is an exact model of Bushi shogi (武士将棋, Georg Dunkel, 2000) as docs/rules.md#bushi
// states it: two cubes on a 1×2 board, only their top faces counting.
//
// # Cube
//
// A cube's state is its Orientation, one of the 24 proper rotations that carry its body frame
// to its owner's frame (+x right, +y toward the opponent, +z up). The moves are rotations in
// the owner's frame, written exactly as docs/rules.md#bushi-model gives them:
//
//	o := bushi.OrientationOf(bushi.PlusZ, bushi.PlusY) // the reference orientation
//	o = bushi.Roll(o, bushi.RollForward)              // the rear face comes up
//	fmt.Println(o)                                    // "-y/+z": body face -y up, +z forward
//
// # Layout
//
// What each face shows (its type L, R, F or LFR, and its samurai's gaze) is not recoverable
// from the sources, so it is data: a Layout, read from a six-line text format by ParseLayout
// (DefaultLayout is written in that format in its documentation). Layouts that differ by a
// rotation of the cube play the same game; Canonical and CanonicalLayouts pick one of each
// class, for studies of every layout.
//
// # Game
//
// NewRules builds the game for a layout. A Position holds the setup phase, both orientations
// and the side to move; LegalMoves, Play and Winner are the rules:
//
//	r, _ := bushi.NewRules(bushi.DefaultLayout())
//	p := bushi.Start()                  // empty board, Black places first
//	moves := r.LegalMoves(p, nil)       // the 16 placements that give no check
//	p = r.Play(p, moves[0])
//
// Positions have an exact code in [0, NumPositions), so solvers can index them densely. The
// rules define no draw; the solver labels positions neither side can force as draws, and play
// adds a repetition limit (see bushiplay).
package bushi
