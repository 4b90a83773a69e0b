// Package match plays Minishogi matches between two players — the shogilab engine with a
// configuration, an external USI engine such as Fairy-Stockfish, or a random mover — and
// scores them with a confidence interval.
//
// A tour:
//
//	a, _ := match.ParsePlayer(ctx, "shogilab:playouts=2000", match.Defaults{})
//	b, _ := match.ParsePlayer(ctx, "random", match.Defaults{})
//	res, err := match.Play(ctx, a, b, match.Options{Games: 40, Seed: 1})
//	fmt.Println(res.Summary.Score, res.Summary.Low, res.Summary.High)
//
// Colours alternate: player A is Sente in even-numbered games. Every random choice of game
// i flows from Options.Seed and i, so a match with seeded players replays exactly (timed
// searches excepted). Every move goes through minishogi.Game, which rejects an illegal
// move; a player that makes one, or fails to answer, loses that game.
package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// Player is one side of a match.
type Player interface {
	// Name identifies the player in reports.
	Name() string
	// NewGame prepares a new game whose random choices flow from seed.
	NewGame(ctx context.Context, seed uint64) error
	// Move returns the move to play in g, in USI notation, or "resign".
	Move(ctx context.Context, g *minishogi.Game) (string, error)
	// Close releases the player (an external engine is stopped).
	Close() error
}

// Options configure a match.
type Options struct {
	Games int    // number of games; colours alternate
	Seed  uint64 // base seed: game i uses seeds derived from Seed and i
	// Start is the start position; the zero Position means the standard start.
	Start minishogi.Position
	// Rules are the repetition rule and the play limit; MaxPlies 0 means DefaultMaxPlies.
	Rules minishogi.GameOptions
	// OnGame, if set, is called after each game.
	OnGame func(Game)
}

// DefaultMaxPlies ends a game as a draw when Options.Rules sets no limit.
const DefaultMaxPlies = 300

// Game is the record of one game of a match.
type Game struct {
	Index       int
	Seed        uint64
	SenteIsA    bool
	Moves       []string
	Result      string // "sente", "gote" or "draw"
	Termination string // as minishogi.Termination, or "illegal_move", "no_answer"
	ScoreA      float64
	Note        string // what went wrong, for illegal moves and failures
}

// Summary is the score of a match from player A's side.
type Summary struct {
	A, B                  string
	Games                 int
	WinsA, Draws, LossesA int
	// Score is A's mean score (win 1, draw 1/2); Low and High bound its 95% confidence
	// interval by the normal approximation with the games' own variance, draws included,
	// or by Wilson's interval when every game scored alike (the variance is then 0).
	Score, Low, High float64
	// Elo is the rating difference that Score implies, -400·log10(1/Score - 1), with the
	// interval's ends mapped the same way (±Inf at scores of 0 or 1).
	Elo, EloLow, EloHigh float64
	MeanPlies            float64
	Terminations         map[string]int
}

// Result is a played match.
type Result struct {
	Summary Summary
	Games   []Game
}

// gameSeed derives game i's seed from the base seed (SplitMix64's mixing step), so that
// neighbouring base seeds give unrelated games.
func gameSeed(base uint64, i int) uint64 {
	z := base + uint64(i+1)*0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Play plays opts.Games games between a and b. It stops early, returning the games so far,
// when ctx is done.
func Play(ctx context.Context, a, b Player, opts Options) (Result, error) {
	if opts.Games < 1 {
		return Result{}, fmt.Errorf("match: %d games; need at least 1", opts.Games)
	}
	start := opts.Start
	if start == (minishogi.Position{}) {
		start = minishogi.StartPosition()
	}
	rules := opts.Rules
	if rules.MaxPlies == 0 {
		rules.MaxPlies = DefaultMaxPlies
	}
	var res Result
	for i := range opts.Games {
		if err := ctx.Err(); err != nil {
			res.Summary = Summarize(a.Name(), b.Name(), res.Games)
			return res, err
		}
		g, err := playGame(ctx, a, b, i, gameSeed(opts.Seed, i), start, rules)
		if err != nil {
			res.Summary = Summarize(a.Name(), b.Name(), res.Games)
			return res, err
		}
		res.Games = append(res.Games, g)
		if opts.OnGame != nil {
			opts.OnGame(g)
		}
	}
	res.Summary = Summarize(a.Name(), b.Name(), res.Games)
	return res, nil
}

func playGame(ctx context.Context, a, b Player, i int, seed uint64, start minishogi.Position, rules minishogi.GameOptions) (Game, error) {
	rec := Game{Index: i, Seed: seed, SenteIsA: i%2 == 0}
	sente, gote := a, b
	if !rec.SenteIsA {
		sente, gote = b, a
	}
	if err := sente.NewGame(ctx, seed); err != nil {
		return rec, fmt.Errorf("match: game %d: %s: %w", i, sente.Name(), err)
	}
	if err := gote.NewGame(ctx, seed^0xA5A5A5A5A5A5A5A5); err != nil {
		return rec, fmt.Errorf("match: game %d: %s: %w", i, gote.Name(), err)
	}
	g := minishogi.NewGame(start, rules)
	var term string
	for !g.Result().Over() {
		pos := g.Position()
		mover := pos.SideToMove()
		p := sente
		if mover == minishogi.Gote {
			p = gote
		}
		move, err := p.Move(ctx, g)
		switch {
		case err != nil && ctx.Err() != nil:
			return rec, ctx.Err()
		case err != nil:
			term, rec.Note = "no_answer", fmt.Sprintf("%s: %v", p.Name(), err)
		case move == "resign":
			g.Resign(mover)
		default:
			if err := g.PlayUSI(move); err != nil {
				term, rec.Note = "illegal_move", fmt.Sprintf("%s played %q: %v", p.Name(), move, err)
			} else {
				rec.Moves = append(rec.Moves, move)
			}
		}
		if term != "" {
			g.Resign(mover) // the offender loses
			break
		}
	}
	r := g.Result()
	rec.Result = r.String()
	rec.Termination = r.Termination.String()
	if term != "" {
		rec.Termination = term
	}
	switch {
	case r.Draw:
		rec.ScoreA = 0.5
	case (r.Winner == minishogi.Sente) == rec.SenteIsA:
		rec.ScoreA = 1
	}
	return rec, nil
}

// Summarize scores games from player A's side.
func Summarize(a, b string, games []Game) Summary {
	s := Summary{A: a, B: b, Games: len(games), Terminations: map[string]int{}}
	if len(games) == 0 {
		return s
	}
	scores := make([]float64, len(games))
	plies := 0
	for i, g := range games {
		scores[i] = g.ScoreA
		switch g.ScoreA {
		case 1:
			s.WinsA++
		case 0:
			s.LossesA++
		default:
			s.Draws++
		}
		s.Terminations[g.Termination]++
		plies += len(g.Moves)
	}
	s.MeanPlies = float64(plies) / float64(len(games))
	mean, sd := stat.MeanStdDev(scores, nil)
	if len(games) < 2 {
		sd = 0
	}
	n := float64(len(games))
	z := distuv.UnitNormal.Quantile(0.975) // 1.96
	half := z * sd / math.Sqrt(n)
	s.Score, s.Low, s.High = mean, max(0, mean-half), min(1, mean+half)
	if sd == 0 {
		// Every game scored alike: the sample variance is 0 and the normal interval
		// collapses to a point. Wilson's score interval (Wilson 1927) stays honest there:
		// (p + z²/2n ± z·√(p(1-p)/n + z²/4n²)) / (1 + z²/n).
		c := (mean + z*z/(2*n)) / (1 + z*z/n)
		w := z * math.Sqrt(mean*(1-mean)/n+z*z/(4*n*n)) / (1 + z*z/n)
		s.Low, s.High = snap(c-w), snap(c+w)
	}
	s.Elo, s.EloLow, s.EloHigh = elo(s.Score), elo(s.Low), elo(s.High)
	return s
}

// snap clips x to [0, 1], treating rounding noise at the ends as the end itself.
func snap(x float64) float64 {
	switch {
	case x < 1e-12:
		return 0
	case x > 1-1e-12:
		return 1
	}
	return x
}

// elo is the rating difference that an expected score implies under the logistic model.
func elo(score float64) float64 {
	switch {
	case score <= 0:
		return math.Inf(-1)
	case score >= 1:
		return math.Inf(1)
	}
	return -400*math.Log10(1/score-1) + 0 // + 0 turns -0 into 0
}

// Random plays uniformly random legal moves.
type Random struct{ rng *rand.Rand }

// NewRandom returns a random mover; NewGame seeds it.
func NewRandom() *Random { return &Random{rng: rand.New(rand.NewPCG(0, 0))} }

func (r *Random) Name() string { return "random" }
func (r *Random) Close() error { return nil }

// NewGame reseeds the generator.
func (r *Random) NewGame(_ context.Context, seed uint64) error {
	r.rng = rand.New(rand.NewPCG(seed, 0x72616E646F6D)) // "random"
	return nil
}

// Move returns a legal move drawn uniformly.
func (r *Random) Move(_ context.Context, g *minishogi.Game) (string, error) {
	pos := g.Position()
	moves := pos.LegalMoves(nil)
	if len(moves) == 0 {
		return "", errors.New("match: random: no legal move")
	}
	return moves[r.rng.IntN(len(moves))].String(), nil
}
