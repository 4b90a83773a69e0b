package openings

import (
	"fmt"
	"strings"
)

// FirstMovesCaption is the caption of PlotFirstMoves of first, the first moves from start
// (as the figure's title names it, such as "the normal start"), in games (what games they
// are, such as "200 games of ... (FILE)"): what it shows, and each move's games and score
// with its interval.
func FirstMovesCaption(first []Line, start, games string) string {
	var moves []string
	for _, l := range first {
		moves = append(moves, fmt.Sprintf("%s %d games, score %.2f [%.2f, %.2f]", strings.Join(l.Moves, " "), l.Games, l.Score, l.Interval[0], l.Interval[1]))
	}
	if len(moves) == 0 {
		moves = []string{"no games"}
	}
	return fmt.Sprintf("Sente's score (a draw counting half) after each first move from %s, with Wilson 95%% score intervals, in %s. %s.",
		start, games, strings.Join(moves, "; "))
}

// TopLinesCaption is the caption of PlotTopLines of top (TopLines of lines, every line from
// start), in games: what it shows, the most played line, and how many lines of its length
// were played.
func TopLinesCaption(top, lines []Line, start, games string) string {
	if len(top) == 0 {
		return fmt.Sprintf("The most played lines from %s, in %s: no games.", start, games)
	}
	depth := len(top[0].Moves)
	distinct := 0
	for _, l := range lines {
		if len(l.Moves) == depth {
			distinct++
		}
	}
	most := top[0]
	return fmt.Sprintf("The %d most played %d-ply lines from %s, with Sente's score (a draw counting half) and its Wilson 95%% score interval, in %s. The most played, %s, occurred in %d games (score %.2f); %d distinct %d-ply lines were played.",
		len(top), depth, start, games, strings.Join(most.Moves, " "), most.Games, most.Score, distinct, depth)
}
