package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/shogilab/shogilab/analysis/ratings"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/record"
)

func runRatings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze ratings", flag.ContinueOnError)
	rf := addRecordFlags(fs)
	model := fs.String("model", string(ratings.Davidson), "`davidson` (draws an outcome of their own, Davidson 1970) or half-point (a draw is half a win)")
	anchor := fs.String("anchor", "", "rate this `player` 0 (default: the mean rating is 0)")
	paths, err := parseRecordArgs(fs, args, stdout, "usage: analyze ratings [flags] FILES...\n\nElo ratings of every player configuration in FILES (JSON Lines records, plain or gzip, or\nParquet games tables)\nby maximum likelihood, with 95% intervals from the observed information, and the\nlikelihood of superiority (LOS) of each player over each other.")
	if err != nil {
		return err
	}
	c := ratings.NewCollector()
	counts, err := rf.stream(paths, ratings.Fields, stderr, func(g *record.Game) error { c.Add(g); return nil })
	if err != nil {
		return err
	}
	res, err := c.Fit(ratings.Options{Model: ratings.Model(*model), Anchor: *anchor})
	if err != nil {
		return err
	}
	if rf.dir != "" {
		figs, err := ratingsFigures(res, rf.describe(counts, paths))
		if err != nil {
			return err
		}
		if _, err := saveFigures(rf.dir, rf.plots, commandLine("ratings", args), figs); err != nil {
			return err
		}
	}
	if rf.json {
		// LOS as an object of objects: JSON has no NaN for the diagonal.
		los := map[string]map[string]float64{}
		for i, a := range res.Players {
			los[a.Name] = map[string]float64{}
			for j, b := range res.Players {
				if i != j {
					los[a.Name][b.Name] = res.LOS[i][j]
				}
			}
		}
		return json.NewEncoder(stdout).Encode(struct {
			Counts selection.Counts `json:"counts"`
			*ratings.Fit
			LOS map[string]map[string]float64 `json:"los"`
		}{counts, res, los})
	}
	printCounts(stdout, counts)
	fmt.Fprintf(stdout, "model %s, anchor %s", res.Model, res.Anchor)
	if res.Model == ratings.Davidson {
		fmt.Fprintf(stdout, ", draw parameter ν = %.3f", res.DrawParameter)
	}
	fmt.Fprintf(stdout, ", log-likelihood %.2f\n", res.LogLikelihood)
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "player\tElo\t± 95%\tinterval\tgames\twins\tdraws\tlosses\tscore\t")
	for _, p := range res.Players {
		fmt.Fprintf(w, "%s\t%.1f\t%.1f\t[%.1f, %.1f]\t%d\t%d\t%d\t%d\t%.3f\t\n", p.Name, p.Elo, (p.Interval[1]-p.Interval[0])/2,
			p.Interval[0], p.Interval[1], p.Games, p.Wins, p.Draws, p.Losses, p.Score)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	w = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "LOS (row over column)\t")
	for i := range res.Players {
		fmt.Fprintf(w, "%d\t", i+1)
	}
	fmt.Fprintln(w)
	for i, p := range res.Players {
		fmt.Fprintf(w, "%d %s\t", i+1, p.Name)
		for _, v := range res.LOS[i] {
			if math.IsNaN(v) {
				fmt.Fprint(w, "-\t")
			} else {
				fmt.Fprintf(w, "%.3f\t", v)
			}
		}
		fmt.Fprintln(w)
	}
	return w.Flush()
}

// ratingsFigures are the figures of ratings: each player's Elo with its interval.
func ratingsFigures(res *ratings.Fit, games string) ([]namedFigure, error) {
	p, err := ratings.Plot(res)
	if err != nil {
		return nil, err
	}
	players := fmt.Sprintf("the %d players", len(res.Players))
	return []namedFigure{{"ratings", ratings.Caption(res, players, games), p}}, nil
}
