package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/shogilab/shogilab/analysis/ladder"
	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/record"
)

const ladderUsage = `usage: analyze ladder fit --anchors FILE [-o LADDER] [flags] FILES...
       analyze ladder rate --ladder FILE --player NAME [flags] FILES...

fit fixes the ratings of a rating ladder's anchors (an anchors file such as
datasets/ladder/anchors.json) from the records of a round robin between them, by maximum
likelihood with Davidson's draws, the anchor named "zero" in the file rated 0, and writes
the ladder (datasets/ladder/ladder.json) with -o.

rate places player NAME on a ladder from its games against the anchors (a gauntlet, match
-a SPEC -ladder FILE): its rating with the anchors' held fixed, and the 95% likelihood
interval.
`

func runLadder(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "fit" && args[0] != "rate") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Fprint(stdout, ladderUsage)
			return nil
		}
		return fmt.Errorf("analyze ladder needs fit or rate (see analyze ladder -h)")
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("analyze ladder "+sub, flag.ContinueOnError)
	rf := addRecordFlags(fs)
	anchorsFile := fs.String("anchors", "", "fit: the anchors `file`")
	out := fs.String("o", "", "fit: write the ladder to this `file`")
	ladderFile := fs.String("ladder", "", "rate: the ladder `file`")
	// rate places the player of the record flags' --player: its games are the ones kept.
	player := &rf.player
	paths, err := parseRecordArgs(fs, args, stdout, ladderUsage)
	if err != nil {
		return err
	}
	fields := record.FieldID | record.FieldPlayers | record.FieldResult
	if sub == "rate" {
		if *ladderFile == "" || *player == "" {
			return errors.New("rate needs --ladder and --player")
		}
		l, err := ladder.ReadFile(*ladderFile)
		if err != nil {
			return err
		}
		g := l.NewGauntlet(*player)
		if _, err := rf.stream(paths, fields, stderr, g.Add); err != nil {
			return err
		}
		r, err := g.Rate()
		if err != nil {
			return err
		}
		if rf.json {
			return json.NewEncoder(stdout).Encode(r)
		}
		w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintf(w, "%s on the ladder (%s rated 0): %s\n", r.Name, l.Zero, r)
		for _, x := range r.Results {
			fmt.Fprintf(w, "  against %s (%+.0f)\t%d-%d-%d\t\n", x.Anchor, x.Elo, x.Wins, x.Draws, x.Losses)
		}
		return w.Flush()
	}
	if *anchorsFile == "" {
		return errors.New("fit needs --anchors")
	}
	if *out != "" {
		if err := cli.CheckOutputFile(*out); err != nil {
			return err
		}
	}
	a, err := ladder.ReadAnchors(*anchorsFile)
	if err != nil {
		return err
	}
	l, err := ladder.Fit(func(f func(*record.Game) error) error {
		_, err := rf.stream(paths, fields, stderr, f)
		return err
	}, a.Anchors, a.Zero)
	if err != nil {
		return err
	}
	l.Description = a.Description
	l.Command = "analyze ladder fit " + strings.Join(args, " ")
	for _, p := range paths {
		rel := p
		if *out != "" {
			if r, err := filepath.Rel(filepath.Dir(*out), p); err == nil {
				rel = r
			}
		}
		l.Records = append(l.Records, filepath.ToSlash(rel))
	}
	if *out != "" {
		data, err := l.Marshal()
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(*out, data); err != nil {
			return err
		}
	}
	if rf.json {
		return json.NewEncoder(stdout).Encode(l)
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "anchor\tElo\t95%% interval\tgames\tscore\t\n")
	for _, x := range l.Anchors {
		fmt.Fprintf(w, "%s\t%+.0f\t[%+.0f, %+.0f]\t%d\t%.3f\t\n", x.Name, x.Elo, x.Range[0], x.Range[1], x.Games, x.Score)
	}
	fmt.Fprintf(w, "draw parameter ν\t%.4f\t\t\t\t\n", l.DrawParameter)
	return w.Flush()
}
