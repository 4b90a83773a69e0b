package notation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/shogiopstest"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// readKIFs reads a file of many KIF games with lishogi's shogiops, game by game: it splits
// the file before each #KIF line; shogiops reads each game's start (parseKifHeader: the
// 5五将棋 line or a 5x5 diagram, and who moves first) and each move line
// (parseKifMoveOrDrop, with the square of the move before for 同), and checks every move
// legal in its position before playing it; the script gathers the comment lines (*) after
// each move, and the special move that ends the game. Out: one JSON object a game, the
// start as shogiops writes its SFEN, the moves in USI, the comments by the number of moves
// before them.
const readKIFs = `
import { readFileSync } from 'node:fs';
import { parseKifHeader, parseKifMoveOrDrop } from 'shogiops/notation/kif';
import { makeSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';

const text = readFileSync(0, 'utf8');
const games = text.split(/^(?=#KIF)/m).filter(g => g.trim() !== '');
const out = games.map((kif, i) => {
	const pos = parseKifHeader(kif).unwrap();
	const game = { rules: pos.rules, start: makeSfen(pos), moves: [], comments: {}, end: '' };
	let last;
	for (const raw of kif.split(/\r?\n/)) {
		const line = raw.trim();
		if (line.startsWith('*')) {
			(game.comments[game.moves.length] ||= []).push(line.slice(1));
			continue;
		}
		const m = line.match(/^(\d+)\s+(.*)$/);
		if (!m) continue;
		if (Number(m[1]) !== game.moves.length + 1) throw new Error('game ' + i + ': move ' + m[1] + ' out of order');
		const md = parseKifMoveOrDrop(m[2], last);
		if (!md) {
			game.end = m[2].split(/\s/)[0];
			continue;
		}
		if (!pos.isLegal(md)) throw new Error('game ' + i + ': move ' + m[1] + ' ' + m[2] + ' is illegal in ' + makeSfen(pos));
		pos.play(md);
		game.moves.push(makeUsi(md));
		last = md.to;
	}
	return game;
});
process.stdout.write(JSON.stringify(out));
`

// randomGame plays uniformly random legal moves from the normal start (a PCG from seed)
// until the rules end the game or maxPlies, with search statistics on every third move.
func randomGame(t *testing.T, id int, seed uint64, maxPlies int) *record.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	g := minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{MaxPlies: maxPlies})
	rec := &record.Game{ID: id, Seed: seed, Variant: "minishogi", Start: minishogi.StartSFEN,
		Players: record.Players{Sente: record.Player{Name: "r1", Kind: record.KindRandom}, Gote: record.Player{Name: "r2", Kind: record.KindRandom}},
		Rules:   record.Rules{Repetition: record.RepetitionFirstMoverLoses, MaxPlies: maxPlies}, Version: "test"}
	for ply := 0; !g.Result().Over(); ply++ {
		pos := g.Position()
		moves := pos.LegalMoves(nil)
		m := moves[rng.IntN(len(moves))]
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		rec.Moves = append(rec.Moves, m.String())
		s := record.MoveStats{MS: float64(rng.IntN(5000))}
		if ply%3 == 0 {
			s.Visits, s.Value = int64(100+ply), float64(ply%7-3)/4
			s.Top = []record.TopMove{{Move: m.String(), Visits: int64(60 + ply)}}
		}
		rec.Stats = append(rec.Stats, s)
	}
	r := g.Result()
	rec.Plies, rec.Termination, rec.Result = len(rec.Moves), record.Termination(r.Termination.String()), record.Result(r.String())
	if err := rec.Validate(); err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestKIFReadByShogiops writes games of every start and ending in one KIF file and has
// shogiops read it back game by game: the same starts, the same moves, and each comment
// after its move, saying the value and visits the record holds for it.
func TestKIFReadByShogiops(t *testing.T) {
	if !shogiopstest.Available(t) {
		return
	}
	start := &record.Game{
		ID: 3, Seed: 9, Variant: "minishogi", Start: minishogi.StartSFEN,
		Moves:  []string{"2e4c", "3a3b", "4c3b", "2a3b", "S*4b"},
		Result: record.Sente, Termination: record.Resignation, Plies: 5,
		Players: record.Players{Sente: record.Player{Name: "x", Kind: record.KindMCTS}, Gote: record.Player{Name: "y", Kind: record.KindMCTS}},
		Rules:   record.Rules{Repetition: record.RepetitionDraw}, Version: "test",
		Stats: []record.MoveStats{{Visits: 400, Value: 0.25, MS: 10}, {Visits: 400, Value: -0.5, MS: 12}, {Visits: 9, Value: 1, MS: 1}},
	}
	games := []*record.Game{withStats(bareKingMate()), start}
	for i := range 4 {
		games = append(games, randomGame(t, 10+i, uint64(100+i), 120))
	}
	var kif bytes.Buffer
	w, err := NewWriter(&kif, KIFFormat)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	var read []struct {
		Rules, Start, End string
		Moves             []string
		Comments          map[int][]string
	}
	if err := json.Unmarshal(shogiopstest.Run(t, readKIFs, kif.String()), &read); err != nil {
		t.Fatal(err)
	}
	if len(read) != len(games) {
		t.Fatalf("shogiops reads %d games; %d were written", len(read), len(games))
	}
	ends := map[string]bool{}
	for i, g := range games {
		r := read[i]
		if r.Rules != "minishogi" || r.Start != g.Start || !slices.Equal(r.Moves, g.Moves) {
			t.Errorf("game %d: shogiops reads %s from %q: %v; the record has %v from %q", g.ID, r.Rules, r.Start, r.Moves, g.Moves, g.Start)
		}
		ends[r.End] = true
		for ply := range g.Moves {
			var want []string
			if ply < len(g.Stats) && g.Stats[ply].Visits > 0 {
				want = []string{fmt.Sprintf("value %.3f, visits %d", g.Stats[ply].Value, g.Stats[ply].Visits)}
			}
			got := r.Comments[ply+1]
			if len(got) != len(want) || len(want) == 1 && !strings.HasPrefix(got[0], want[0]) {
				t.Errorf("game %d: after move %d shogiops finds the comments %q; want one starting %q", g.ID, ply+1, got, want)
			}
		}
	}
	t.Logf("endings read: %v", ends)
	if len(ends) < 2 {
		t.Errorf("the games end alike (%v): the test covers too little", ends)
	}
}
