package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/selfplay"
)

func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze match", flag.ContinueOnError)
	rf := addRecordFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: analyze match [flags] FILES...")
		fmt.Fprintln(fs.Output(), "\nThe score of player A of a match played in pairs (cmd/match: games 2k and 2k+1 from one\nopening, A Sente in the even game) from its records in FILES, counted as the match\ncounted it: W-D-L, the pairs by A's points (pentanomial), A's score with its 95% interval,\nthe logistic and normalized Elo with theirs, and the LOS, all on the game pairs.\n\nFlags:")
		fs.PrintDefaults()
	}
	paths, err := parseRecordArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	rc := selfplay.NewRecount()
	counts, err := rf.stream(paths, record.FieldPlayers|record.FieldResult|record.FieldTermination|record.FieldPlies, stderr, rc.Add)
	if err != nil {
		return err
	}
	if rc.Played() == 0 {
		return fmt.Errorf("no games in %d files", len(paths))
	}
	est := rc.Estimate()
	if rf.json {
		return json.NewEncoder(stdout).Encode(struct {
			Counts      selection.Counts `json:"counts"`
			A           string           `json:"a"`
			B           string           `json:"b"`
			Wins        int              `json:"wins"`
			Draws       int              `json:"draws"`
			Losses      int              `json:"losses"`
			Pentanomial sprt.Pentanomial `json:"pentanomial"`
			Estimate    sprt.Result      `json:"estimate"`
		}{counts, rc.A, rc.B, rc.Games.Wins, rc.Games.Draws, rc.Games.Losses, rc.Pairs, est})
	}
	printCounts(stdout, counts)
	fmt.Fprintf(stdout, "A %s against B %s: %d games, %d–%d–%d, pairs by A's points 0..2: %v\n",
		rc.A, rc.B, rc.Played(), rc.Games.Wins, rc.Games.Draws, rc.Games.Losses, rc.Pairs)
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "estimate\tvalue\t95% interval\t")
	fmt.Fprintf(w, "score\t%.3f\t[%.3f, %.3f]\t\n", est.Score, est.ScoreLow, est.ScoreHigh)
	fmt.Fprintf(w, "Elo\t%+.1f\t[%+.1f, %+.1f]\t\n", est.Elo, est.EloLow, est.EloHigh)
	fmt.Fprintf(w, "normalized Elo\t%+.1f\t[%+.1f, %+.1f]\t\n", est.NElo, est.NEloLow, est.NEloHigh)
	fmt.Fprintf(w, "LOS\t%.3f\t\t\n", est.LOS)
	return w.Flush()
}
