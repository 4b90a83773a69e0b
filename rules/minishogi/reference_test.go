package minishogi

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// This file holds a slow reference move generator written plainly for checking the fast one:
// a board array, moves stepped square by square, and legality by trying each pseudo-move and
// asking whether any enemy piece attacks the king afterwards. It shares nothing with the
// package's tables.

type refPos struct {
	board [25]Piece
	hand  [2][numPieceTypes]int
	stm   Color
}

func toRef(p *Position) refPos {
	var r refPos
	for s := Square(0); s < NumSquares; s++ {
		r.board[s] = p.PieceAt(s)
	}
	for c := Sente; c <= Gote; c++ {
		for _, pt := range HandTypes {
			r.hand[c][pt] = p.Hand(c, pt)
		}
	}
	r.stm = p.SideToMove()
	return r
}

type refDir struct {
	df, dr int
	slide  bool
}

// refMoves gives each kind's moves for Sente (rank step -1 is forward).
func refMoves(pt PieceType) []refDir {
	gold := []refDir{{0, -1, false}, {-1, -1, false}, {1, -1, false}, {-1, 0, false}, {1, 0, false}, {0, 1, false}}
	diag := []refDir{{-1, -1, true}, {1, -1, true}, {-1, 1, true}, {1, 1, true}}
	orth := []refDir{{0, -1, true}, {0, 1, true}, {-1, 0, true}, {1, 0, true}}
	switch pt {
	case Pawn:
		return []refDir{{0, -1, false}}
	case Silver:
		return []refDir{{0, -1, false}, {-1, -1, false}, {1, -1, false}, {-1, 1, false}, {1, 1, false}}
	case Gold, Tokin, ProSilver:
		return gold
	case King:
		return []refDir{{0, -1, false}, {0, 1, false}, {-1, 0, false}, {1, 0, false}, {-1, -1, false}, {1, -1, false}, {-1, 1, false}, {1, 1, false}}
	case Bishop:
		return diag
	case Rook:
		return orth
	case Horse:
		return append(slices.Clone(diag), refDir{0, -1, false}, refDir{0, 1, false}, refDir{-1, 0, false}, refDir{1, 0, false})
	case Dragon:
		return append(slices.Clone(orth), refDir{-1, -1, false}, refDir{1, -1, false}, refDir{-1, 1, false}, refDir{1, 1, false})
	}
	return nil
}

func (r *refPos) destinations(s int) []int {
	pc := r.board[s]
	var out []int
	for _, d := range refMoves(pc.Type()) {
		dr := d.dr
		if pc.Color() == Gote {
			dr = -dr
		}
		f, rk := s%5+d.df, s/5+dr
		for f >= 0 && f < 5 && rk >= 0 && rk < 5 {
			out = append(out, rk*5+f)
			if !d.slide || r.board[rk*5+f] != NoPiece {
				break
			}
			f, rk = f+d.df, rk+dr
		}
	}
	return out
}

func (r *refPos) attacked(s int, by Color) bool {
	for from := 0; from < 25; from++ {
		if pc := r.board[from]; pc != NoPiece && pc.Color() == by && slices.Contains(r.destinations(from), s) {
			return true
		}
	}
	return false
}

func (r *refPos) kingSquare(c Color) int {
	for s, pc := range r.board {
		if pc == NewPiece(c, King) {
			return s
		}
	}
	return -1
}

func lastRank(c Color, s int) bool { return c == Sente && s < 5 || c == Gote && s >= 20 }

func (r refPos) apply(m Move) refPos {
	us := r.stm
	if m.IsDrop() {
		r.hand[us][m.DropType()]--
		r.board[m.To()] = NewPiece(us, m.DropType())
	} else {
		pc := r.board[m.From()]
		if cap := r.board[m.To()]; cap != NoPiece {
			r.hand[us][cap.Type().Unpromoted()]++
		}
		if m.IsPromotion() {
			pc = NewPiece(us, pc.Type().Promoted())
		}
		r.board[m.From()], r.board[m.To()] = NoPiece, pc
	}
	r.stm = us.Opponent()
	return r
}

func (r *refPos) legal() []Move {
	us := r.stm
	var pseudo []Move
	for s := 0; s < 25; s++ {
		pc := r.board[s]
		if pc == NoPiece || pc.Color() != us {
			continue
		}
		for _, t := range r.destinations(s) {
			if r.board[t] != NoPiece && r.board[t].Color() == us {
				continue
			}
			canPromote := pc.Type().CanPromote() && (lastRank(us, s) || lastRank(us, t))
			if !(pc.Type() == Pawn && lastRank(us, t)) {
				pseudo = append(pseudo, NewMove(Square(s), Square(t), false))
			}
			if canPromote {
				pseudo = append(pseudo, NewMove(Square(s), Square(t), true))
			}
		}
	}
	for _, pt := range []PieceType{Pawn, Silver, Gold, Bishop, Rook} {
		if r.hand[us][pt] == 0 {
			continue
		}
	squares:
		for t := 0; t < 25; t++ {
			if r.board[t] != NoPiece || pt == Pawn && lastRank(us, t) {
				continue
			}
			if pt == Pawn {
				for rk := 0; rk < 5; rk++ {
					if r.board[rk*5+t%5] == NewPiece(us, Pawn) {
						continue squares
					}
				}
			}
			pseudo = append(pseudo, NewDrop(pt, Square(t)))
		}
	}
	var legal []Move
	for _, m := range pseudo {
		next := r.apply(m)
		if next.attacked(next.kingSquare(us), us.Opponent()) {
			continue
		}
		if m.IsDrop() && m.DropType() == Pawn && next.attacked(next.kingSquare(us.Opponent()), us) && len(next.legal()) == 0 {
			continue // uchifuzume
		}
		legal = append(legal, m)
	}
	return legal
}

func sortedMoves(ms []Move) []Move {
	ms = slices.Clone(ms)
	slices.Sort(ms)
	return ms
}

// TestRandomWalks plays random games and checks at every position: the legal moves equal the
// reference generator's, the incremental hash equals the hash from scratch, make then unmake
// restores the position exactly, and SFEN round-trips.
func TestRandomWalks(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 40
	}
	rng := rand.New(rand.NewPCG(1, 2))
	starts := []string{StartSFEN, "4k/5/5/P4/KGSBR w - 1", "2k2/5/2P2/5/2K2 b RBGSrbgs 1"}
	positions := 0
	for g := 0; g < games; g++ {
		p, err := ParseSFEN(starts[g%len(starts)])
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 120; ply++ {
			positions++
			var ml MoveList
			p.GenerateLegal(&ml)
			ref := toRef(&p)
			got, want := sortedMoves(ml.Slice()), sortedMoves(ref.legal())
			if !slices.Equal(got, want) {
				t.Fatalf("%s: moves %v, reference %v", p.SFEN(), got, want)
			}
			if h := p.computeHash(); h != p.Hash() {
				t.Fatalf("%s: incremental hash %x, from scratch %x", p.SFEN(), p.Hash(), h)
			}
			q, err := ParseSFEN(p.SFEN())
			if err != nil || q != p {
				t.Fatalf("%s: SFEN round trip failed: %v", p.SFEN(), err)
			}
			for _, m := range ml.Slice() {
				before := p
				u := p.MakeMove(m)
				if p.computeHash() != p.Hash() {
					t.Fatalf("%s after %s: incremental hash differs from scratch", before.SFEN(), m)
				}
				p.UnmakeMove(m, u)
				if p != before {
					t.Fatalf("%s: make/unmake %s changed the position to %s", before.SFEN(), m, p.SFEN())
				}
			}
			if ml.N == 0 {
				break
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.N)])
		}
	}
	t.Logf("%d positions checked", positions)
}
