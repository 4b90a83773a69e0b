package eval

import (
	"fmt"
	"math"

	"github.com/shogilab/shogilab/engine/nnue"
	ms "github.com/shogilab/shogilab/rules/minishogi"
)

// Weights are every number the evaluation uses, in one place, so that a later issue can
// learn them from self-play data. Values are in centipawns (a pawn on the board is 100);
// prior weights are added to a move's log-prior, so a weight of w multiplies the move's
// prior by e^w. The defaults are hand-set in the usual shogi order of piece strength (pawn <
// silver < gold < bishop < rook, promoted pieces above their base); they are a starting
// point, not a fitted result.
type Weights struct {
	// Board is the value of a piece on the board, by PieceType (index 0 and King unused).
	Board [ms.Dragon + 1]float32 `json:"board"`
	// Hand is the value of a piece in hand, by PieceType (Pawn..Rook). A piece in hand is
	// worth more than on the board because it can be dropped anywhere.
	Hand [ms.Rook + 1]float32 `json:"hand"`
	// KingZoneAttacked is subtracted for every square next to a side's king that the
	// opponent attacks; KingEscape is added for every such square that is empty of the
	// side's own pieces and not attacked (room to run).
	KingZoneAttacked float32 `json:"king_zone_attacked"`
	KingEscape       float32 `json:"king_escape"`
	// Threat is the share of the best capture the side to move has (the value of an
	// undefended piece, or of a defended piece minus its cheapest attacker) that counts
	// in its favour: the opponent cannot save everything at once.
	Threat float32 `json:"threat"`
	// Tempo is the worth of having the move.
	Tempo float32 `json:"tempo"`
	// ValueScale maps centipawns to a value for the search: value = tanh(cp/ValueScale).
	ValueScale float32 `json:"value_scale"`

	// PriorCapture is added per 100 centipawns of the captured piece.
	PriorCapture float32 `json:"prior_capture"`
	// PriorPromote is added to a promotion; PriorDecline is subtracted when a bishop or
	// rook declines to promote (it loses nothing by promoting in Minishogi).
	PriorPromote float32 `json:"prior_promote"`
	PriorDecline float32 `json:"prior_decline"`
	// PriorCheck is added to a move that gives check.
	PriorCheck float32 `json:"prior_check"`
	// PriorDropNearKing is added to a drop next to the enemy king, half of it two squares
	// away.
	PriorDropNearKing float32 `json:"prior_drop_near_king"`
	// PriorEscape is added per 100 centipawns of a piece that leaves an attacked square
	// for a square the opponent does not attack.
	PriorEscape float32 `json:"prior_escape"`
	// PriorHang is subtracted per 100 centipawns that a move puts en prise: the whole
	// piece on an undefended attacked square, or what it is worth more than what it
	// captured on a defended one.
	PriorHang float32 `json:"prior_hang"`
	// PriorMate is added to a move that the mate search proves wins, so that the search
	// visits it first.
	PriorMate float32 `json:"prior_mate"`
}

// DefaultWeights returns the hand-set defaults described on Weights.
func DefaultWeights() Weights {
	var w Weights
	w.Board[ms.Pawn] = 100
	w.Board[ms.Silver] = 450
	w.Board[ms.Gold] = 500
	w.Board[ms.Bishop] = 550
	w.Board[ms.Rook] = 650
	w.Board[ms.Tokin] = 520
	w.Board[ms.ProSilver] = 500
	w.Board[ms.Horse] = 800
	w.Board[ms.Dragon] = 950
	w.Hand[ms.Pawn] = 120
	w.Hand[ms.Silver] = 500
	w.Hand[ms.Gold] = 560
	w.Hand[ms.Bishop] = 600
	w.Hand[ms.Rook] = 720
	w.KingZoneAttacked = 40
	w.KingEscape = 20
	w.Threat = 0.5
	w.Tempo = 30
	// A rook up (about 650) is a value of tanh(650/700) ≈ 0.73: clearly winning, not yet sure.
	w.ValueScale = 700
	w.PriorCapture = 0.6
	w.PriorPromote = 1.0
	w.PriorDecline = 2.0
	w.PriorCheck = 1.0
	w.PriorDropNearKing = 0.8
	w.PriorEscape = 0.4
	w.PriorHang = 0.5
	w.PriorMate = 20
	return w
}

// Config is the evaluator's weights, its network if any, and the effort of its mate search.
type Config struct {
	Weights Weights
	// Net, if set, gives the static value instead of the hand-set score, and, when it has
	// a policy head, the priors instead of the hand-set ones (the mate search stays as it
	// is). It is shared, read only, by every evaluator made from the config; each keeps an
	// accumulator of its own.
	Net *nnue.Net
	// PolicyTemperature divides the policy head's logits before their softmax: above 1
	// the priors are flatter than the network's, below 1 sharper. Without a policy head it
	// does nothing.
	PolicyTemperature float32
	// MateDepth is how deep the mate search looks at every expansion, in plies of the
	// winning side's moves counted as in "mate in N": 0 (off), 1, 3, 5 or 7. Mates longer
	// than one are tried only in positions where the side to move has a check.
	MateDepth int
	// MateExpandDepth is how much of MateDepth the mate search looks at when a position
	// is expanded; the rest waits until the search has visited it mcts.Config.DeepenVisits
	// times (Deepen), so that the nodes visited a few times, most of a tree, pay only for
	// the shallow search. MateDepth or more: all of it at expansion.
	MateExpandDepth int
	// MateNodes bounds the moves a mate search beyond mate in 1 makes; a search that runs out proves
	// nothing. It keeps the cost of an expansion bounded in positions full of checks.
	MateNodes int
	// CacheMiB is the size of each evaluator's cache of the network's judgements
	// (cache.go), in MiB; 0 turns it off. It changes the speed of a search, never its
	// tree. Only a network with a policy head uses it.
	CacheMiB int
}

// DefaultConfig returns the default weights with mate searches to mate in 5 of at most
// 1000 moves (MateDepth 5 against 3: +125 Elo [+88, +164] at 1000 playouts a move, for
// 22% fewer playouts a second; docs/tactics.md), mate in 1 of them at every expansion and
// the rest where the search returns (MateExpandDepth 1: +68 Elo at 100 ms a move, for 1.3
// to 1.6 times the playouts; docs/tactics.md).
func DefaultConfig() Config {
	return Config{Weights: DefaultWeights(), MateDepth: 5, MateExpandDepth: 1, MateNodes: 1000, PolicyTemperature: 1, CacheMiB: DefaultCacheMiB}
}

// DefaultCacheMiB is the evaluation cache's default size (Config.CacheMiB): room for some
// 65,000 positions, several searches' worth at 100 ms a move.
const DefaultCacheMiB = 16

// MaxCacheMiB bounds Config.CacheMiB.
const MaxCacheMiB = 4096

// Validate reports the first field of c that is out of range.
func (c Config) Validate() error {
	switch {
	case c.MateDepth < 0 || c.MateDepth > MaxMateDepth || c.MateDepth%2 == 0 && c.MateDepth != 0:
		return fmt.Errorf("eval: config: MateDepth is %d; need 0, 1, 3, 5 or 7", c.MateDepth)
	case c.MateExpandDepth < 0 || c.MateExpandDepth > MaxMateDepth || c.MateExpandDepth%2 == 0 && c.MateExpandDepth != 0:
		return fmt.Errorf("eval: config: MateExpandDepth is %d; need 0, 1, 3, 5 or 7", c.MateExpandDepth)
	case c.MateNodes < 0:
		return fmt.Errorf("eval: config: MateNodes is %d; need 0 or more", c.MateNodes)
	case c.CacheMiB < 0 || c.CacheMiB > MaxCacheMiB:
		return fmt.Errorf("eval: config: CacheMiB is %d; need 0 to %d", c.CacheMiB, MaxCacheMiB)
	case !(c.Weights.ValueScale > 0) || math.IsInf(float64(c.Weights.ValueScale), 0):
		return fmt.Errorf("eval: config: Weights.ValueScale is %v; need a positive number", c.Weights.ValueScale)
	case !(c.PolicyTemperature > 0) || math.IsInf(float64(c.PolicyTemperature), 0):
		return fmt.Errorf("eval: config: PolicyTemperature is %v; need a positive number", c.PolicyTemperature)
	}
	return nil
}

// Value maps a score in centipawns for the side to move to a search value in (-1, 1).
func (w *Weights) Value(cp float32) float32 {
	return float32(math.Tanh(float64(cp / w.ValueScale)))
}

// Centipawns is the inverse of Value, for reporting a search value as a USI `score cp`.
// Values at ±1 are clipped to ±0.999 (a score of about ±2.6 ValueScale).
func (w *Weights) Centipawns(value float32) int {
	v := math.Max(-0.999, math.Min(0.999, float64(value)))
	return int(math.Round(float64(w.ValueScale) * math.Atanh(v)))
}
