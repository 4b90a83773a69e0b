package eval

import (
	"math"
	"math/rand/v2"

	"github.com/shogilab/shogilab/engine/nnue"
	"github.com/shogilab/shogilab/mcts"
	"github.com/shogilab/shogilab/outcome"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// Game is what the evaluator needs from the search's game beyond mcts.Game: the position,
// and whether a position may have occurred earlier (engine.Game provides both).
type Game interface {
	mcts.Game
	// Position returns the current position; the evaluator makes moves on it and takes
	// them back.
	Position() *ms.Position
	// MaybeSeen reports whether a position with this hash may have occurred before in
	// the game; false must mean it has not.
	MaybeSeen(hash uint64) bool
	// PliesLeft is how many more moves the play limit allows: a mate longer than that
	// would come after the game was drawn.
	PliesLeft() int
}

// Evaluator judges Minishogi positions for the search (mcts.Evaluator). It keeps scratch
// move lists, so each search goroutine needs its own: New is cheap.
type Evaluator struct {
	cfg Config
	w   *Weights
	acc *nnue.Accumulator // the network's, when cfg.Net is set
	// policy is set when the network has a policy head: the priors are then its softmax
	// (netPriors), and netValue the value computed with it.
	policy   bool
	netValue float32
	feats    [nnue.MaxMoveActive]int32 // scratch: a move's features
	// lists[i] holds the moves at ply i of the mate search (even: the attacker's checks,
	// odd: the defender's replies); cands[i] the checks at ply 2i in the order tried.
	lists  [MaxMateDepth + 1]ms.MoveList
	cands  [(MaxMateDepth + 1) / 2][ms.MaxMoves]mateCandidate
	checks [ms.MaxMoves]ms.Move // the checking moves at the evaluated position
	// deepChecks are the checking moves at a position Deepen looks at again.
	deepChecks ms.MoveList
	nodes      int        // moves the running mate search has made
	seen       bool       // whether it met a position that may have occurred (MaybeSeen)
	cache      *evalCache // the network's judgements met before (cache.go); nil when off

	// Each search goroutine has an evaluator of its own, written on every
	// evaluation; the pad keeps evaluators allocated one after another off
	// each other's cache lines (two lines, as x86 fetches lines in pairs).
	_ [128]byte
}

// New returns an evaluator; it panics if cfg is invalid (see Config.Validate).
func New(cfg Config) *Evaluator {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	e := &Evaluator{cfg: cfg}
	e.w = &e.cfg.Weights
	if cfg.Net != nil {
		e.acc = cfg.Net.NewAccumulator()
		e.policy = cfg.Net.HasPolicy()
	}
	if e.policy {
		e.cache = newEvalCache(cfg.CacheMiB << 20)
	}
	return e
}

// Config returns the evaluator's configuration.
func (e *Evaluator) Config() Config { return e.cfg }

// Evaluate implements mcts.Evaluator. g must implement Game. It writes a prior for each
// move (the network's policy when it has a policy head, else the hand-set priors from the
// move's features), returns the value of the static evaluation, and returns a proof when
// the mate search finds a mate within Config.MateExpandDepth plies (longer than one only
// where the side to move has checks; Deepen looks further).
func (e *Evaluator) Evaluate(g mcts.Game, moves []mcts.Move, priors []float32, _ *rand.Rand) mcts.Evaluation {
	return e.evaluate(g, moves, priors, min(e.cfg.MateDepth, e.cfg.MateExpandDepth))
}

// EvaluateDeep implements mcts.Deepener: Evaluate with the mate search to MateDepth.
func (e *Evaluator) EvaluateDeep(g mcts.Game, moves []mcts.Move, priors []float32, _ *rand.Rand) mcts.Evaluation {
	return e.evaluate(g, moves, priors, e.cfg.MateDepth)
}

// evaluate is Evaluate with a mate search to mateDepth.
func (e *Evaluator) evaluate(g mcts.Game, moves []mcts.Move, priors []float32, mateDepth int) mcts.Evaluation {
	game, ok := g.(Game)
	if !ok {
		panic("eval: Evaluate needs a game with Position and MaybeSeen (engine.Game)")
	}
	pos := game.Position()
	var maps attackMaps
	var nChecks int
	var slot *cacheSlot // pos's in the cache, if it is there
	if e.policy {
		if e.cache == nil {
			nChecks = e.netPriors(pos, moves, priors)
		} else if v, n, s, ok := e.cache.lookup(pos, moves, priors, e.checks[:]); ok {
			e.netValue, nChecks, slot = v, n, s
		} else {
			nChecks = e.netPriors(pos, moves, priors)
			slot = e.cache.store(pos, e.netValue, moves, priors, e.checks[:nChecks])
		}
	} else {
		maps.compute(pos)
		nChecks = e.priors(pos, &maps, moves, priors)
	}

	checks := e.checks[:nChecks]
	depth := e.playable(game, mateDepth)
	if depth >= 1 && nChecks > 0 && (slot == nil || int(slot.mateFree) < depth) {
		m, plies, ok := e.findMate(pos, game, checks, depth, 3)
		if ok {
			e.markMate(moves, priors, m)
			return mcts.Evaluation{Value: 1, Proof: mcts.Proof{Outcome: outcome.Win, Plies: plies}}
		}
		if slot != nil && e.nodes < e.cfg.MateNodes && !e.seen {
			slot.mateFree = uint16(depth) // the search ran to its end untouched by the history: cache.go
		}
	}
	return mcts.Evaluation{Value: e.value(pos, &maps)}
}

// playable is the mate search's depth, or less where the play limit would end the game
// before a mate that long.
func (e *Evaluator) playable(g Game, depth int) int {
	for depth > g.PliesLeft() {
		depth -= 2
	}
	return depth
}

// Deepen implements mcts.Deepener: where Config.MateExpandDepth is less than MateDepth,
// the mate search goes on from where the expansion's stopped, to MateDepth, once the
// search has visited the position mcts.Config.DeepenVisits times. g must implement Game.
func (e *Evaluator) Deepen(g mcts.Game) (mcts.Proof, bool) {
	game := g.(Game)
	expanded := e.playable(game, min(e.cfg.MateDepth, e.cfg.MateExpandDepth))
	depth := e.playable(game, e.cfg.MateDepth)
	if depth <= expanded {
		return mcts.Proof{}, false // the expansion searched as deep
	}
	pos := game.Position()
	var slot *cacheSlot
	if e.cache != nil {
		if slot = e.cache.find(pos); slot != nil && int(slot.mateFree) >= depth {
			return mcts.Proof{}, false
		}
	}
	pos.GenerateChecks(&e.deepChecks)
	if e.deepChecks.N == 0 {
		return mcts.Proof{}, false
	}
	// The expansion's search found no mate within its depth, in this same game; the
	// deepening starts past it.
	_, plies, ok := e.findMate(pos, game, e.deepChecks.Slice(), depth, expanded+2)
	if ok {
		return mcts.Proof{Outcome: outcome.Win, Plies: plies}, true
	}
	if slot != nil && e.nodes < e.cfg.MateNodes && !e.seen {
		slot.mateFree = uint16(depth)
	}
	return mcts.Proof{}, false
}

// value is the static value of pos for its side to move: the network's when there is
// one (computed with the priors when it has a policy head), else the hand-set score
// through Weights.Value.
func (e *Evaluator) value(pos *ms.Position, maps *attackMaps) float32 {
	if e.policy {
		return e.netValue
	}
	if e.acc != nil {
		return e.acc.Evaluate(pos)
	}
	return e.w.Value(e.score(pos, maps))
}

// Centipawns returns the static evaluation of pos for its side to move (the network's
// value turned into centipawns by Weights.Centipawns, when there is a network).
func (e *Evaluator) Centipawns(pos *ms.Position) int {
	if e.acc != nil {
		return e.w.Centipawns(e.acc.Evaluate(pos))
	}
	var maps attackMaps
	maps.compute(pos)
	return int(math.Round(float64(e.score(pos, &maps))))
}

// attackMaps are the squares each side attacks in the current position.
type attackMaps struct {
	by  [2]ms.Bitboard
	occ ms.Bitboard
}

func (a *attackMaps) compute(pos *ms.Position) {
	a.occ = pos.Occupied()
	for c := ms.Sente; c <= ms.Gote; c++ {
		var att ms.Bitboard
		for b := pos.ColorPieces(c); b != 0; b &= b - 1 {
			s := b.First()
			att |= ms.PieceAttacks(pos.PieceAt(s).Type(), c, s, a.occ)
		}
		a.by[c] = att
	}
}

// score is the static evaluation in centipawns for the side to move: material on the board
// and in hand, king safety, the best capture on offer, and the tempo.
func (e *Evaluator) score(pos *ms.Position, maps *attackMaps) float32 {
	w := e.w
	us := pos.SideToMove()
	var side [2]float32
	for c := ms.Sente; c <= ms.Gote; c++ {
		var s float32
		for b := pos.ColorPieces(c); b != 0; b &= b - 1 {
			s += w.Board[pos.PieceAt(b.First()).Type()]
		}
		for _, pt := range ms.HandTypes {
			s += float32(pos.Hand(c, pt)) * w.Hand[pt]
		}
		zone := ms.PieceAttacks(ms.King, c, pos.KingSquare(c), 0)
		attacked := zone & maps.by[c.Opponent()]
		free := zone &^ attacked &^ pos.ColorPieces(c)
		s += w.KingEscape*float32(free.Count()) - w.KingZoneAttacked*float32(attacked.Count())
		side[c] = s
	}
	return side[us] - side[us.Opponent()] + w.Threat*e.bestCapture(pos, maps) + w.Tempo
}

// bestCapture is the most the side to move wins by one capture, judged by the static
// exchange in its simplest form: an undefended piece is won whole, a defended one for its
// value minus the cheapest attacker's.
func (e *Evaluator) bestCapture(pos *ms.Position, maps *attackMaps) float32 {
	us := pos.SideToMove()
	them := us.Opponent()
	kingSq := pos.KingSquare(them)
	best := float32(0)
	for b := pos.ColorPieces(them) & maps.by[us]; b != 0; b &= b - 1 {
		s := b.First()
		if s == kingSq {
			continue // a check, not a capture
		}
		gain := e.w.Board[pos.PieceAt(s).Type()]
		if maps.by[them].Has(s) {
			cheapest := float32(math.Inf(1))
			for a := pos.Attackers(s, us, maps.occ); a != 0; a &= a - 1 {
				cheapest = min(cheapest, e.attackerValue(pos.PieceAt(a.First()).Type()))
			}
			gain -= cheapest
		}
		best = max(best, gain)
	}
	return best
}

// attackerValue is what a piece risks by capturing: its board value, and for the king
// (which may only capture undefended pieces) more than anything it could win.
func (e *Evaluator) attackerValue(pt ms.PieceType) float32 {
	if pt == ms.King {
		return 1e4
	}
	return e.w.Board[pt]
}

// markMate gives the proven mating move m the prior PriorMate, so that the search
// visits it first and proves the position through it.
func (e *Evaluator) markMate(moves []mcts.Move, priors []float32, m ms.Move) {
	for i := range moves {
		if ms.Move(moves[i]) == m {
			priors[i] = e.prior(e.w.PriorMate)
		}
	}
}

func (e *Evaluator) prior(logit float32) float32 { return fastExp(logit) }

// fastExp is e^x within 0.5% for |x| <= 30 (clamped outside): priors are only compared
// and normalised, and math.Exp cost a seventh of a playout. It splits x·log2(e) into an
// integer part, set directly as the float's exponent, and a fraction f whose 2^f is a
// quadratic fit on [0, 1) (exact at both ends).
func fastExp(x float32) float32 {
	const log2e = 1.4426950408889634
	y := min(max(x, -30), 30) * log2e
	i := float32(math.Floor(float64(y)))
	f := y - i
	mant := 1 + f*(0.6565+0.3435*f)
	return math.Float32frombits(uint32(int32(i)+127)<<23) * mant
}

// priors writes the prior of each move and collects the checking moves in e.checks,
// returning their number. Mating moves found later overwrite their prior.
func (e *Evaluator) priors(pos *ms.Position, maps *attackMaps, moves []mcts.Move, priors []float32) int {
	n := e.logPriors(pos, maps, moves, priors)
	for i, f := range priors[:len(moves)] {
		priors[i] = e.prior(f)
	}
	return n
}

// netPriors writes the prior of each move from the network's policy head, the softmax of
// its logits at Config.PolicyTemperature, computes the network's value (netValue) on the
// way, and collects the checking moves in e.checks, returning their number.
func (e *Evaluator) netPriors(pos *ms.Position, moves []mcts.Move, priors []float32) int {
	e.netValue = e.acc.EvaluatePolicy(pos)
	ctx := nnue.NewMoveContext(pos)
	nChecks := 0
	hi := float32(math.Inf(-1))
	for i, mv := range moves {
		m := ms.Move(mv)
		feats, check := ctx.MoveFeatures(m, e.feats[:0])
		if check {
			e.checks[nChecks] = m
			nChecks++
		}
		z := e.acc.MoveLogit(feats)
		priors[i] = z
		hi = max(hi, z)
	}
	// Relative to the best move, so that fastExp's range holds the priors that matter
	// (a move 30 below the best is as good as never tried) and PriorMate still dominates.
	inv := 1 / e.cfg.PolicyTemperature
	for i, z := range priors[:len(moves)] {
		priors[i] = fastExp((z - hi) * inv)
	}
	return nChecks
}

// logPriors writes the log-prior of each move, the sum of its features times their
// weights, and collects the checking moves in e.checks, returning their number.
func (e *Evaluator) logPriors(pos *ms.Position, maps *attackMaps, moves []mcts.Move, priors []float32) int {
	w := e.w
	us := pos.SideToMove()
	them := us.Opponent()
	theirKing := pos.KingSquare(them)
	checks := pos.NewCheckTest()
	zoneRank := 0 // the promotion zone: the farthest rank
	if us == ms.Gote {
		zoneRank = 4
	}
	nChecks := 0
	for i, mv := range moves {
		m := ms.Move(mv)
		to := m.To()
		var f float32
		check := false
		if m.IsDrop() {
			pt := m.DropType()
			switch chebyshev(to, theirKing) {
			case 1:
				f += w.PriorDropNearKing
			case 2:
				f += w.PriorDropNearKing / 2
			}
			if maps.by[them].Has(to) && !maps.by[us].Has(to) {
				f -= w.PriorHang * w.Board[pt] / 100
			}
			check = checks.GivesCheck(m)
		} else {
			from := m.From()
			mover := pos.PieceAt(from).Type()
			after := mover
			captured := pos.PieceAt(to)
			gain := float32(0)
			if captured != ms.NoPiece {
				gain = w.Board[captured.Type()]
				f += w.PriorCapture * gain / 100
			}
			if m.IsPromotion() {
				after = mover.Promoted()
				f += w.PriorPromote
			} else if (mover == ms.Bishop || mover == ms.Rook) && (from.Rank() == zoneRank || to.Rank() == zoneRank) {
				f -= w.PriorDecline
			}
			if maps.by[them].Has(to) && mover != ms.King { // a legal king move is never en prise
				risk := w.Board[after]
				if pos.Attackers(to, us, maps.occ)&^(1<<uint(from)) != 0 {
					risk -= gain // defended: an exchange
				}
				if risk > 0 {
					f -= w.PriorHang * risk / 100
				}
			} else if maps.by[them].Has(from) && mover != ms.King {
				f += w.PriorEscape * w.Board[mover] / 100
			}
			check = checks.GivesCheck(m)
		}
		if check {
			f += w.PriorCheck
			e.checks[nChecks] = m
			nChecks++
		}
		priors[i] = f
	}
	return nChecks
}

// The terms a move's log-prior is made of, in the order of PriorVector: PriorCapture,
// PriorPromote, PriorDecline, PriorCheck, PriorDropNearKing, PriorEscape, PriorHang.
const NumPriorTerms = 7

// PriorTerms are a move's prior terms: its log-prior is the sum of term k times the k-th
// weight of PriorVector, so that the prior weights can be fitted (train linear).
type PriorTerms [NumPriorTerms]float32

// PriorVector returns the prior weights in the order of PriorTerms.
func (w *Weights) PriorVector() [NumPriorTerms]float32 {
	return [NumPriorTerms]float32{w.PriorCapture, w.PriorPromote, w.PriorDecline, w.PriorCheck,
		w.PriorDropNearKing, w.PriorEscape, w.PriorHang}
}

// SetPriorVector sets the prior weights from v, in the order of PriorTerms.
func (w *Weights) SetPriorVector(v [NumPriorTerms]float32) {
	w.PriorCapture, w.PriorPromote, w.PriorDecline, w.PriorCheck = v[0], v[1], v[2], v[3]
	w.PriorDropNearKing, w.PriorEscape, w.PriorHang = v[4], v[5], v[6]
}

// MovePriorTerms writes the prior terms of each of moves, legal moves of pos, to out (as
// long as moves), for fitting the prior weights; the terms use the evaluator's Board
// values. The log-prior is linear in the prior weights, so term k is the log-prior the
// search computes (logPriors) with weight k at 1 and the others at 0: the terms cannot
// drift from the priors the search uses.
func (e *Evaluator) MovePriorTerms(pos *ms.Position, moves []ms.Move, out []PriorTerms) {
	var maps attackMaps
	maps.compute(pos)
	mv := make([]mcts.Move, len(moves))
	for i, m := range moves {
		mv[i] = mcts.Move(m)
	}
	logits := make([]float32, len(moves))
	unit := *e
	unit.w = &unit.cfg.Weights
	for k := range NumPriorTerms {
		var v [NumPriorTerms]float32
		v[k] = 1
		unit.w.SetPriorVector(v)
		unit.logPriors(pos, &maps, mv, logits)
		for i, f := range logits {
			out[i][k] = f
		}
	}
}

// chebyshev is the king-step distance between two squares.
func chebyshev(a, b ms.Square) int {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	return max(df, -df, dr, -dr)
}
