package engine

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// TestOutcomeAgreesWithRules plays random games that often move a piece back where it came
// from, or gives check, so that repetitions, perpetual checks and mates all occur, and checks at every ply
// that Game.Outcome, behind its filter, agrees with minishogi.Game.Result under every
// repetition rule. Undo is
// checked on the way back.
func TestOutcomeAgreesWithRules(t *testing.T) {
	seen := map[minishogi.Termination]int{}
	for _, rule := range []minishogi.RepetitionRule{minishogi.FirstMoverLoses, minishogi.GoteWins, minishogi.RepetitionDraws} {
		for seed := range uint64(60) {
			rng := rand.New(rand.NewPCG(seed, uint64(rule)))
			opts := minishogi.GameOptions{Repetition: rule, MaxPlies: 150}
			rules := minishogi.NewGame(minishogi.StartPosition(), opts)
			g := NewGame(minishogi.StartPosition(), nil, opts)
			var played []minishogi.Move
			for {
				over, value := g.Outcome()
				res := rules.Result()
				if over != res.Over() {
					t.Fatalf("rule %s seed %d ply %d: Outcome over %v, rules %v (%s)", rule, seed, len(played), over, res.Over(), res.Termination)
				}
				if over {
					want := float32(0)
					if !res.Draw {
						want = -1
						if res.Winner == g.Position().SideToMove() {
							want = 1
						}
					}
					if value != want {
						t.Fatalf("rule %s seed %d: %s: Outcome %v, want %v", rule, seed, res.Termination, value, want)
					}
					seen[res.Termination]++
					break
				}
				moves := g.Position().LegalMoves(nil)
				m := moves[rng.IntN(len(moves))]
				if rng.IntN(2) == 0 { // prefer a check, so that perpetual checks occur
					pos := g.Position()
					for _, l := range moves {
						if pos.GivesCheck(l) {
							m = l
						}
					}
				}
				if n := len(played); n >= 2 && rng.IntN(4) > 0 {
					// Move the piece the side moved last back, when that is legal.
					if last := played[n-2]; !last.IsDrop() && !last.IsPromotion() {
						back := minishogi.NewMove(last.To(), last.From(), false)
						for _, l := range moves {
							if l == back {
								m = back
							}
						}
					}
				}
				g.play(m)
				if err := rules.Play(m); err != nil {
					t.Fatal(err)
				}
				played = append(played, m)
			}
			start := minishogi.StartPosition()
			end := g.Position().SFEN()
			for range played {
				g.Undo()
			}
			if got := g.Position().SFEN(); got != minishogi.StartSFEN || g.Hash() != start.Hash() {
				t.Fatalf("undo from %s gave %s", end, got)
			}
		}
	}
	for _, term := range []minishogi.Termination{minishogi.Checkmate, minishogi.Repetition, minishogi.PerpetualCheck} {
		if seen[term] == 0 {
			t.Errorf("no game ended by %s: the test does not exercise it (%v)", term, seen)
		}
	}
}

// TestOutcomeEndCases plays the hand-derived cases of rules/minishogi/testdata/endings.json,
// the file minishogi.Game's tests read, through Game: Outcome says the game goes on after
// every move but the last, and after the last says what the case says, as a value for the
// side to move.
func TestOutcomeEndCases(t *testing.T) {
	data, err := os.ReadFile("../rules/minishogi/testdata/endings.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name, SFEN, Rule, Termination, Result string
		MaxPlies                              int `json:"max_plies"`
		Moves                                 []string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("rules/minishogi/testdata/endings.json: %v", err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			rule, err := minishogi.ParseRepetitionRule(c.Rule)
			if err != nil {
				t.Fatal(err)
			}
			start, err := minishogi.ParseSFEN(c.SFEN)
			if err != nil {
				t.Fatal(err)
			}
			g := NewGame(start, nil, minishogi.GameOptions{Repetition: rule, MaxPlies: c.MaxPlies})
			for i, s := range c.Moves {
				if over, _ := g.Outcome(); over {
					t.Fatalf("over after %d moves, want %d", i, len(c.Moves))
				}
				m, err := g.Position().ParseMove(s)
				if err != nil {
					t.Fatalf("move %d: %v", i+1, err)
				}
				g.Play(mcts.Move(m))
			}
			want := float32(0)
			switch stm := g.Position().SideToMove().String(); c.Result {
			case stm:
				want = 1
			case "sente", "gote":
				want = -1
			}
			if over, value := g.Outcome(); over != (c.Termination != "") || value != want {
				t.Errorf("Outcome %v %v, want %v %v (%s %s)", over, value, c.Termination != "", want, c.Termination, c.Result)
			}
		})
	}
}

func TestCloneIsIndependent(t *testing.T) {
	g := NewGame(minishogi.StartPosition(), nil, minishogi.GameOptions{})
	m, _ := g.Position().ParseMove("2e3d")
	c := g.Clone()
	g.play(m)
	start := minishogi.StartPosition()
	if c.Hash() != start.Hash() {
		t.Error("playing on the original moved the clone")
	}
	if g.MoveString(42) != minishogi.Move(42).String() {
		t.Error("MoveString is not USI")
	}
}

func BenchmarkPlayUndo(b *testing.B) {
	g := NewGame(minishogi.StartPosition(), nil, minishogi.GameOptions{})
	m, _ := g.Position().ParseMove("2e3d")
	b.ReportAllocs()
	for b.Loop() {
		g.play(m)
		g.Undo()
	}
}

// TestRepeats: from the start, the rooks step out and back (1e1d 5a5b 1d1e 5b5a), which
// repeats the start with Sente to move: Sente moved first in the game and loses a
// repetition by default (docs/rules.md#repetition), draws one under the draw rule. One
// more rook move repeats the position after 1e1d with Gote to move, which Gote then wins.
func TestRepeats(t *testing.T) {
	for _, c := range []struct {
		rule  minishogi.RepetitionRule
		moves []string
		want  []float32 // value for the side to move after each move; 2 for no repetition
	}{
		{minishogi.FirstMoverLoses, []string{"1e1d", "5a5b", "1d1e", "5b5a", "1e1d"}, []float32{2, 2, 2, -1, 1}},
		{minishogi.RepetitionDraws, []string{"1e1d", "5a5b", "1d1e", "5b5a", "1e1d"}, []float32{2, 2, 2, 0, 0}},
		{minishogi.GoteWins, []string{"1e1d", "5a5b", "1d1e", "5b5a", "1e1d"}, []float32{2, 2, 2, -1, 1}},
	} {
		t.Run(strings.Join(c.moves, " "), func(t *testing.T) {
			g := NewGame(minishogi.StartPosition(), nil, minishogi.GameOptions{Repetition: c.rule})
			for i, s := range c.moves {
				m, err := g.Position().ParseMove(s)
				if err != nil {
					t.Fatal(err)
				}
				g.Play(mcts.Move(m))
				repeats, v := g.Repeats()
				if !repeats {
					v = 2
				}
				if v != c.want[i] {
					t.Errorf("%v after %v: Repeats %v %v, want %v", c.rule, c.moves[:i+1], repeats, v, c.want[i])
				}
			}
		})
	}
}
