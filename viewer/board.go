package viewer

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/notation"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// The board is drawn as SVG, Sente at the bottom as in every shogi diagram: files 5 to 1
// from left to right, ranks a (一) to e (五) from the top. Each square holds a group with the
// piece's kanji and its Latin letters; the page shows one or the other (a class on the body,
// which a button toggles). A Gote piece is turned upside down, a promoted one is red. On the
// game page the script redraws the same groups for every ply from the frames, using the
// glyphs below, so that the one table of names is this file's.

const (
	cell   = 60 // a square's side, in SVG units
	margin = 26 // room for the coordinates above and to the right
)

// glyph is how a piece is written in each script.
type glyph struct {
	Kanji string `json:"k"`
	Latin string `json:"l"`
}

func pieceGlyph(p minishogi.Piece) glyph {
	return glyph{Kanji: notation.BoardName(p.Type()), Latin: p.Type().String()}
}

// glyphs is every piece's glyph by its code (minishogi.Piece), for the script.
func glyphs() map[int]glyph {
	out := map[int]glyph{}
	for _, c := range []minishogi.Color{minishogi.Sente, minishogi.Gote} {
		for pt := minishogi.Pawn; pt <= minishogi.Dragon; pt++ {
			out[int(minishogi.NewPiece(c, pt))] = pieceGlyph(minishogi.NewPiece(c, pt))
		}
	}
	return out
}

var (
	fileKanji = [...]string{"", "１", "２", "３", "４", "５"}
	rankKanji = [...]string{"一", "二", "三", "四", "五"}
)

// squareXY is the top-left corner of square s.
func squareXY(s minishogi.Square) (x, y int) {
	return (5-s.File())*cell + 1, s.Rank()*cell + margin
}

// boardSVG draws pos; last, when not 0, is the move that led to it (its squares are marked).
func boardSVG(pos *minishogi.Position, last minishogi.Move) template.HTML {
	var b strings.Builder
	w, h := 5*cell+margin+2, 5*cell+margin+2
	fmt.Fprintf(&b, `<svg class="board-svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="board">`, w, h, w, h)
	for f := 5; f >= 1; f-- {
		x := (5-f)*cell + 1 + cell/2
		fmt.Fprintf(&b, `<text class="coord k" x="%d" y="18">%s</text><text class="coord l" x="%d" y="18">%d</text>`, x, fileKanji[f], x, f)
	}
	for r := range 5 {
		y := r*cell + margin + cell/2 + 6
		fmt.Fprintf(&b, `<text class="coord k" x="%d" y="%d">%s</text><text class="coord l" x="%d" y="%d">%c</text>`,
			5*cell+14, y, rankKanji[r], 5*cell+14, y, 'a'+r)
	}
	for s := minishogi.Square(0); s < minishogi.NumSquares; s++ {
		x, y := squareXY(s)
		fmt.Fprintf(&b, `<rect class="sq%s" id="sq%d" x="%d" y="%d" width="%d" height="%d"/>`, markClass(s, last), s, x, y, cell, cell)
	}
	for s := minishogi.Square(0); s < minishogi.NumSquares; s++ {
		x, y := squareXY(s)
		pc := pos.PieceAt(s)
		g := glyph{}
		if pc != minishogi.NoPiece {
			g = pieceGlyph(pc)
		}
		fmt.Fprintf(&b, `<g transform="translate(%d %d)"><g class="%s" id="pc%d" data-sq="%s"><text class="k" y="12">%s</text><text class="l" y="10">%s</text></g></g>`,
			x+cell/2, y+cell/2, pieceClass(pc), s, s, g.Kanji, g.Latin)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func markClass(s minishogi.Square, last minishogi.Move) string {
	if last == 0 {
		return ""
	}
	if s == last.To() || !last.IsDrop() && s == last.From() {
		return " last"
	}
	return ""
}

// pieceClass is the class of a square's piece group: the script computes the same from a
// piece code (view.js, pieceClass).
func pieceClass(pc minishogi.Piece) string {
	if pc == minishogi.NoPiece {
		return "pc"
	}
	c := "pc"
	if pc.Color() == minishogi.Gote {
		c += " gote"
	}
	if pc.Type().IsPromoted() {
		c += " pro"
	}
	return c
}

// hand is one side's pieces in hand as counts in minishogi.HandTypes order.
func hand(pos *minishogi.Position, c minishogi.Color) [5]int {
	var h [5]int
	for i, pt := range minishogi.HandTypes {
		h[i] = pos.Hand(c, pt)
	}
	return h
}

// handGlyphs are the glyphs of the kinds in hand, in minishogi.HandTypes order.
func handGlyphs() []glyph {
	out := make([]glyph, len(minishogi.HandTypes))
	for i, pt := range minishogi.HandTypes {
		out[i] = pieceGlyph(minishogi.NewPiece(minishogi.Sente, pt))
	}
	return out
}

// handHTML writes a hand in both scripts: 飛 金2 and R G2, or "none".
func handHTML(h [5]int) template.HTML {
	var k, l []string
	for i, g := range handGlyphs() {
		if h[i] == 0 {
			continue
		}
		n := ""
		if h[i] > 1 {
			n = strconv.Itoa(h[i])
		}
		k = append(k, g.Kanji+n)
		l = append(l, g.Latin+n)
	}
	if len(k) == 0 {
		return `<span class="none">none</span>`
	}
	return template.HTML(`<span class="k">` + template.HTMLEscapeString(strings.Join(k, " ")) + `</span><span class="l">` +
		template.HTMLEscapeString(strings.Join(l, " ")) + `</span>`)
}

// board is what a page needs to draw a position: the SVG, both hands, the side to move and
// the SFEN (kept in the page, data-sfen, for a reader's tools and the browser tests).
type board struct {
	SVG       template.HTML
	SenteHand template.HTML
	GoteHand  template.HTML
	SFEN      string
}

func newBoard(pos *minishogi.Position, last minishogi.Move) board {
	return board{SVG: boardSVG(pos, last), SenteHand: handHTML(hand(pos, minishogi.Sente)),
		GoteHand: handHTML(hand(pos, minishogi.Gote)), SFEN: pos.SFEN()}
}

// positionKey is an SFEN without its move number: the position as proofs and opening trees
// name it.
func positionKey(pos *minishogi.Position) string {
	f := strings.Fields(pos.SFEN())
	return strings.Join(f[:3], " ")
}
