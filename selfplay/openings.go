package selfplay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

// OpeningSearch configures GenerateOpenings: random walks from the start,
// kept where a judge engine finds the position balanced.
type OpeningSearch struct {
	Count              int // openings to keep
	MinPlies, MaxPlies int // a walk's length is drawn uniformly from [MinPlies, MaxPlies]
	// Judge is a USI engine with a depth or node limit and one thread, so
	// that its verdict is a function of the position (it gets usinewgame
	// before every position, which clears its hash).
	Judge PlayerSpec
	// Margin keeps a position whose score for the side to move is within
	// ±Margin centipawns; a mate score is never kept.
	Margin   int
	Seed     uint64
	MaxWalks int // give up after this many walks; 0 means 100·Count
	// Progress, if set, is called after each walk judged.
	Progress func(kept, walks int)
}

// JudgedOpening is a kept position with the walk that reached it and the
// judge's score for the side to move.
type JudgedOpening struct {
	SFEN    string
	Moves   []string
	ScoreCP int
}

// GenerateOpenings makes a balanced suite of openings. Walk i draws its
// moves uniformly among the legal ones with a generator seeded from
// GameSeed(Seed, i); a walk that ends the game, or reaches a position
// already kept or judged (the same board, hands and side to move), is
// dropped unjudged. The walks are judged in order, so a smaller Count gives
// a prefix of a larger one's openings.
func GenerateOpenings(ctx context.Context, o OpeningSearch) ([]JudgedOpening, error) {
	switch {
	case o.Count < 1:
		return nil, fmt.Errorf("selfplay: openings: count %d; need at least 1", o.Count)
	case o.MinPlies < 1 || o.MaxPlies < o.MinPlies:
		return nil, fmt.Errorf("selfplay: openings: plies %d-%d; need 1 <= min <= max", o.MinPlies, o.MaxPlies)
	case o.Margin < 0:
		return nil, fmt.Errorf("selfplay: openings: negative margin %d", o.Margin)
	case o.Judge.Kind != record.KindUSI:
		return nil, fmt.Errorf("selfplay: openings: the judge must be a USI engine, which scores in centipawns")
	case o.Judge.Limits.Clock() || o.Judge.Limits.MoveTime > 0:
		return nil, fmt.Errorf("selfplay: openings: the judge needs a depth or node limit, not a time: a timed verdict does not repeat")
	}
	if err := o.Judge.Validate(); err != nil {
		return nil, fmt.Errorf("selfplay: openings: judge: %w", err)
	}
	maxWalks := o.MaxWalks
	if maxWalks == 0 {
		maxWalks = 100 * o.Count
	}
	if err := o.Judge.CheckEngine(ctx); err != nil {
		return nil, err // names the engine
	}
	lim := usi.GoParams{Nodes: o.Judge.Limits.Nodes, Depth: o.Judge.Limits.Depth}
	start := minishogi.StartPosition()
	seen := map[string]bool{}
	var kept []JudgedOpening
	var moves []minishogi.Move
	for walk := 0; len(kept) < o.Count; walk++ {
		if walk == maxWalks {
			return kept, fmt.Errorf("selfplay: openings: %d walks kept only %d of %d openings; widen the margin or shorten the walks", walk, len(kept), o.Count)
		}
		rng := rand.New(rand.NewPCG(GameSeed(o.Seed, walk), 0x6f70656e)) // "open"
		g := minishogi.NewGame(start, minishogi.GameOptions{})
		var line []string
		plies := o.MinPlies + rng.IntN(o.MaxPlies-o.MinPlies+1)
		for range plies {
			if g.Result().Over() {
				break
			}
			pos := g.Position()
			moves = pos.LegalMoves(moves[:0])
			m := moves[rng.IntN(len(moves))]
			line = append(line, m.String())
			g.Play(m)
		}
		pos := g.Position()
		key := positionKey(pos)
		if g.Result().Over() || seen[key] {
			continue
		}
		seen[key] = true
		d, err := judgeOnce(ctx, o.Judge, pos, lim)
		if err != nil {
			return kept, fmt.Errorf("selfplay: openings: judge on %s: %w", pos.SFEN(), err)
		}
		if d.Stats != nil && d.Stats.ScoreCP != nil && d.Stats.Mate == nil && abs(*d.Stats.ScoreCP) <= o.Margin {
			kept = append(kept, JudgedOpening{SFEN: pos.SFEN(), Moves: line, ScoreCP: *d.Stats.ScoreCP})
		}
		if o.Progress != nil {
			o.Progress(len(kept), walk+1)
		}
	}
	return kept, nil
}

// judgeOnce asks a new process of the judge for its verdict on pos: a
// process that has searched other positions may answer differently (see
// usiPlayer), and the same flags must give the same file. A judge that fails
// (on a loaded machine an engine can miss a deadline) is asked again, twice
// at most, by another new process.
func judgeOnce(ctx context.Context, spec PlayerSpec, pos minishogi.Position, lim usi.GoParams) (Decision, error) {
	var err error
	for range 3 {
		var judge *usiPlayer
		if judge, err = newUSIPlayer(ctx, spec); err != nil {
			if ctx.Err() != nil {
				return Decision{}, ctx.Err()
			}
			continue
		}
		var d Decision
		d, err = judge.Move(ctx, minishogi.NewGame(pos, minishogi.GameOptions{}), lim)
		judge.Close()
		if err == nil {
			return d, nil
		}
		if ctx.Err() != nil {
			return Decision{}, ctx.Err()
		}
	}
	return Decision{}, err
}

// positionKey is an SFEN without its move number: two walks that reach one
// board, hands and side to move reach one opening.
func positionKey(pos minishogi.Position) string {
	f := strings.Fields(pos.SFEN())
	return strings.Join(f[:3], " ")
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// WriteOpenings writes an openings file that ReadOpenings reads: the
// header lines as '#' comments, then one SFEN a line with the walk and the
// judge's score after a '#'.
func WriteOpenings(w io.Writer, header []string, openings []JudgedOpening) error {
	var b strings.Builder
	for _, h := range header {
		if strings.ContainsAny(h, "\n\r") {
			return errors.New("selfplay: openings: a header line holds a line break")
		}
		fmt.Fprintf(&b, "# %s\n", h)
	}
	for _, o := range openings {
		fmt.Fprintf(&b, "%s # %s, cp %d\n", o.SFEN, strings.Join(o.Moves, " "), o.ScoreCP)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
