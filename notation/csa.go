package notation

import (
	"fmt"
	"strings"
	"time"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// CSA formats g in CSA format version 2.2 with a 5x5 board: each move is followed by its
// time (T and whole seconds) and, where the record has the mover's search statistics, a
// comment line with them.
func CSA(g *record.Game) (string, error) {
	start, steps, err := replay(g)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("V2.2\n")
	fmt.Fprintf(&b, "N+%s\nN-%s\n", playerName(g.Players.Sente), playerName(g.Players.Gote))
	fmt.Fprintf(&b, "$EVENT:shogilab game %d seed %d\n", g.ID, g.Seed)
	if !g.StartedAt.IsZero() {
		fmt.Fprintf(&b, "$START_TIME:%s\n", g.StartedAt.In(time.UTC).Format("2006/01/02 15:04:05"))
	}
	for r := range 5 {
		fmt.Fprintf(&b, "P%d", r+1)
		for f := 5; f >= 1; f-- {
			pc := start.PieceAt(minishogi.NewSquare(f, r))
			if pc == minishogi.NoPiece {
				b.WriteString(" * ")
			} else {
				b.WriteString(sideMark(pc.Color(), "+", "-") + csaNames[pc.Type()])
			}
		}
		b.WriteString("\n")
	}
	for _, c := range []minishogi.Color{minishogi.Sente, minishogi.Gote} {
		var hand strings.Builder
		for _, pt := range minishogi.HandTypes {
			for range start.Hand(c, pt) {
				hand.WriteString("00" + csaNames[pt])
			}
		}
		if hand.Len() > 0 {
			fmt.Fprintf(&b, "P%s%s\n", sideMark(c, "+", "-"), hand.String())
		}
	}
	b.WriteString(sideMark(start.SideToMove(), "+", "-") + "\n")
	for i, st := range steps {
		m := st.move
		to := m.To()
		from := "00"
		piece := st.piece
		if !m.IsDrop() {
			from = fmt.Sprintf("%d%d", m.From().File(), m.From().Rank()+1)
			if m.IsPromotion() {
				piece = piece.Promoted()
			}
		}
		fmt.Fprintf(&b, "%s%s%d%d%s\nT%d\n", sideMark(st.mover, "+", "-"), from, to.File(), to.Rank()+1, csaNames[piece], wholeSeconds(moveMillis(g, i)))
		if c := comment(g, i); c != "" {
			b.WriteString("'" + c + "\n")
		}
	}
	fmt.Fprintf(&b, "%s\n'termination %s, result %s\n", csaEnd(g, start), g.Termination, g.Result)
	return b.String(), nil
}

var csaNames = map[minishogi.PieceType]string{
	minishogi.Pawn: "FU", minishogi.Silver: "GI", minishogi.Gold: "KI", minishogi.Bishop: "KA",
	minishogi.Rook: "HI", minishogi.King: "OU", minishogi.Tokin: "TO", minishogi.ProSilver: "NG",
	minishogi.Horse: "UM", minishogi.Dragon: "RY",
}

// csaEnd is the special move that ends the game.
func csaEnd(g *record.Game, start minishogi.Position) string {
	switch g.Termination {
	case record.Checkmate, record.Stalemate:
		return "%TSUMI"
	case record.Resignation:
		return "%TORYO"
	case record.Repetition:
		return "%SENNICHITE"
	case record.MaxPlies:
		return "%HIKIWAKE"
	}
	if (g.Termination == record.EngineError || g.Termination == record.TimeForfeit) && loserToMove(g, start) {
		return "%TIME_UP"
	}
	// A foul (perpetual check, an illegal move, a failed engine): the
	// ILLEGAL_ACTION of the side that lost.
	return "%" + map[record.Result]string{record.Sente: "-", record.Gote: "+"}[g.Result] + "ILLEGAL_ACTION"
}
