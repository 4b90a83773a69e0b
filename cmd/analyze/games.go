package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/shogilab/shogilab/analysis/gamestats"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/record"
)

func runGames(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze games", flag.ContinueOnError)
	rf := addRecordFlags(fs)
	paths, err := parseRecordArgs(fs, args, stdout, "usage: analyze games [flags] FILES...\n\nResults by colour with Wilson 95% intervals, terminations and the distribution of game\nlength (plies) of the games in FILES (JSON Lines records, plain or gzip, or\nParquet games tables), and what the lengths count: plies to a proven loss when the\nengine resigned then (Resign=proven), or to the end of the game. With --out, the\nlength histogram as a paper figure (PDF, a column wide) and its caption.")
	if err != nil {
		return err
	}
	summary := gamestats.New()
	counts, err := rf.stream(paths, gamestats.Fields, stderr, func(g *record.Game) error { summary.Add(g); return nil })
	if err != nil {
		return err
	}
	r := summary.Report()
	if rf.dir != "" {
		figs, err := gamesFigures(r, rf.describe(counts, paths))
		if err != nil {
			return err
		}
		if _, err := saveFigures(rf.dir, rf.plots, commandLine("games", args), figs); err != nil {
			return err
		}
	}
	if rf.json {
		return json.NewEncoder(stdout).Encode(struct {
			Counts selection.Counts `json:"counts"`
			gamestats.Report
		}{counts, r})
	}
	printCounts(stdout, counts)
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "result\tgames\tshare\t95% interval\t")
	for _, s := range []struct {
		name string
		s    gamestats.Share
	}{{"Sente wins", r.SenteWins}, {"Gote wins", r.GoteWins}, {"draws", r.Draws}} {
		fmt.Fprintf(w, "%s\t%d\t%.3f\t[%.3f, %.3f]\t\n", s.name, s.s.Count, s.s.Value, s.s.Interval[0], s.s.Interval[1])
	}
	fmt.Fprintf(w, "Sente's score\t%d\t%.3f\t[%.3f, %.3f]\t\n", r.Games, r.SenteScore.Value, r.SenteScore.Interval[0], r.SenteScore.Interval[1])
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	w = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "termination\tgames\tsente\tgote\tdraws\tshare\t95% interval\t")
	for _, t := range r.Terminations {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%.3f\t[%.3f, %.3f]\t\n", t.Termination, t.Games(), t.SenteWins, t.GoteWins, t.Draws,
			t.Share.Value, t.Share.Interval[0], t.Share.Interval[1])
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	w = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "length (plies)\tgames\tmean\tmin\tq1\tmedian\tq3\tp90\tmax\t")
	for _, l := range r.Lengths {
		fmt.Fprintf(w, "%s\t%d\t%.1f\t%d\t%d\t%d\t%d\t%d\t%d\t\n", l.Result, l.Games, l.Mean, l.Min, l.Q1, l.Median, l.Q3, l.P90, l.Max)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if note := gamestats.ResignNote(r); note != "" {
		fmt.Fprintln(stdout, "\n"+note)
	}
	return nil
}

// gamesFigures are the figures of games: the length histogram by result.
func gamesFigures(r gamestats.Report, games string) ([]namedFigure, error) {
	p, err := gamestats.PlotLengths(r)
	if err != nil {
		return nil, err
	}
	return []namedFigure{{"game-lengths", gamestats.LengthsCaption(r, games), p}}, nil
}
