package engine

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// Engine is the Minishogi engine behind the USI server: it keeps the game (start position
// and moves, so repetitions are seen) and answers perft, display and search.
type Engine struct {
	game *minishogi.Game
}

// New returns an engine at the start position.
func New() *Engine {
	return &Engine{game: minishogi.NewGame(minishogi.StartPosition(), minishogi.GameOptions{})}
}

func (e *Engine) Name() string          { return "shogilab" }
func (e *Engine) Author() string        { return "the shogilab authors" }
func (e *Engine) Options() []usi.Option { return nil }

// SetOption rejects every option: the engine declares none yet.
func (e *Engine) SetOption(name, value string) error {
	return fmt.Errorf("engine: unknown option %q", name)
}

func (e *Engine) NewGame() {}

// SetPosition replaces the game only when the SFEN and every move are valid.
func (e *Engine) SetPosition(sfen string, moves []string) error {
	start := minishogi.StartPosition()
	if sfen != "" {
		var err error
		if start, err = minishogi.ParseSFEN(sfen); err != nil {
			return err
		}
	}
	g := minishogi.NewGame(start, minishogi.GameOptions{})
	for i, m := range moves {
		if err := g.PlayUSI(m); err != nil {
			return fmt.Errorf("move %d (%s): %w", i+1, m, err)
		}
	}
	e.game = g
	return nil
}

// Perft prints the divide of the current position.
func (e *Engine) Perft(depth int, w io.Writer) error {
	pos := e.game.Position()
	var total uint64
	for _, d := range pos.PerftDivide(depth) {
		fmt.Fprintf(w, "%s: %d\n", d.Move, d.Nodes)
		total += d.Nodes
	}
	_, err := fmt.Fprintf(w, "\nNodes searched: %d\n", total)
	return err
}

// Display draws the board as Sente sees it, with hands, side to move and SFEN.
func (e *Engine) Display() string {
	pos := e.game.Position()
	var b strings.Builder
	b.WriteString("   5  4  3  2  1\n +---------------+\n")
	for r := 0; r < 5; r++ {
		b.WriteString(" |")
		for f := 5; f >= 1; f-- {
			pc := pos.PieceAt(minishogi.NewSquare(f, r))
			fmt.Fprintf(&b, "%3s", pc)
		}
		fmt.Fprintf(&b, "| %c\n", 'a'+r)
	}
	b.WriteString(" +---------------+\n")
	for _, c := range []minishogi.Color{minishogi.Sente, minishogi.Gote} {
		fmt.Fprintf(&b, "%s hand:", c)
		empty := true
		for _, pt := range minishogi.HandTypes {
			if n := pos.Hand(c, pt); n > 0 {
				fmt.Fprintf(&b, " %s%d", pt, n)
				empty = false
			}
		}
		if empty {
			b.WriteString(" -")
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Side to move: %s\nSfen: %s\nKey: %016X\nCheckers:", pos.SideToMove(), pos.SFEN(), pos.Hash())
	for c := pos.Checkers(); c != 0; c &= c - 1 {
		fmt.Fprintf(&b, " %s", c.First())
	}
	if r := e.game.Result(); r.Over() {
		fmt.Fprintf(&b, "\nResult: %s (%s)", r, r.Termination)
	}
	return b.String()
}

// Go has no search yet: it says so and resigns.
func (e *Engine) Go(ctx context.Context, limits usi.GoParams, info func(string)) (string, error) {
	info("string search is not implemented yet")
	return "resign", nil
}
