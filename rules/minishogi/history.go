package minishogi

// History is what the repetition rules of docs/rules.md#repetition need of a game: the hash
// of every position since the start and whether each move gave check. Game keeps one; the
// engine's search keeps one too, with a filter of its own in front, so that both judge a
// repetition by the same code. Push and Pop allocate nothing while the history has room.
type History struct {
	firstMover Color    // side to move at the start
	hashes     []uint64 // hashes[i]: the position after i moves
	checks     []bool   // checks[i]: move i gave check
}

// NewHistory starts the history of a game from start, with room for room moves.
func NewHistory(start *Position, room int) History {
	h := History{
		firstMover: start.SideToMove(),
		hashes:     make([]uint64, 1, room+1),
		checks:     make([]bool, 0, room),
	}
	h.hashes[0] = start.Hash()
	return h
}

// Clone returns an independent copy with room for room more moves.
func (h *History) Clone(room int) History {
	n := len(h.checks) + room
	return History{
		firstMover: h.firstMover,
		hashes:     append(make([]uint64, 0, n+1), h.hashes...),
		checks:     append(make([]bool, 0, n), h.checks...),
	}
}

// Push records a move that led to the position with this hash and, if check, gave check.
func (h *History) Push(hash uint64, check bool) {
	h.hashes = append(h.hashes, hash)
	h.checks = append(h.checks, check)
}

// Pop forgets the last move; there must be one.
func (h *History) Pop() {
	n := len(h.checks)
	h.hashes, h.checks = h.hashes[:n], h.checks[:n-1]
}

// Moves returns the number of moves recorded.
func (h *History) Moves() int { return len(h.checks) }

// Hash returns the hash of the position after i moves.
func (h *History) Hash(i int) uint64 { return h.hashes[i] }

// FourthOccurrence reports whether the current position occurs for the fourth time, and if
// so after how many moves the first of the four occurrences stood.
func (h *History) FourthOccurrence() (first int, ok bool) {
	n := len(h.checks)
	now := h.hashes[n]
	count := 0
	for i := n; i >= 0; i -= 2 { // equal positions have the same side to move
		if h.hashes[i] == now {
			if count++; count == 4 {
				return i, true
			}
		}
	}
	return 0, false
}

// PreviousOccurrence reports whether the current position occurred before, and if so after
// how many moves it last stood.
func (h *History) PreviousOccurrence() (last int, ok bool) {
	n := len(h.checks)
	now := h.hashes[n]
	for i := n - 2; i >= 0; i -= 2 { // equal positions have the same side to move
		if h.hashes[i] == now {
			return i, true
		}
	}
	return 0, false
}

// JudgeRepetition judges a repetition of the current position whose cycle began after first
// moves (docs/rules.md#repetition): a side that gave check with every one of its moves since
// then loses by perpetual check, unless both did (each check answered by a check), in which
// case neither is singled out and the repetition rule decides.
func (h *History) JudgeRepetition(first int, rule RepetitionRule) Result {
	n := len(h.checks)
	// The side to move now also moved after first, first+2, ... moves; its opponent between.
	stm := h.firstMover
	if n%2 == 1 {
		stm = stm.Opponent()
	}
	allChecks := [2]bool{true, true}
	for i := first; i < n; i++ {
		c := stm
		if (i-first)%2 == 1 {
			c = stm.Opponent()
		}
		allChecks[c] = allChecks[c] && h.checks[i]
	}
	if allChecks[Sente] != allChecks[Gote] {
		checker := Sente
		if allChecks[Gote] {
			checker = Gote
		}
		return Result{Termination: PerpetualCheck, Winner: checker.Opponent()}
	}
	switch rule {
	case GoteWins:
		return Result{Termination: Repetition, Winner: Gote}
	case RepetitionDraws:
		return Result{Termination: Repetition, Draw: true}
	}
	return Result{Termination: Repetition, Winner: h.firstMover.Opponent()}
}
