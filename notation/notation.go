package notation

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// step is one move as both formats need it: the mover, the move, and the
// kind of piece on its origin before it moved.
type step struct {
	mover minishogi.Color
	move  minishogi.Move
	piece minishogi.PieceType // the moving piece's kind before the move; the dropped kind for a drop
}

// replay plays g's moves and returns the start position and the steps.
func replay(g *record.Game) (minishogi.Position, []step, error) {
	start, err := minishogi.ParseSFEN(g.Start)
	if err != nil {
		return start, nil, fmt.Errorf("notation: game %d: %w", g.ID, err)
	}
	pos := start
	steps := make([]step, 0, len(g.Moves))
	for i, s := range g.Moves {
		m, err := pos.ParseMove(s)
		if err != nil {
			return start, nil, fmt.Errorf("notation: game %d: move %d %s: %w", g.ID, i+1, s, err)
		}
		st := step{mover: pos.SideToMove(), move: m}
		if m.IsDrop() {
			st.piece = m.DropType()
		} else {
			st.piece = pos.PieceAt(m.From()).Type()
		}
		steps = append(steps, st)
		pos.MakeMove(m)
	}
	return start, steps, nil
}

// loserToMove reports whether the loser of g is the side to move after its
// last move (false for a draw).
func loserToMove(g *record.Game, start minishogi.Position) bool {
	toMove := start.SideToMove()
	if g.Plies%2 == 1 {
		toMove = toMove.Opponent()
	}
	return g.Result != record.Draw && string(g.Result) != toMove.String()
}

// sideMark returns a format's words for the two sides.
func sideMark(c minishogi.Color, sente, gote string) string {
	if c == minishogi.Sente {
		return sente
	}
	return gote
}

func playerName(p record.Player) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, p.Name)
}

// comment says what the mover's search saw before move i of g, in the words and units of
// the record (datasets/README.md, MoveStats): its value for the mover, its visits, an
// external engine's score and mate, the most visited moves. It is "" where the record has no
// statistics for the move.
func comment(g *record.Game, i int) string {
	if i >= len(g.Stats) {
		return ""
	}
	s := g.Stats[i]
	if s.Visits == 0 && len(s.Top) == 0 && s.ScoreCP == nil && s.Mate == nil {
		return "" // a player that does not search (a random mover)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "value %.3f, visits %d", s.Value, s.Visits)
	if s.ScoreCP != nil {
		fmt.Fprintf(&b, ", score_cp %d", *s.ScoreCP)
	}
	if s.Mate != nil {
		fmt.Fprintf(&b, ", mate %d", *s.Mate)
	}
	if len(s.Top) > 0 {
		b.WriteString("; top")
		for j, t := range s.Top {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s %d", t.Move, t.Visits)
		}
	}
	return b.String()
}

// moveMillis is the time move i of g took, in milliseconds: the record's stats[i].ms, 0
// where it has none (a move without statistics, or a record without timing fields).
func moveMillis(g *record.Game, i int) float64 {
	if i < len(g.Stats) {
		return g.Stats[i].MS
	}
	return 0
}

// wholeSeconds is a time in milliseconds as whole seconds, rounded down, as the formats
// (and shogi clocks) count them.
func wholeSeconds(ms float64) int64 { return int64(math.Floor(ms / 1000)) }

// Format is a text format of game records.
type Format string

const (
	KIFFormat Format = "kif"
	CSAFormat Format = "csa"
)

// Writer writes games one after another into one file of a format: KIF games separated by
// a blank line, each whole from its #KIF line, so that a file split there opens game by
// game; CSA games separated by a line "/", as the CSA standard joins records.
type Writer struct {
	w      io.Writer
	format func(*record.Game) (string, error)
	sep    string
	games  int
}

// NewWriter returns a Writer of format f onto w.
func NewWriter(w io.Writer, f Format) (*Writer, error) {
	switch f {
	case KIFFormat:
		return &Writer{w: w, format: KIF, sep: "\n"}, nil
	case CSAFormat:
		return &Writer{w: w, format: CSA, sep: "/\n"}, nil
	}
	return nil, fmt.Errorf("notation: format %q is not kif or csa", f)
}

// Write writes g, after a separator if it is not the first game.
func (w *Writer) Write(g *record.Game) error {
	text, err := w.format(g)
	if err != nil {
		return err
	}
	if w.games > 0 {
		text = w.sep + text
	}
	if _, err := io.WriteString(w.w, text); err != nil {
		return fmt.Errorf("notation: %w", err)
	}
	w.games++
	return nil
}

// Games is the number of games written.
func (w *Writer) Games() int { return w.games }
