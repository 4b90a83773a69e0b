package engine

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/internal/fsftest/fsfclient"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/retro"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

var tacticsPlayouts = flag.Int64("tactics.playouts", 10000, "playouts a move for TestTacticsSuite")

// tacticsSuite reads datasets/tactics/mateN.sfen: positions from games (the shipped
// self-play records and engine matches) in which the side to move has a forced mate by
// checks (a tsume) of exactly N plies and none shorter, as retro's df-pn found, and
// fairy-stockfish's full-width search gives the same mate length (datasets/README.md).
func tacticsSuite(t *testing.T) map[int][]minishogi.Position {
	t.Helper()
	suite := map[int][]minishogi.Position{}
	for _, n := range []int{3, 5, 7} {
		f, err := os.Open(filepath.Join("..", "datasets", "tactics", fmt.Sprintf("mate%d.sfen", n)))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			p, err := minishogi.ParseSFEN(sc.Text())
			if err != nil {
				t.Fatalf("mate%d.sfen:%d: %v", n, line, err)
			}
			suite[n] = append(suite[n], p)
		}
		f.Close()
		if len(suite[n]) == 0 {
			t.Fatalf("mate%d.sfen is empty", n)
		}
	}
	return suite
}

// TestTacticsSuiteIsRight checks every position's claim: df-pn proves a tsume of N plies
// and none of N-2, and (without -short) fairy-stockfish's full-width search finds a mate
// and none shorter (its USI `score mate` counts plies).
func TestTacticsSuiteIsRight(t *testing.T) {
	var fsf *fsfSearch
	if !testing.Short() {
		fsf = startFSFSearch(t)
	}
	for n, positions := range tacticsSuite(t) {
		for _, p := range positions {
			ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](minishogi.Tsume{Attacker: p.SideToMove()}, 1<<20)
			long, err := ms.Prove(p, true, n)
			if err != nil {
				t.Fatal(err)
			}
			short, err := ms.Prove(p, true, n-2)
			if err != nil {
				t.Fatal(err)
			}
			if !long || short {
				t.Errorf("%s: df-pn: tsume in %d %v, in %d %v", p.SFEN(), n, long, n-2, short)
			}
			if fsf != nil {
				// Its search may miss the shortest mate and find a longer one; it must
				// find a mate, and none shorter than df-pn's.
				got := fsf.score(t, p.SFEN(), n+12)
				if got.Kind != usi.ScoreMate || got.MateLengthUnknown || got.Mate < n {
					t.Errorf("%s: fairy-stockfish's last score %q, want a mate in %d or more", p.SFEN(), got.Format(), n)
				}
			}
		}
	}
}

// fsfSearch is fairy-stockfish driven over USI (usi.Client) for its search score.
type fsfSearch struct{ c *usi.Client }

func startFSFSearch(t *testing.T) *fsfSearch {
	t.Helper()
	path := fsftest.Optional(t)
	if path == "" {
		t.Log("fairy-stockfish is not installed; the suite is checked by df-pn alone")
		return nil
	}
	return &fsfSearch{fsfclient.StartAt(t, path)}
}

// score is fairy-stockfish's last info line with a score that is not a bound, after a
// search of sfen to depth from a fresh hash (its USI `score mate` counts plies).
func (f *fsfSearch) score(t *testing.T, sfen string, depth int) usi.SearchInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	last, err := f.c.Score(ctx, sfen, depth)
	if err != nil {
		t.Fatal(err)
	}
	return last
}

// TestTacticsSuite reports the engine's solve rate on the suite at -tactics.playouts
// playouts a move (10,000 by default), for the default settings and for those before
// issue 15 (MateDepth 3 within 400 moves). A position is solved when the move played
// keeps a tsume of at most N-1 plies for the defender to face (df-pn), or the search
// proved the win. The defaults must solve every mate within their MateDepth, which the
// root's own mate search finds, and at least as many positions as the old settings.
func TestTacticsSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("the suite takes a minute of searching")
	}
	suite := tacticsSuite(t)
	old := DefaultPlayerConfig()
	old.Eval.MateDepth, old.Eval.MateNodes = 3, 400
	configs := []struct {
		name string
		cfg  PlayerConfig
	}{{"default", DefaultPlayerConfig()}, {"MateDepth=3,MateNodes=400", old}}
	solved := map[string]int{}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			p, err := NewPlayer(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var rates []string
			for _, n := range []int{3, 5, 7} {
				count := 0
				for _, pos := range suite[n] {
					p.NewGame(1)
					g := minishogi.NewGame(pos, minishogi.GameOptions{})
					d, err := p.Think(context.Background(), g, mcts.Limits{Playouts: *tacticsPlayouts})
					if err != nil {
						t.Fatal(err)
					}
					after := pos
					after.MakeMove(d.Move)
					ms := retro.NewMateSearch[minishogi.Position, minishogi.Move, minishogi.Code](minishogi.Tsume{Attacker: pos.SideToMove()}, 1<<20)
					mated, err := ms.Prove(after, false, n-1)
					if err != nil {
						t.Fatal(err)
					}
					if mated || d.Score.Proven && d.Score.Mate > 0 {
						count++
					} else if c.name == "default" && n <= c.cfg.Eval.MateDepth {
						t.Errorf("%s: a mate in %d, the default plays %s (score %s)", pos.SFEN(), n, d.Move, d.Score)
					}
				}
				solved[c.name] += count
				rates = append(rates, fmt.Sprintf("mate in %d: %d/%d", n, count, len(suite[n])))
			}
			t.Logf("%s at %d playouts: %s", c.name, *tacticsPlayouts, strings.Join(rates, ", "))
		})
	}
	if solved["default"] < solved[configs[1].name] {
		t.Errorf("the defaults solve %d positions, the old settings %d", solved["default"], solved[configs[1].name])
	}
}
