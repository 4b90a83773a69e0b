// Package mawari implements Mawari shogi (まわり将棋), a race game played with shogi pieces
// on the outer ring of a 9x9 board, as docs/rules.md#mawari states it.
//
// Each turn a player throws four gold generals. How each lands (Outcome) scores points;
// the sum moves the player's piece counter-clockwise around the 32-square ring. A piece
// that stops exactly on a corner climbs one rank of the ladder
// pawn → lance → knight → silver → bishop → rook → king, and a king that stops on a corner
// wins.
//
// There is no single standard, so every rule is an option of Rules, and Presets names
// useful combinations:
//
//	r, err := mawari.LookupPreset("standard")   // or "lap", "jump", "gold", "generous", "table"
//	r.Players = 3
//	p := mawari.DefaultProbabilities()         // estimates: label with DefaultProbabilitiesSource
//
// The throw model is exact: ThrowDistribution gives the probability of every move a throw
// can make, from the landing probabilities of one piece. Advance applies a move to a Piece
// and is the single statement of the movement and promotion rules, which the simulator here
// and the Markov chain in analysis/mawaristats both use.
//
// Simulation is reproducible: a seed chooses every throw of a game.
//
//	res, err := mawari.Play(r, p, 42)  // res.Winner, res.Turns
//
// Pieces never interact under any option, so each player's race is independent of the
// others' and only the turn order links them.
package mawari
