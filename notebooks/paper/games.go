package paper

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/analysis/gamestats"
	"github.com/shogilab/shogilab/analysis/openings"
	"github.com/shogilab/shogilab/analysis/ratings"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// The shipped self-play datasets (paths below the repository root; datasets/README.md gives
// the commands that made them) and the paper's parameters for them.
const (
	// SelfplayGames are 200 games of the MCTS engine against itself at 400 playouts a move.
	SelfplayGames = "datasets/selfplay/mcts400/games-0-of-1.jsonl.gz"
	// LadderGames are matches between the engine at 100, 200 and 400 playouts a move, every
	// pair in both colours, one file per match.
	LadderGames = "datasets/selfplay/ladder/*/games-0-of-1.jsonl.gz"
	// OpeningDepth is the depth of the opening tree: four plies is as deep as 200 games
	// still put several games in the most played lines.
	OpeningDepth = 4
	// TopLineCount is how many of the most played lines the figure shows.
	TopLineCount = 10
	// RatingAnchor is the player rated 0 Elo.
	RatingAnchor = "mcts-100"
)

// GamesStudy is the section on self-play games: opening statistics and game lengths from the
// self-play dataset, and the ratings of three search budgets from the ladder dataset.
type GamesStudy struct {
	Games  selection.Counts
	Tree   *openings.Tree
	Lines  []openings.Line // every line of the tree
	Report gamestats.Report

	Ladder  selection.Counts
	Ratings *ratings.Result
}

// NewGamesStudy reads the shipped self-play datasets under root.
func NewGamesStudy(root string) (*GamesStudy, error) {
	s := &GamesStudy{Tree: openings.NewTree(OpeningDepth)}
	summary := gamestats.New()
	var err error
	s.Games, err = selection.Stream([]string{filepath.Join(root, SelfplayGames)}, selection.Filter{}, selection.Options{},
		func(g *record.Game) error {
			summary.Add(g)
			return s.Tree.Add(g)
		})
	if err != nil {
		return nil, fmt.Errorf("paper: games: %w", err)
	}
	s.Lines = s.Tree.Lines(1)
	s.Report = summary.Report()

	ladder, err := filepath.Glob(filepath.Join(root, LadderGames))
	if err != nil || len(ladder) == 0 {
		return nil, fmt.Errorf("paper: games: no ladder files %s under %s", LadderGames, root)
	}
	collect := ratings.NewCollector()
	s.Ladder, err = selection.Stream(ladder, selection.Filter{}, selection.Options{}, func(g *record.Game) error {
		collect.Add(g)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("paper: games: %w", err)
	}
	if s.Ratings, err = collect.Fit(ratings.Options{Anchor: RatingAnchor}); err != nil {
		return nil, fmt.Errorf("paper: games: ratings: %w", err)
	}
	return s, nil
}

// FromStart returns the lines from the normal start position, and among them the first moves.
func (s *GamesStudy) FromStart() (lines, firstMoves []openings.Line) {
	start := selection.PositionKey(minishogi.StartSFEN)
	for _, l := range s.Lines {
		if l.Start != start {
			continue
		}
		lines = append(lines, l)
		if len(l.Moves) == 1 {
			firstMoves = append(firstMoves, l)
		}
	}
	return lines, firstMoves
}

// Figures are the first moves and the most played lines with Sente's score, the game lengths
// by result, and the ratings.
func (s *GamesStudy) Figures() []Figure {
	const startName = "the normal start"
	dataset := fmt.Sprintf("%d games of the MCTS engine against itself at 400 playouts a move (datasets/selfplay/mcts400, made by `go run ./cmd/selfplay --games 200 --playouts 400 --seed 1`)", s.Games.Matched)
	openingsCmd := fmt.Sprintf("`go run ./cmd/analyze openings --depth %d --top %d %s`", OpeningDepth, TopLineCount, SelfplayGames)
	lines, first := s.FromStart()

	var firstText []string
	for _, l := range first {
		firstText = append(firstText, fmt.Sprintf("%s %d games, score %.2f [%.2f, %.2f]", l.Moves[0], l.Games, l.Score, l.Interval[0], l.Interval[1]))
	}
	firstFig := Figure{
		Name: "games_first_moves",
		Caption: fmt.Sprintf("Sente's score (a draw counting half) after each first move from the normal start, with Wilson 95%% score intervals, in %s. %s. Same numbers: %s.",
			dataset, strings.Join(firstText, "; "), openingsCmd),
		Draw: func() (*figure.Plot, error) { return openings.PlotFirstMoves(first, startName) },
	}

	top := openings.TopLines(lines, TopLineCount)
	most := top[0]
	topFig := Figure{
		Name: "games_top_lines",
		Caption: fmt.Sprintf("The %d most played %d-ply lines from the normal start, with Sente's score (a draw counting half) and its Wilson 95%% score interval, in %s. The most played, %s, occurred in %d games (score %.2f); %d distinct %d-ply lines were played. Same numbers: %s.",
			len(top), OpeningDepth, dataset, strings.Join(most.Moves, " "), most.Games, most.Score, countDepth(lines, OpeningDepth), OpeningDepth, openingsCmd),
		Draw: func() (*figure.Plot, error) { return openings.PlotTopLines(top, startName) },
	}

	r := s.Report
	all := r.Lengths[0]
	var terms []string
	for _, t := range r.Terminations {
		terms = append(terms, fmt.Sprintf("%s %d", t.Termination, t.Share.Count))
	}
	lengthFig := Figure{
		Name: "games_lengths",
		Caption: fmt.Sprintf("Length of the games by result, a histogram in bins of %s, in %s. Sente won %d, Gote %d, draws %d; Sente's score %.3f with Wilson 95%% interval [%.3f, %.3f]. Length in plies: mean %.1f, median %d, quartiles %d and %d, range %d–%d. Terminations: %s. Same numbers: `go run ./cmd/analyze games %s`.",
			binWidth(s.Report), dataset, r.SenteWins.Count, r.GoteWins.Count, r.Draws.Count, r.SenteScore.Value, r.SenteScore.Interval[0], r.SenteScore.Interval[1],
			all.Mean, all.Median, all.Q1, all.Q3, all.Min, all.Max, strings.Join(terms, ", "), SelfplayGames),
		Draw: func() (*figure.Plot, error) { return gamestats.PlotLengths(r) },
	}

	var elo []string
	for _, p := range s.Ratings.Players {
		elo = append(elo, fmt.Sprintf("%s %+.0f ± %.0f (%d games, %d–%d–%d)", p.Name, p.Elo, (p.Interval[1]-p.Interval[0])/2, p.Games, p.Wins, p.Draws, p.Losses))
	}
	ratingFig := Figure{
		Name: "games_ratings",
		Caption: fmt.Sprintf("Elo ratings of the MCTS engine at 100, 200 and 400 playouts a move, fitted by maximum likelihood (%s), %s rated 0, with 95%% intervals from the observed information, from %d ladder games (every pair, 20 games in each colour; datasets/selfplay/ladder, made by `go run ./cmd/selfplay --games 20 --seed 2` per pairing, datasets/README.md). Elo (wins–draws–losses): %s. Same numbers: `go run ./cmd/analyze ratings --anchor %s %s`.",
			modelName(s.Ratings.Model), RatingAnchor, s.Ladder.Matched, strings.Join(elo, "; "), RatingAnchor, LadderGames),
		Draw: func() (*figure.Plot, error) { return ratings.Plot(s.Ratings) },
	}
	return []Figure{firstFig, topFig, lengthFig, ratingFig}
}

func countDepth(lines []openings.Line, depth int) int {
	n := 0
	for _, l := range lines {
		if len(l.Moves) == depth {
			n++
		}
	}
	return n
}

// binWidth says how wide the bins of the game-length histogram are.
func binWidth(r gamestats.Report) string {
	c := gamestats.LengthsChart(r)
	if len(c.Series) == 0 || len(c.Series[0].XYs) < 3 {
		return "one ply"
	}
	w := c.Series[0].XYs[2].X - c.Series[0].XYs[1].X
	if w == 1 {
		return "one ply"
	}
	return fmt.Sprintf("%g plies", w)
}

// modelName says what a ratings model is in a caption.
func modelName(m ratings.Model) string {
	switch m {
	case ratings.Davidson:
		return "Davidson's model, in which a draw is an outcome of its own"
	case ratings.HalfPoint:
		return "the Bradley–Terry model with a draw as half a win"
	}
	return string(m)
}
