package eval

import (
	"math"
	"math/bits"

	"github.com/shogilab/shogilab/mcts"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// The evaluation cache. A search meets the same position again and again: through
// transpositions, which the tree keeps as separate nodes, and across the moves of a game,
// whose searches cover much the same ground. Counted over self-play games at 10,000
// playouts a move, 35% to 77% of a game's expansions were of a position expanded earlier
// in that game (docs/tactics.md, "The evaluation cache and the exact repetition check").
// The network's judgement of a position depends on the position alone, so the cache keeps
// it, as lc0's NNCache does:
// the value, each move's prior, and which moves give check (the mate search's candidates),
// keyed by the position's hash. A hit returns exactly what the network would compute, so
// a search with the cache makes the same tree as one without; only the time differs.
//
// The mate search's answer depends on more than the position: on the game's history,
// through MaybeSeen (a line through a position that may have occurred is not trusted), and
// on its node budget. One answer does not: a search that ran to its end within the budget
// without meeting a position that may have occurred, and found no mate. Any other history
// can only forbid more lines (more positions seen), so a search there finds no mate
// either. The slot keeps the depth of such a search (mateFree), and a later expansion of
// the position to that depth or less skips its mate search, with the same answer.
//
// The priors go to an arena of 32-bit words used as a ring: a slot keeps where its
// position's words begin, and is stale once the ring has come round over them. A word is
// the prior's bits (always positive, as fastExp is) with the sign bit set for a check.

// cacheWordsPerSlot is the arena's room per slot: about the moves of a middle-game
// position with a piece or two in hand.
const cacheWordsPerSlot = 48

// cacheSlotBytes is what a slot costs with its share of the arena.
const cacheSlotBytes = 24 + 4*cacheWordsPerSlot

// checkBit marks a move that gives check in an arena word.
const checkBit = 1 << 31

type cacheSlot struct {
	key      uint64 // the position's hash
	at       uint64 // the arena's running count of words when its priors were written
	value    float32
	n        uint16 // its moves
	mateFree uint16 // the depth to which a mate search proved there is no mate (0: none)
}

type evalCache struct {
	slots []cacheSlot // direct-mapped by hash; len a power of two
	arena []uint32
	head  uint64 // words written since the start, the ring's position
}

// newEvalCache returns a cache of at most bytes bytes, or nil when that holds no slot.
func newEvalCache(bytes int) *evalCache {
	n := bytes / cacheSlotBytes
	if n < 1 {
		return nil
	}
	slots := 1 << (63 - bits.LeadingZeros64(uint64(n))) // the largest power of two in n
	return &evalCache{slots: make([]cacheSlot, slots), arena: make([]uint32, slots*cacheWordsPerSlot)}
}

// lookup writes the cached priors of pos's moves into priors and its checking moves into
// checks, and returns the value, the number of checks and the slot (whose mateFree the
// caller may set); ok is false on a miss.
func (c *evalCache) lookup(pos *ms.Position, moves []mcts.Move, priors []float32, checks []ms.Move) (value float32, nChecks int, s *cacheSlot, ok bool) {
	key := pos.Hash()
	s = &c.slots[key&uint64(len(c.slots)-1)]
	if s.key != key || int(s.n) != len(moves) || s.n == 0 || c.head-s.at > uint64(len(c.arena)) {
		return 0, 0, nil, false
	}
	start := int(s.at % uint64(len(c.arena)))
	words := c.arena[start : start+len(moves)]
	for i, w := range words {
		priors[i] = math.Float32frombits(w &^ checkBit)
		if w&checkBit != 0 {
			checks[nChecks] = ms.Move(moves[i])
			nChecks++
		}
	}
	return s.value, nChecks, s, true
}

// find returns pos's slot, or nil when pos is not kept. Its priors may be gone (the ring
// came round over them), its mateFree holds.
func (c *evalCache) find(pos *ms.Position) *cacheSlot {
	key := pos.Hash()
	s := &c.slots[key&uint64(len(c.slots)-1)]
	if s.key != key || s.n == 0 {
		return nil
	}
	return s
}

// store keeps pos's value and priors, and which of moves are among checks (a subsequence
// of moves, in their order), and returns its slot (nil when pos is not kept).
func (c *evalCache) store(pos *ms.Position, value float32, moves []mcts.Move, priors []float32, checks []ms.Move) *cacheSlot {
	n := len(moves)
	if n == 0 || n > len(c.arena) || n > math.MaxUint16 {
		return nil
	}
	start := int(c.head % uint64(len(c.arena)))
	if start+n > len(c.arena) { // keep a position's words in one piece: wrap early
		c.head += uint64(len(c.arena) - start)
		start = 0
	}
	words := c.arena[start : start+n]
	j := 0
	for i, p := range priors[:n] {
		w := math.Float32bits(p)
		if j < len(checks) && ms.Move(moves[i]) == checks[j] {
			w |= checkBit
			j++
		}
		words[i] = w
	}
	key := pos.Hash()
	s := &c.slots[key&uint64(len(c.slots)-1)]
	*s = cacheSlot{key: key, at: c.head, value: value, n: uint16(n)}
	c.head += uint64(n)
	return s
}
