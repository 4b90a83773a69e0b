package minishogi

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSFEN parses a position in SFEN: board ranks a..e separated by '/', each with files
// 5..1; side to move 'b' or 'w'; hands ('-' or pieces with optional counts, such as "BGrs" or
// "2Pg"); and an optional move number (1 when absent). It rejects any position that cannot
// arise in Minishogi, with an error that says what is wrong and where.
func ParseSFEN(sfen string) (Position, error) {
	var p Position
	fields := strings.Fields(sfen)
	if len(fields) < 3 || len(fields) > 4 {
		return p, sfenError("want 3 or 4 fields (board, side, hands[, move number]), got %d", len(fields))
	}
	if err := p.parseBoard(fields[0]); err != nil {
		return p, err
	}
	switch fields[1] {
	case "b":
		p.stm = Sente
	case "w":
		p.stm = Gote
	default:
		return p, sfenError("side to move %q is not b or w", fields[1])
	}
	if err := p.parseHands(fields[2]); err != nil {
		return p, err
	}
	p.moveNum = 1
	if len(fields) == 4 {
		n, err := strconv.Atoi(fields[3])
		if err != nil || n < 1 {
			return p, sfenError("move number %q is not a positive integer", fields[3])
		}
		p.moveNum = n
	}
	if err := p.validate(); err != nil {
		return p, err
	}
	p.hash = p.computeHash()
	return p, nil
}

func sfenError(format string, args ...any) error {
	return fmt.Errorf("minishogi: sfen: "+format, args...)
}

// letterType maps an uppercase SFEN letter to its piece kind.
func letterType(b byte) PieceType {
	if i := strings.IndexByte(sfenLetters, b); i > 0 {
		return PieceType(i)
	}
	return NoPieceType
}

func (p *Position) parseBoard(board string) error {
	ranks := strings.Split(board, "/")
	if len(ranks) != 5 {
		return sfenError("board has %d ranks, want 5", len(ranks))
	}
	for r, rank := range ranks {
		file := 0 // files counted from the left (file 5)
		promoted := false
		for i := 0; i < len(rank); i++ {
			ch := rank[i]
			switch {
			case ch >= '1' && ch <= '9':
				if promoted {
					return sfenError("rank %d (%c): '+' is not followed by a piece", r+1, 'a'+r)
				}
				file += int(ch - '0')
			case ch == '+':
				if promoted {
					return sfenError("rank %d (%c): '++'", r+1, 'a'+r)
				}
				promoted = true
			default:
				upper, color := ch, Sente
				if ch >= 'a' && ch <= 'z' {
					upper, color = ch-'a'+'A', Gote
				}
				pt := letterType(upper)
				if pt == NoPieceType {
					return sfenError("rank %d (%c): unknown piece letter %q", r+1, 'a'+r, ch)
				}
				if promoted {
					if !pt.CanPromote() {
						return sfenError("rank %d (%c): %c cannot be promoted", r+1, 'a'+r, ch)
					}
					pt = pt.Promoted()
					promoted = false
				}
				if file < 5 {
					p.put(NewPiece(color, pt), Square(r*5+file))
				}
				file++
			}
		}
		if promoted {
			return sfenError("rank %d (%c): '+' is not followed by a piece", r+1, 'a'+r)
		}
		if file != 5 {
			return sfenError("rank %d (%c) has %d files, want 5", r+1, 'a'+r, file)
		}
	}
	return nil
}

func (p *Position) parseHands(hands string) error {
	if hands == "-" {
		return nil
	}
	count, counted := 0, false
	for i := 0; i < len(hands); i++ {
		ch := hands[i]
		if ch >= '0' && ch <= '9' {
			count, counted = count*10+int(ch-'0'), true
			if count > 99 {
				return sfenError("hands: count in %q is out of range", hands)
			}
			continue
		}
		upper, color := ch, Sente
		if ch >= 'a' && ch <= 'z' {
			upper, color = ch-'a'+'A', Gote
		}
		pt := letterType(upper)
		if pt == NoPieceType || pt == King {
			return sfenError("hands: %q is not a piece that can be held in hand", ch)
		}
		n := 1
		if counted {
			n = count
		}
		count, counted = 0, false
		if n < 1 || n > SetCount {
			return sfenError("hands: %s holds %d %c, must be 1 to %d", color, n, upper, SetCount)
		}
		if p.hand[color][pt] != 0 {
			return sfenError("hands: %s's %c is listed twice", color, upper)
		}
		p.hand[color][pt] = uint8(n)
	}
	if counted {
		return sfenError("hands %q end with a count and no piece", hands)
	}
	return nil
}

// validate checks what no legal game can produce: piece counts beyond the set, a missing or
// extra king, an unpromoted pawn on its last rank, two unpromoted pawns of one side on a file,
// and the side not to move in check.
func (p *Position) validate() error {
	var total [numPieceTypes]int
	for s := Square(0); s < NumSquares; s++ {
		if pc := p.board[s]; pc != NoPiece {
			total[pc.Type().Unpromoted()]++
		}
	}
	for c := Sente; c <= Gote; c++ {
		for _, pt := range HandTypes {
			total[pt] += int(p.hand[c][pt])
		}
	}
	for _, pt := range [...]PieceType{Pawn, Silver, Gold, Bishop, Rook} {
		if total[pt] > SetCount {
			return sfenError("%d pieces of kind %s (board and hands); a set has %d", total[pt], pt, SetCount)
		}
	}
	for c := Sente; c <= Gote; c++ {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return sfenError("%s has %d kings, want 1", c, n)
		}
		p.king[c] = p.Pieces(c, King).First()
		if b := p.Pieces(c, Pawn) & promotionZone[c]; b != 0 {
			return sfenError("%s pawn on %s, its last rank, could never move", c, b.First())
		}
		var files [5]int
		for b := p.Pieces(c, Pawn); b != 0; b &= b - 1 {
			f := b.First().File()
			if files[f-1]++; files[f-1] > 1 {
				return sfenError("%s has two unpromoted pawns on file %d (nifu)", c, f)
			}
		}
	}
	notToMove := p.stm.Opponent()
	if p.Attackers(p.king[notToMove], p.stm, p.Occupied()) != 0 {
		return sfenError("%s, not to move, is in check", notToMove)
	}
	return nil
}

// SFEN formats the position, move number included.
func (p *Position) SFEN() string {
	var sb strings.Builder
	for r := 0; r < 5; r++ {
		if r > 0 {
			sb.WriteByte('/')
		}
		empty := 0
		for f := 0; f < 5; f++ {
			pc := p.board[r*5+f]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteString(pc.String())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
	}
	if p.stm == Sente {
		sb.WriteString(" b ")
	} else {
		sb.WriteString(" w ")
	}
	any := false
	for c := Sente; c <= Gote; c++ {
		for _, pt := range HandTypes {
			n := p.hand[c][pt]
			if n == 0 {
				continue
			}
			any = true
			if n > 1 {
				sb.WriteString(strconv.Itoa(int(n)))
			}
			sb.WriteString(NewPiece(c, pt).String())
		}
	}
	if !any {
		sb.WriteByte('-')
	}
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(p.moveNum))
	return sb.String()
}

func (p Position) String() string { return p.SFEN() }
