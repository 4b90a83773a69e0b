package selfplay

import "github.com/shogilab/shogilab/rules/minishogi"

// GameSeed returns the seed of game id in a run with base seed base. It
// depends on the two numbers alone, not on which worker or shard plays the
// game, so a run's records do not depend on how it was parallelised or
// sharded. Mixing base once before adding id keeps the seeds of nearby base
// seeds apart (with a plain base^id, base 0 game 1 and base 1 game 0 would
// share a seed).
func GameSeed(base uint64, id int) uint64 {
	if id < 0 {
		panic("selfplay: negative game id")
	}
	return splitMix64(splitMix64(base) ^ uint64(id))
}

// SideSeed returns the seed of the player of side c in a game with seed
// game, so that the two players of a game draw independent numbers.
func SideSeed(game uint64, c minishogi.Color) uint64 {
	return splitMix64(game + uint64(c) + 1)
}

// splitMix64 is the output function of SplitMix64 (Steele, Lea and Flood,
// "Fast splittable pseudorandom number generators", OOPSLA 2014; constants
// as in Vigna's reference C code): a bijection on 64-bit words whose output
// bits each depend on every input bit, so close inputs give unrelated seeds.
func splitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
