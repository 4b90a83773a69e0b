package paper

import (
	"fmt"
	"path/filepath"

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
	Ratings *ratings.Fit
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
// by result, and the ratings. Their captions are the analyses' (with the data named here and
// the command that prints the same numbers), as analyze writes them beside a user's figures.
func (s *GamesStudy) Figures() []Figure {
	const startName = "the normal start"
	dataset := fmt.Sprintf("%d games of the MCTS engine against itself at 400 playouts a move (datasets/selfplay/mcts400, made by `go run ./cmd/selfplay --games 200 --playouts 400 --seed 1`)", s.Games.Matched)
	openingsCmd := fmt.Sprintf(" Same numbers: `go run ./cmd/analyze openings --depth %d --top %d %s`.", OpeningDepth, TopLineCount, SelfplayGames)
	lines, first := s.FromStart()

	firstFig := Figure{
		Name:    "games_first_moves",
		Caption: openings.FirstMovesCaption(first, startName, dataset) + openingsCmd,
		Draw:    func() (*figure.Plot, error) { return openings.PlotFirstMoves(first, startName) },
	}
	top := openings.TopLines(lines, TopLineCount)
	topFig := Figure{
		Name:    "games_top_lines",
		Caption: openings.TopLinesCaption(top, lines, startName, dataset) + openingsCmd,
		Draw:    func() (*figure.Plot, error) { return openings.PlotTopLines(top, startName) },
	}
	r := s.Report
	lengthFig := Figure{
		Name:    "games_lengths",
		Caption: gamestats.LengthsCaption(r, dataset) + fmt.Sprintf(" Same numbers: `go run ./cmd/analyze games %s`.", SelfplayGames),
		Draw:    func() (*figure.Plot, error) { return gamestats.PlotLengths(r) },
	}
	ladder := fmt.Sprintf("%d ladder games (every pair, 20 games in each colour; datasets/selfplay/ladder, made by `go run ./cmd/selfplay --games 20 --seed 2` per pairing, datasets/README.md)", s.Ladder.Matched)
	ratingFig := Figure{
		Name: "games_ratings",
		Caption: ratings.Caption(s.Ratings, "the MCTS engine at 100, 200 and 400 playouts a move", ladder) +
			fmt.Sprintf(" Same numbers: `go run ./cmd/analyze ratings --anchor %s %s`.", RatingAnchor, LadderGames),
		Draw: func() (*figure.Plot, error) { return ratings.Plot(s.Ratings) },
	}
	return []Figure{firstFig, topFig, lengthFig, ratingFig}
}
