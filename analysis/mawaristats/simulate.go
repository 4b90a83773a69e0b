package mawaristats

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat"

	"github.com/shogilab/shogilab/rules/mawari"
)

// soloStream is the PCG stream of the lone races, so that they do not replay the throws
// of the games with the same seed.
const soloStream = 0x736f6c6f // "solo"

// Simulation is the Monte Carlo counterpart of Analysis: whole games played by
// mawari.Play, and as many lone races of one piece.
type Simulation struct {
	Games int
	Seed  uint64 // game g used seed Seed+g
	// Wins counts the games each seat won.
	Wins []int
	// RoundCounts[t] counts games that ended in round t.
	RoundCounts []int
	// TurnCounts[t] counts lone races won on turn t.
	TurnCounts []int
	// GameThrows and SoloThrows are the throws made in the games and in the races.
	GameThrows, SoloThrows int
}

// Simulate plays games games and games lone races. Game g is mawari.Play with seed
// seed+g, so any one can be replayed alone. progress, if not nil, is called after each
// game with the number done.
func Simulate(r mawari.Rules, p mawari.Probabilities, games int, seed uint64, progress func(done int)) (Simulation, error) {
	if games < 1 {
		return Simulation{}, fmt.Errorf("mawaristats: %d games to simulate; want at least 1", games)
	}
	if err := r.Validate(); err != nil {
		return Simulation{}, err
	}
	if err := p.Validate(); err != nil {
		return Simulation{}, err
	}
	sim := Simulation{Games: games, Seed: seed, Wins: make([]int, r.Players)}
	for g := range games {
		res, err := mawari.Play(r, p, seed+uint64(g))
		if err != nil {
			return Simulation{}, err
		}
		sim.Wins[res.Winner]++
		sim.RoundCounts = countAt(sim.RoundCounts, res.Rounds(r.Players))
		sim.GameThrows += res.Turns

		th := mawari.NewThrower(p, r.Spoil, rand.New(rand.NewPCG(seed+uint64(g), soloStream)))
		turns := mawari.TurnsToWin(r, th)
		sim.TurnCounts = countAt(sim.TurnCounts, turns)
		sim.SoloThrows += turns
		if progress != nil {
			progress(g + 1)
		}
	}
	return sim, nil
}

func countAt(counts []int, i int) []int {
	for len(counts) <= i {
		counts = append(counts, 0)
	}
	counts[i]++
	return counts
}

// WinFrequency is each seat's share of the games.
func (s Simulation) WinFrequency() []float64 {
	f := make([]float64, len(s.Wins))
	for i, w := range s.Wins {
		f[i] = float64(w) / float64(s.Games)
	}
	return f
}

// MeanTurns is the mean number of turns of the lone races, with its standard error.
func (s Simulation) MeanTurns() (mean, stderr float64) { return meanOfCounts(s.TurnCounts) }

// MeanRounds is the mean round in which the games ended, with its standard error.
func (s Simulation) MeanRounds() (mean, stderr float64) { return meanOfCounts(s.RoundCounts) }

// meanOfCounts treats counts as a histogram: counts[v] observations of the value v.
func meanOfCounts(counts []int) (mean, stderr float64) {
	values := make([]float64, len(counts))
	weights := make([]float64, len(counts))
	n := 0.0
	for v, c := range counts {
		values[v], weights[v] = float64(v), float64(c)
		n += float64(c)
	}
	mean, sd := stat.MeanStdDev(values, weights)
	return mean, sd / math.Sqrt(n)
}

// SimulateThrows draws n throws from seed and returns the share of each move, keyed by
// mawari.Move.Key.
func SimulateThrows(r mawari.Rules, p mawari.Probabilities, n int, seed uint64) (map[string]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("mawaristats: %d throws to simulate; want at least 1", n)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	th := mawari.NewThrower(p, r.Spoil, mawari.NewRand(seed))
	counts := make(map[string]int)
	for range n {
		counts[r.MoveOf(th.Throw()).Key()]++
	}
	freq := make(map[string]float64, len(counts))
	for k, c := range counts {
		freq[k] = float64(c) / float64(n)
	}
	return freq, nil
}
