package mcts

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/shogilab/shogilab/outcome"
)

// Small games with values known by hand or by the plain negamax below, for
// the tests.

// ticTacToe: squares 0-8 row by row; X (+1) moves first.
type ticTacToe struct {
	board   [9]int8
	toMove  int8
	history []Move
}

var ticTacToeLines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

// newTicTacToe parses a board like "XX.O....." (row by row); the side to move
// follows from the counts.
func newTicTacToe(s string) *ticTacToe {
	g := &ticTacToe{toMove: 1}
	xs, os := 0, 0
	for i, c := range s {
		switch c {
		case 'X':
			g.board[i], xs = 1, xs+1
		case 'O':
			g.board[i], os = -1, os+1
		}
	}
	if xs > os {
		g.toMove = -1
	}
	return g
}

func (g *ticTacToe) LegalMoves(dst []Move) []Move {
	if over, _ := g.Outcome(); over {
		return dst
	}
	for i, c := range g.board {
		if c == 0 {
			dst = append(dst, Move(i))
		}
	}
	return dst
}

func (g *ticTacToe) Play(m Move) {
	g.board[m] = g.toMove
	g.toMove = -g.toMove
	g.history = append(g.history, m)
}

func (g *ticTacToe) Undo() {
	m := g.history[len(g.history)-1]
	g.history = g.history[:len(g.history)-1]
	g.board[m] = 0
	g.toMove = -g.toMove
}

func (g *ticTacToe) Outcome() (bool, float32) {
	for _, l := range ticTacToeLines {
		if s := g.board[l[0]] + g.board[l[1]] + g.board[l[2]]; s == 3 || s == -3 {
			return true, -1 // only the side that just moved can have made a line
		}
	}
	for _, c := range g.board {
		if c == 0 {
			return false, 0
		}
	}
	return true, 0
}

func (g *ticTacToe) Hash() uint64 {
	h := uint64(0)
	for _, c := range g.board {
		h = h*3 + uint64(c+1)
	}
	return h
}

func (g *ticTacToe) Clone() Game {
	c := *g
	c.history = append([]Move(nil), g.history...)
	return &c
}

func (g *ticTacToe) MoveString(m Move) string { return fmt.Sprint(int(m)) }

// nim: normal play, the player who cannot move loses. A move takes
// take stones from heap heap, packed as heap<<8 | take. maxTake > 0 limits a
// take (the subtraction game).
type nim struct {
	heaps   []int
	maxTake int
	history []Move
}

func newNim(maxTake int, heaps ...int) *nim { return &nim{heaps: heaps, maxTake: maxTake} }

// String names a nim position in subtest names and failure messages: its heaps, and the
// most a move may take (0: any number).
func (g *nim) String() string { return fmt.Sprintf("nim%v-take-%d", g.heaps, g.maxTake) }

func (g *nim) LegalMoves(dst []Move) []Move {
	for h, n := range g.heaps {
		for t := 1; t <= n && (g.maxTake == 0 || t <= g.maxTake); t++ {
			dst = append(dst, Move(h<<8|t))
		}
	}
	return dst
}

func (g *nim) Play(m Move) {
	g.heaps[m>>8] -= int(m & 0xff)
	g.history = append(g.history, m)
}

func (g *nim) Undo() {
	m := g.history[len(g.history)-1]
	g.history = g.history[:len(g.history)-1]
	g.heaps[m>>8] += int(m & 0xff)
}

func (g *nim) Outcome() (bool, float32) {
	for _, n := range g.heaps {
		if n > 0 {
			return false, 0
		}
	}
	return true, -1
}

func (g *nim) Hash() uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for _, n := range g.heaps {
		h = (h ^ uint64(n)) * 1099511628211
	}
	return h
}

func (g *nim) Clone() Game {
	return &nim{heaps: append([]int(nil), g.heaps...), maxTake: g.maxTake, history: append([]Move(nil), g.history...)}
}

func (g *nim) MoveString(m Move) string { return fmt.Sprintf("%d-%d", m>>8, m&0xff) }

// treeGame plays on an explicit game tree written out by hand, for
// scenarios the real games do not give cleanly.
type treeGame struct {
	tree *gameTree
	path []int // node ids, root first
}

type gameTree struct {
	children [][]int   // by node id
	result   []float32 // for leaves: the result for the side to move there
	prior    [][]float32
	value    []float32 // what treeEvaluator says of an inner node
	proof    []Proof   // what treeEvaluator proves of an inner node
}

// add appends a node and returns its id.
func (t *gameTree) add(value float32) int {
	t.children = append(t.children, nil)
	t.result = append(t.result, 0)
	t.prior = append(t.prior, nil)
	t.value = append(t.value, value)
	t.proof = append(t.proof, Proof{})
	return len(t.children) - 1
}

// leaf appends a finished position with the given result for its side to move.
func (t *gameTree) leaf(result float32) int {
	id := t.add(0)
	t.result[id] = result
	return id
}

// link makes the children the moves of parent, with the given priors.
func (t *gameTree) link(parent int, children []int, priors []float32) {
	t.children[parent] = children
	t.prior[parent] = priors
}

func (t *gameTree) game() *treeGame { return &treeGame{tree: t, path: []int{0}} }

func (g *treeGame) at() int { return g.path[len(g.path)-1] }

func (g *treeGame) LegalMoves(dst []Move) []Move {
	for i := range g.tree.children[g.at()] {
		dst = append(dst, Move(i))
	}
	return dst
}
func (g *treeGame) Play(m Move) { g.path = append(g.path, g.tree.children[g.at()][m]) }
func (g *treeGame) Undo()       { g.path = g.path[:len(g.path)-1] }
func (g *treeGame) Outcome() (bool, float32) {
	if len(g.tree.children[g.at()]) == 0 {
		return true, g.tree.result[g.at()]
	}
	return false, 0
}
func (g *treeGame) Hash() uint64 { return uint64(g.at()) }
func (g *treeGame) Clone() Game {
	return &treeGame{tree: g.tree, path: append([]int(nil), g.path...)}
}
func (g *treeGame) MoveString(m Move) string { return fmt.Sprint(int(m)) }

// treeEvaluator reads priors, values and proofs from the gameTree.
type treeEvaluator struct{}

func (treeEvaluator) Evaluate(g Game, moves []Move, priors []float32, rng *rand.Rand) Evaluation {
	t, id := g.(*treeGame).tree, g.(*treeGame).at()
	copy(priors, t.prior[id])
	return Evaluation{Value: t.value[id], Proof: t.proof[id]}
}

// solve is a plain negamax: the exact result of g for its side to move,
// with the fastest win and the slowest loss. memo is keyed by Hash.
func solve(g Game, memo map[uint64]Proof) Proof {
	if p, ok := memo[g.Hash()]; ok {
		return p
	}
	if over, v := g.Outcome(); over {
		return outcomeProof(v)
	}
	var best Proof
	score := func(p Proof) int { // higher is better for the side to move
		switch p.Outcome {
		case outcome.Win:
			return 2000 - p.Plies
		case outcome.Loss:
			return -2000 + p.Plies
		}
		return 0
	}
	for i, m := range g.LegalMoves(nil) {
		g.Play(m)
		p := solve(g, memo).parent()
		g.Undo()
		if i == 0 || score(p) > score(best) {
			best = p
		}
	}
	memo[g.Hash()] = best
	return best
}

// boardString draws a tic-tac-toe board for failure messages.
func (g *ticTacToe) String() string {
	var b strings.Builder
	for i, c := range g.board {
		b.WriteByte(".XO"[map[int8]int{0: 0, 1: 1, -1: 2}[c]])
		if i%3 == 2 && i < 8 {
			b.WriteByte('/')
		}
	}
	return b.String()
}
