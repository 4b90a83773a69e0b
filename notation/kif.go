package notation

import (
	"fmt"
	"strings"
	"time"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// KIF formats g in Kakinoki's KIF (UTF-8, as KIF version 2.0 allows): each move with its
// time and the mover's total, and, where the record has the mover's search statistics, a
// comment line (*) after it with them.
func KIF(g *record.Game) (string, error) {
	start, steps, err := replay(g)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("#KIF version=2.0 encoding=UTF-8\n")
	fmt.Fprintf(&b, "#shogilab game %d seed %d termination %s\n", g.ID, g.Seed, g.Termination)
	if !g.StartedAt.IsZero() {
		fmt.Fprintf(&b, "開始日時：%s\n", g.StartedAt.In(time.UTC).Format("2006/01/02 15:04:05"))
	}
	if start.SFEN() == minishogi.StartSFEN {
		b.WriteString("手合割：5五将棋\n")
	} else {
		kifBoard(&b, start)
	}
	fmt.Fprintf(&b, "先手：%s\n後手：%s\n", playerName(g.Players.Sente), playerName(g.Players.Gote))
	b.WriteString("手数----指手---------消費時間--\n")
	last := minishogi.NoSquare
	var total [2]float64 // each side's time so far, in milliseconds
	for i, st := range steps {
		ms := moveMillis(g, i)
		total[st.mover] += ms
		kifLine(&b, i+1, kifMove(st, last), ms, total[st.mover])
		if c := comment(g, i); c != "" {
			b.WriteString("*" + c + "\n")
		}
		last = st.move.To()
	}
	toMove := start.SideToMove()
	if len(steps)%2 == 1 {
		toMove = toMove.Opponent()
	}
	kifLine(&b, len(steps)+1, kifEnd(g, start), 0, total[toMove])
	switch g.Result {
	case record.Draw:
		word := "持将棋"
		if g.Termination == record.Repetition {
			word = "千日手"
		}
		fmt.Fprintf(&b, "まで%d手で%s\n", len(steps), word)
	default:
		winner := "先手"
		if g.Result == record.Gote {
			winner = "後手"
		}
		fmt.Fprintf(&b, "まで%d手で%sの勝ち\n", len(steps), winner)
	}
	return b.String(), nil
}

// kifLine writes a move line: its number, the move padded to 13 columns (a full-width
// character takes two), and the time column, the move's time as m:ss and the mover's total
// as hh:mm:ss, in whole seconds, as Kakinoki's KIF writes them: "   1 ４三角(25)   ( 0:01/00:00:01)".
func kifLine(b *strings.Builder, n int, move string, ms, total float64) {
	width := 0
	for _, r := range move {
		width++
		if r > 0x7f {
			width++
		}
	}
	sec, all := wholeSeconds(ms), wholeSeconds(total)
	fmt.Fprintf(b, "%4d %s%s(%2d:%02d/%02d:%02d:%02d)\n", n, move, strings.Repeat(" ", max(13-width, 1)),
		sec/60, sec%60, all/3600, all/60%60, all%60)
}

var (
	kifFiles = [...]string{"", "１", "２", "３", "４", "５", "６", "７", "８", "９"}
	kifRanks = [...]string{"一", "二", "三", "四", "五"}
	// kifNames are the piece names of KIF moves; promoted silver takes two
	// characters (成銀), as in KIF files from every GUI.
	kifNames = map[minishogi.PieceType]string{
		minishogi.Pawn: "歩", minishogi.Silver: "銀", minishogi.Gold: "金", minishogi.Bishop: "角",
		minishogi.Rook: "飛", minishogi.King: "玉", minishogi.Tokin: "と", minishogi.ProSilver: "成銀",
		minishogi.Horse: "馬", minishogi.Dragon: "龍",
	}
	// kifBoardNames are the one-character names of the board diagram.
	kifBoardNames = map[minishogi.PieceType]string{
		minishogi.Pawn: "歩", minishogi.Silver: "銀", minishogi.Gold: "金", minishogi.Bishop: "角",
		minishogi.Rook: "飛", minishogi.King: "玉", minishogi.Tokin: "と", minishogi.ProSilver: "全",
		minishogi.Horse: "馬", minishogi.Dragon: "龍",
	}
)

// kifMove is a move like ２四銀(25), ２一角成(55), ３三歩打 or 同　銀(34).
func kifMove(st step, lastTo minishogi.Square) string {
	to := st.move.To()
	dest := kifFiles[to.File()] + kifRanks[to.Rank()]
	if to == lastTo {
		dest = "同　"
	}
	if st.move.IsDrop() {
		return dest + kifNames[st.piece] + "打"
	}
	promote := ""
	if st.move.IsPromotion() {
		promote = "成"
	}
	from := st.move.From()
	return fmt.Sprintf("%s%s%s(%d%d)", dest, kifNames[st.piece], promote, from.File(), from.Rank()+1)
}

// kifEnd is the special move that ends the game, said by the side to move.
func kifEnd(g *record.Game, start minishogi.Position) string {
	switch g.Termination {
	case record.Checkmate, record.Stalemate:
		return "詰み"
	case record.Resignation:
		return "投了"
	case record.Repetition:
		return "千日手"
	case record.MaxPlies:
		return "持将棋"
	case record.EngineError, record.TimeForfeit:
		if loserToMove(g, start) {
			return "切れ負け"
		}
		return "反則勝ち"
	}
	// perpetual_check and illegal_move: a foul; say who committed it.
	if loserToMove(g, start) {
		return "反則負け"
	}
	return "反則勝ち"
}

// kifBoard writes a start that is not the normal one as a diagram.
func kifBoard(b *strings.Builder, pos minishogi.Position) {
	fmt.Fprintf(b, "後手の持駒：%s\n", kifHand(pos, minishogi.Gote))
	b.WriteString("  ５ ４ ３ ２ １\n+---------------+\n")
	for r := range 5 {
		b.WriteString("|")
		for f := 5; f >= 1; f-- {
			pc := pos.PieceAt(minishogi.NewSquare(f, r))
			switch {
			case pc == minishogi.NoPiece:
				b.WriteString(" ・")
			case pc.Color() == minishogi.Gote:
				b.WriteString("v" + kifBoardNames[pc.Type()])
			default:
				b.WriteString(" " + kifBoardNames[pc.Type()])
			}
		}
		b.WriteString("|" + kifRanks[r] + "\n")
	}
	b.WriteString("+---------------+\n")
	fmt.Fprintf(b, "先手の持駒：%s\n", kifHand(pos, minishogi.Sente))
	if pos.SideToMove() == minishogi.Gote {
		b.WriteString("後手番\n")
	}
}

func kifHand(pos minishogi.Position, c minishogi.Color) string {
	var parts []string
	for _, pt := range minishogi.HandTypes {
		switch n := pos.Hand(c, pt); {
		case n == 1:
			parts = append(parts, kifBoardNames[pt])
		case n > 1:
			parts = append(parts, kifBoardNames[pt]+kifRanks[n-1])
		}
	}
	if len(parts) == 0 {
		return "なし"
	}
	return strings.Join(parts, "　")
}
