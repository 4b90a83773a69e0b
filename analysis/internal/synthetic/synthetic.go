// Package synthetic writes large, valid record files for tests and
// measurements of the analyses: a pool of random legal Minishogi games,
// replayed many times under players of known strength.
//
// Each game of the pool is played by uniformly random legal moves from the
// normal start until it ends by the rules or reaches MaxPlies (a draw). A
// record takes a game from the pool and two of the Players; a decisive game's
// winning side goes to player a rather than b with the Elo probability
// 1/(1 + 10^((r_b - r_a)/400)), so ratings fitted to the file estimate the
// players' Elo differences. Everything flows from the seed.
package synthetic

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// MaxPlies is the play limit of the pool's games.
const MaxPlies = 80

// poolSize distinct games are enough to give an opening tree thousands of
// lines while keeping generation to a fraction of a second.
const poolSize = 4096

// Player is a synthetic player and its true Elo rating.
type Player struct {
	Name string
	Elo  float64
}

// Players are the players Write uses: three strengths 100 Elo apart.
var Players = []Player{{"weak", 0}, {"medium", 100}, {"strong", 200}}

// Base is the started_at of game 0; game i starts i minutes later.
var Base = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

type pooled struct {
	moves       []string
	result      record.Result
	termination record.Termination
}

// Write writes n records, ids 0 to n-1, as JSON Lines.
func Write(w io.Writer, n int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	pool := make([]pooled, poolSize)
	for i := range pool {
		var err error
		if pool[i], err = randomGame(rng); err != nil {
			return err
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	for id := range n {
		g := pool[rng.IntN(poolSize)]
		a, b := rng.IntN(len(Players)), rng.IntN(len(Players)-1)
		if b >= a {
			b++ // two different players
		}
		sente, gote := Players[a], Players[b]
		switch g.result {
		case record.Draw:
			if rng.IntN(2) == 0 {
				sente, gote = gote, sente
			}
		default:
			// a wins with the Elo probability: give a the winning side.
			aWins := rng.Float64() < 1/(1+math.Pow(10, (Players[b].Elo-Players[a].Elo)/400))
			winner, loser := Players[a], Players[b]
			if !aWins {
				winner, loser = loser, winner
			}
			sente, gote = winner, loser
			if g.result == record.Gote {
				sente, gote = loser, winner
			}
		}
		rec := &record.Game{ID: id, Seed: seed + uint64(id), Variant: "minishogi", Start: minishogi.StartSFEN,
			StartName: "startpos", Moves: g.moves, Result: g.result, Termination: g.termination, Plies: len(g.moves),
			Players: record.Players{Sente: player(sente), Gote: player(gote)},
			Rules:   record.Rules{Repetition: record.RepetitionFirstMoverLoses, MaxPlies: MaxPlies},
			Version: "synthetic", StartedAt: Base.Add(time.Duration(id) * time.Minute)}
		line, err := record.MarshalLine(rec)
		if err != nil {
			return fmt.Errorf("synthetic: %w", err)
		}
		if _, err := bw.Write(line); err != nil {
			return fmt.Errorf("synthetic: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("synthetic: %w", err)
	}
	return nil
}

func player(p Player) record.Player {
	return record.Player{Name: p.Name, Kind: record.KindRandom, Config: map[string]any{"elo": p.Elo}}
}

func randomGame(rng *rand.Rand) (pooled, error) {
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{MaxPlies: MaxPlies})
	var moves []string
	var buf []minishogi.Move
	for !g.Result().Over() {
		pos := g.Position()
		buf = pos.LegalMoves(buf[:0])
		m := buf[rng.IntN(len(buf))]
		if err := g.Play(m); err != nil {
			return pooled{}, fmt.Errorf("synthetic: %w", err)
		}
		moves = append(moves, m.String())
	}
	r := g.Result()
	return pooled{moves: moves, result: record.Result(r.String()), termination: record.Termination(r.Termination.String())}, nil
}
