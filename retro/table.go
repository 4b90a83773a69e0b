package retro

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Hand is the material in hand of a position, packed by the game as sixteen 4-bit counts of
// at most 7, so that h.Covers(o) tells whether h is at least as good for the attacker as o
// in every count (a game stores the attacker's counts as they are and the defender's as 7
// minus the count, so more for the attacker and less for the defender both count as more).
type Hand uint64

// Covers reports whether every 4-bit count of h is at least the same count of o.
func (h Hand) Covers(o Hand) bool {
	const high = 0x8888888888888888
	// Setting each nibble's top bit before subtracting keeps borrows inside the nibble; the
	// bit survives exactly where h's count is at least o's.
	return ((uint64(h)|high)-uint64(o))&high == high
}

// HandRules is an optional extension of MoveRules that enables hand and depth superiority
// (Seo, "The C* algorithm for AND/OR tree search and its application to a tsume-shogi
// program", MSc thesis, University of Tokyo, 1995; used by Nagai's df-pn): Split returns the
// position without its hands (an exact code of the board and side to move), a hash of that
// board, and the hands. Then a position whose attacker holds at least the hand of a proved
// position with the same board is proved, and a position whose attacker holds at most the
// hand of a disproved one is disproved. Without it, each code is its own board, hashed by
// the runtime's hash with a random seed (so table collisions, and node counts, vary from run
// to run; the answers do not).
type HandRules[S any, M comparable, K comparable] interface {
	MoveRules[S, M, K]
	Split(s S, attackerToMove bool) (board K, hash uint64, hand Hand)
}

// nodeKey is a node of the bounded search: a position (board and hands), its role, and the
// plies left for the attacker to mate in. Keying by the plies left makes the searched graph
// acyclic (they fall by one per move), so df-pn's graph-history interaction cannot arise.
type nodeKey[K comparable] struct {
	board    K
	hash     uint64
	hand     Hand
	plies    int16
	attacker bool
}

// entry is one slot of the table: a node and its numbers from the side to move's view (phi:
// how hard it is for the mover to reach its goal, delta: how hard for the opponent; phi = 0
// means the mover succeeds, delta = 0 that it fails) and the nodes its last search generated
// (the replacement keeps the large subtrees).
type entry[K comparable] struct {
	board      K
	hash       uint64
	hand       Hand
	phi, delta uint32
	work       uint32
	plies      int16
	attacker   bool
	used       bool
}

// table is the transposition table: a fixed array of buckets of ways entries, a node's
// bucket chosen by its board's hash so that every hand and depth of one board meets in one
// bucket, where the superiority rules look. A full bucket gives up its smallest subtree.
// The table starts small and doubles when half full (a fuller table overflows many buckets), up to its limit (in a
// single-worker search; see MateSearch.SetWorkers), so a small search takes little memory.
type table[K comparable] struct {
	entries []entry[K]
	// tags[i] is entry i's board hash's high half with the low bit set, 0 for a free entry: a
	// bucket's tags share a cache line, so a miss costs one line, not a bucket of entries.
	tags  []uint32
	ways  int
	mask  uint64 // buckets - 1
	grow  bool
	limit int          // the most entries (0: no limit)
	used  atomic.Int64 // entries in use, but for those counted in locks
	locks []stripe     // nil in a single-worker search
	// inside counts the workers searching inside each node, by a hash of its key, apart from
	// the entries (nil in a single-worker search). Lock-free: a worker reads the counts of its
	// children at every step of an attacker node (the virtual numbers), and each such read
	// took a bucket lock when the counts were in the entries (datasets/handicap/README.md,
	// Two workers). Two nodes that share a count make each look busier than it is, which only
	// steers the choice.
	inside []atomic.Int32
	seed   maphash.Seed
}

// stripe is the lock of a share of the buckets, and the entries in use there that the
// table's own count leaves out: a count shared by two workers, changed at every new entry,
// moved its cache line between the cores at every change.
type stripe struct {
	mu   sync.Mutex
	used atomic.Int64 // changed under mu; read without it by size
}

// insideSlots is the number of in-flight counts: far more than the nodes two workers are in
// at once (two search paths, some 20 nodes each), and 256 KiB, which stays in the cache.
const insideSlots = 1 << 16

// bucketWays is 16: every hand, depth and role of a board shares its bucket, and the tags of
// 16 entries fill one cache line.
const bucketWays = 16

func newTable[K comparable](maxEntries int) *table[K] {
	t := &table[K]{ways: bucketWays, seed: maphash.MakeSeed(), grow: true, limit: maxEntries}
	buckets := 1 << 7
	if maxEntries > 0 {
		if maxEntries < bucketWays {
			t.ways = maxEntries
		}
		buckets = 1
		for buckets*2*t.ways <= min(maxEntries, 1<<7*bucketWays) {
			buckets *= 2
		}
	}
	t.entries = make([]entry[K], buckets*t.ways)
	t.tags = make([]uint32, buckets*t.ways)
	t.mask = uint64(buckets - 1)
	hugePages(t.entries)
	hugePages(t.tags)
	return t
}

// canGrow reports whether doubling keeps the table within its limit.
func (t *table[K]) canGrow() bool { return t.mayHold(2 * len(t.entries)) }

// mayHold reports whether the table may grow to n entries: it is growing and n is within
// its limit.
func (t *table[K]) mayHold(n int) bool { return t.grow && (t.limit == 0 || n <= t.limit) }

// parallel makes the table safe for concurrent workers: it stops growing and locks buckets.
func (t *table[K]) parallel(on bool) {
	if !on {
		for i := range t.locks {
			t.used.Add(t.locks[i].used.Load())
		}
		t.locks, t.inside = nil, nil
		return
	}
	t.grow = false
	if t.locks == nil {
		t.locks = make([]stripe, min(int(t.mask)+1, 1<<14))
		t.inside = make([]atomic.Int32, insideSlots)
	}
}

// insideOf returns the in-flight count of the node with this board hash, hand, depth and role.
func (t *table[K]) insideOf(hash uint64, hand Hand, plies int16, attacker bool) *atomic.Int32 {
	x := hash ^ uint64(hand)*0x9e3779b97f4a7c15 ^ uint64(plies)<<1
	if attacker {
		x ^= 1
	}
	x ^= x >> 29
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 32
	return &t.inside[x&(insideSlots-1)]
}

// busy reports whether a worker is inside the entry's node (always false in one worker's search).
func (t *table[K]) busy(e *entry[K]) bool {
	return t.inside != nil && t.insideOf(e.hash, e.hand, e.plies, e.attacker).Load() > 0
}

// workersIn returns the number of workers inside node k (0 in one worker's search).
func (t *table[K]) workersIn(k *nodeKey[K]) int32 {
	if t.inside == nil {
		return 0
	}
	return t.insideOf(k.hash, k.hand, k.plies, k.attacker).Load()
}

// bucket returns the entries of the bucket of hash, locked in a parallel search (then st is
// its stripe, for unlock and count).
func (t *table[K]) bucket(hash uint64) (lo, hi int, st *stripe) {
	b := int(hash & t.mask)
	if t.locks != nil {
		st = &t.locks[b&(len(t.locks)-1)]
		st.mu.Lock()
	}
	return b * t.ways, (b + 1) * t.ways, st
}

// count adds n to the entries in use of a bucket of stripe st (nil: not locked).
func (t *table[K]) count(st *stripe, n int64) {
	if st != nil {
		st.used.Add(n)
		return
	}
	t.used.Add(n)
}

// mayHave reports, without the bucket's lock, whether an entry of the bucket of hash has its
// tag: most lookups are of nodes never stored (the children df-pn evaluates), and taking the
// lock for them held 13% of two workers' samples on the three-piece solve
// (datasets/handicap/README.md, Two workers).
// The tags are written atomically for it. A node stored while this looks is missed, as if
// the lookup came first.
func (t *table[K]) mayHave(hash uint64) bool {
	b := int(hash & t.mask)
	tag := tagOf(hash)
	for i := b * t.ways; i < (b+1)*t.ways; i++ {
		if atomic.LoadUint32(&t.tags[i]) == tag {
			return true
		}
	}
	return false
}

func tagOf(hash uint64) uint32 { return uint32(hash>>32) | 1 }

func unlock(st *stripe) {
	if st != nil {
		st.mu.Unlock()
	}
}

// proved and disproved are the numbers of decided nodes, from the mover's view.
func decided(attacker, mates bool) (phi, delta uint32) {
	if attacker == mates {
		return 0, infinity
	}
	return infinity, 0
}

// mates reports whether an entry, or numbers at a node of this role, say the attacker mates.
func mates(attacker bool, phi, delta uint32) (yes, known bool) {
	switch {
	case phi == 0:
		return attacker, true
	case delta == 0:
		return !attacker, true
	}
	return false, false
}

// lookup returns what the table knows of node k: a decision that an entry implies by hand
// and depth superiority (a mate within fewer plies with no more in hand, an escape over more
// plies with no less), else the node's own undecided numbers.
func (t *table[K]) lookup(k *nodeKey[K]) (phi, delta uint32, found bool) {
	if t.locks != nil && !t.mayHave(k.hash) {
		return 0, 0, false
	}
	lo, hi, st := t.bucket(k.hash)
	defer unlock(st)
	tag := tagOf(k.hash)
	for i := lo; i < hi; i++ {
		if t.tags[i] != tag {
			continue
		}
		e := &t.entries[i]
		if e.board != k.board || e.attacker != k.attacker {
			continue
		}
		if m, known := mates(e.attacker, e.phi, e.delta); known {
			if m && e.plies <= k.plies && k.hand.Covers(e.hand) || !m && e.plies >= k.plies && e.hand.Covers(k.hand) {
				phi, delta = decided(k.attacker, m)
				return phi, delta, true
			}
			continue
		}
		if e.hand == k.hand && e.plies == k.plies {
			phi, delta, found = e.phi, e.delta, true
		}
	}
	return phi, delta, found
}

// store records node k's numbers and the work its search took. A decision frees the
// entries of the bucket it implies (by the same superiority rules as lookup).
func (t *table[K]) store(k *nodeKey[K], phi, delta, work uint32) {
	t.update(k, func(e *entry[K], _ bool) { e.phi, e.delta, e.work = phi, delta, work }, phi, delta)
	if t.canGrow() && int(t.used.Load()) > len(t.entries)/2 {
		t.resize()
	}
}

// enter and leave count the workers inside node k (the virtual numbers of the parallel
// search).
func (t *table[K]) enter(k *nodeKey[K]) { t.insideOf(k.hash, k.hand, k.plies, k.attacker).Add(1) }

func (t *table[K]) leave(k *nodeKey[K]) { t.insideOf(k.hash, k.hand, k.plies, k.attacker).Add(-1) }

// update finds or makes node k's entry and applies set to it. phi and delta are the numbers
// being stored, so that a decision can free the entries it implies.
func (t *table[K]) update(k *nodeKey[K], set func(e *entry[K], fresh bool), phi, delta uint32) {
	lo, hi, st := t.bucket(k.hash)
	defer unlock(st)
	m, known := mates(k.attacker, phi, delta)
	slot, free, victim := -1, -1, -1
	tag := tagOf(k.hash)
	for i := lo; i < hi; i++ {
		e := &t.entries[i]
		if t.tags[i] == 0 {
			if free < 0 {
				free = i
			}
			continue
		}
		if t.tags[i] == tag && e.board == k.board && e.attacker == k.attacker {
			if e.hand == k.hand && e.plies == k.plies {
				slot = i
				continue
			}
			if known && !t.busy(e) {
				// A proof covers the entries with more plies and no less in hand; an escape
				// those with fewer plies and no more in hand.
				if m && e.plies >= k.plies && e.hand.Covers(k.hand) || !m && e.plies <= k.plies && k.hand.Covers(e.hand) {
					e.used = false
					atomic.StoreUint32(&t.tags[i], 0)
					t.count(st, -1)
					if free < 0 {
						free = i
					}
					continue
				}
			}
		}
		if (victim < 0 || keep(e) < keep(&t.entries[victim])) && !t.busy(e) {
			victim = i
		}
	}
	switch {
	case slot >= 0:
	case free >= 0:
		slot = free
		t.count(st, 1)
	case victim >= 0:
		slot = victim
	default:
		return // every entry of the bucket is being searched; the numbers live on in the frames
	}
	e := &t.entries[slot]
	fresh := !e.used || e.board != k.board || e.hand != k.hand || e.plies != k.plies || e.attacker != k.attacker
	if fresh {
		*e = entry[K]{board: k.board, hash: k.hash, hand: k.hand, plies: k.plies, attacker: k.attacker, used: true}
		atomic.StoreUint32(&t.tags[slot], tag)
	}
	set(e, fresh)
}

// keep is the worth of keeping an entry: its subtree's size, and for a decision 256 times
// that plus 256, so that the small decisions that proof walks read back (mates at the
// leaves) outlive undecided nodes of a moderate subtree.
func keep[K comparable](e *entry[K]) uint64 {
	if e.phi == 0 || e.delta == 0 {
		return (uint64(e.work) + 1) << 8
	}
	return uint64(e.work)
}

// resize doubles a growing table, rehashing its entries by the hash their board gives.
func (t *table[K]) resize() { t.resizeBy(1) }

// resizeBy multiplies a growing table's size by 2^doublings at once, rehashing its entries,
// so that a table grown for a known size (MateSearch.Reserve) is allocated once, not once
// per doubling with every smaller array left to the collector.
func (t *table[K]) resizeBy(doublings int) {
	old := t.entries
	t.entries = make([]entry[K], len(old)<<doublings)
	t.tags = make([]uint32, len(old)<<doublings)
	hugePages(t.entries)
	hugePages(t.tags)
	t.mask = (t.mask+1)<<doublings - 1
	t.used.Store(0)
	for i := range t.locks {
		t.locks[i].used.Store(0)
	}
	for i := range old {
		e := &old[i]
		if !e.used {
			continue
		}
		k := nodeKey[K]{board: e.board, hash: e.hash, hand: e.hand, plies: e.plies, attacker: e.attacker}
		kept := *e
		t.update(&k, func(n *entry[K], _ bool) { *n = kept }, e.phi, e.delta)
	}
}

// clear frees every entry and zeroes the counts, keeping the table's size.
func (t *table[K]) clear() {
	clear(t.entries)
	clear(t.tags)
	t.used.Store(0)
	for i := range t.locks {
		t.locks[i].used.Store(0)
	}
	for i := range t.inside {
		t.inside[i].Store(0)
	}
}

// size returns the number of entries in use.
func (t *table[K]) size() int {
	n := t.used.Load()
	for i := range t.locks {
		n += t.locks[i].used.Load()
	}
	return int(n)
}
