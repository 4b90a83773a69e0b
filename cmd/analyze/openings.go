package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/shogilab/shogilab/analysis/openings"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
)

// badGame marks an analysis error that condemns one game, so that
// --skip-bad skips it.
func badGame(err error) error { return fmt.Errorf("%w (%w)", err, selection.ErrBadGame) }

func runOpenings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze openings", flag.ContinueOnError)
	rf := addRecordFlags(fs)
	depth := fs.Int("depth", 6, "follow each game for `N` plies")
	minGames := fs.Int("min-games", 1, "show lines and positions played in at least `K` games")
	asCSV := fs.Bool("csv", false, "print the lines as CSV instead of tables")
	top := fs.Int("top", 10, "the top-lines plot shows the `K` most played lines of full depth")
	paths, err := parseRecordArgs(fs, args, stdout, "usage: analyze openings [flags] FILES...\n\nThe opening tree of the games in FILES (JSON Lines records, plain or gzip, or\nParquet games tables): each move\nsequence to --depth plies with its games, Sente wins, Gote wins, draws, Sente's score with\na Wilson 95% interval and mean length, most played first; and the positions reached by\nmore than one move order (transpositions), merged.")
	if err != nil {
		return err
	}
	switch {
	case *depth <= 0:
		return fmt.Errorf("--depth %d: want at least 1 ply", *depth)
	case *minGames < 0:
		return fmt.Errorf("--min-games %d is negative", *minGames)
	case *top <= 0:
		return fmt.Errorf("--top %d: want at least 1 line", *top)
	case *asCSV && rf.json:
		return errors.New("--csv and --json: choose one")
	}
	tree := openings.NewTree(*depth)
	counts, err := rf.stream(paths, openings.Fields, stderr, func(g *record.Game) error {
		if err := tree.Add(g); err != nil {
			return badGame(err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	lines := tree.Lines(*minGames)
	var transposed []openings.Position
	for _, p := range tree.Positions(*minGames) {
		if p.Orders > 1 {
			transposed = append(transposed, p)
		}
	}
	if rf.dir != "" {
		figs, err := openingsFigures(tree, lines, *top, rf.describe(counts, paths))
		if err != nil {
			return err
		}
		if len(figs) == 0 {
			fmt.Fprintln(stderr, "analyze openings: no games selected; no plots written")
		} else if _, err := saveFigures(rf.dir, rf.plots, commandLine("openings", args), figs); err != nil {
			return err
		}
	}
	switch {
	case rf.json:
		return json.NewEncoder(stdout).Encode(struct {
			Depth          int                 `json:"depth"`
			MinGames       int                 `json:"min_games"`
			Counts         selection.Counts    `json:"counts"`
			Starts         []openings.Line     `json:"starts"`
			Lines          []openings.Line     `json:"lines"`
			Transpositions []openings.Position `json:"transpositions"`
		}{*depth, *minGames, counts, tree.Starts(), nonNil(lines), nonNil(transposed)})
	case *asCSV:
		return writeLinesCSV(stdout, lines)
	}
	printCounts(stdout, counts)
	for _, s := range tree.Starts() {
		fmt.Fprintf(stdout, "start %s: %d games, Sente %d, Gote %d, draws %d, score %.3f [%.3f, %.3f], mean %.1f plies\n",
			s.Start, s.Games, s.SenteWins, s.GoteWins, s.Draws, s.Score, s.Interval[0], s.Interval[1], s.MeanPlies)
	}
	fmt.Fprintln(stdout)
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "line\tgames\tsente\tgote\tdraws\tscore\t95% interval\tmean plies\tgames at position")
	for _, l := range lines {
		fmt.Fprintf(w, "%s%s\t%d\t%d\t%d\t%d\t%.3f\t[%.3f, %.3f]\t%.1f\t%d\n", strings.Repeat("  ", len(l.Moves)-1), strings.Join(l.Moves, " "),
			l.Games, l.SenteWins, l.GoteWins, l.Draws, l.Score, l.Interval[0], l.Interval[1], l.MeanPlies, l.PositionGames)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(transposed) > 0 {
		fmt.Fprintln(stdout, "\nPositions reached by more than one move order:")
		w = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "position\tply\torders\tgames\tsente\tgote\tdraws\tscore\t95% interval\tmean plies")
		for _, p := range transposed {
			fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.3f\t[%.3f, %.3f]\t%.1f\n", p.SFEN, p.Ply, p.Orders, p.Games, p.SenteWins, p.GoteWins, p.Draws,
				p.Score, p.Interval[0], p.Interval[1], p.MeanPlies)
		}
		return w.Flush()
	}
	return nil
}

// nonNil makes an empty list print as [] rather than null in JSON.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func printCounts(w io.Writer, c selection.Counts) {
	fmt.Fprintf(w, "%d games read, %d selected", c.Read, c.Matched)
	if c.Skipped+c.Rejected > 0 {
		fmt.Fprintf(w, ", %d bad records skipped, %d games with bad moves skipped", c.Skipped, c.Rejected)
	}
	fmt.Fprintln(w)
}

func writeLinesCSV(out io.Writer, lines []openings.Line) error {
	w := csv.NewWriter(out)
	w.Write([]string{"start", "moves", "games", "sente_wins", "gote_wins", "draws", "score", "interval_low", "interval_high", "mean_plies", "position", "position_games"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, l := range lines {
		w.Write([]string{l.Start, strings.Join(l.Moves, " "), strconv.Itoa(l.Games), strconv.Itoa(l.SenteWins),
			strconv.Itoa(l.GoteWins), strconv.Itoa(l.Draws), f(l.Score), f(l.Interval[0]), f(l.Interval[1]),
			f(l.MeanPlies), l.Position, strconv.Itoa(l.PositionGames)})
	}
	w.Flush()
	return w.Error()
}

// openingsFigures are the first-move and top-lines figures of the start with the most
// games (none without games).
func openingsFigures(tree *openings.Tree, lines []openings.Line, top int, games string) ([]namedFigure, error) {
	starts := tree.Starts()
	if len(starts) == 0 {
		return nil, nil
	}
	main := starts[0]
	for _, s := range starts[1:] {
		if s.Games > main.Games {
			main = s
		}
	}
	var first, fromMain []openings.Line
	for _, l := range lines {
		if l.Start == main.Start {
			fromMain = append(fromMain, l)
			if len(l.Moves) == 1 {
				first = append(first, l)
			}
		}
	}
	name := main.Start
	if main.Start == selection.PositionKey(minishogi.StartSFEN) {
		name = "the normal start"
	}
	firstPlot, err := openings.PlotFirstMoves(first, name)
	if err != nil {
		return nil, err
	}
	topLines := openings.TopLines(fromMain, top)
	topPlot, err := openings.PlotTopLines(topLines, name)
	if err != nil {
		return nil, err
	}
	return []namedFigure{
		{"first-moves", openings.FirstMovesCaption(first, name, games), firstPlot},
		{"top-lines", openings.TopLinesCaption(topLines, fromMain, name, games), topPlot},
	}, nil
}
