package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/cli"
)

const matchUsage = `usage: analyze match [flags] FILES...

The score of player A of a match played in pairs (cmd/match: games 2k and 2k+1 from one
opening, A Sente in the even game) from its records in FILES, counted as the match counted
it: W-D-L, the pairs by A's points (pentanomial), A's score with its 95% interval, the
logistic and normalized Elo with theirs, and the LOS, all on the distinct game pairs. A game
with the same start, players and moves as an earlier one replays it and is left out, and
so is a pair that replays an earlier pair; the report says how many. With --sprt the
sequential test is run again on the distinct pairs in the order of their pair numbers.
`

func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze match", flag.ContinueOnError)
	rf := addRecordFlags(fs)
	sprtText := fs.String("sprt", "", "run the test again: elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=logistic|normalized]")
	paths, err := parseRecordArgs(fs, args, stdout, matchUsage)
	if err != nil {
		return err
	}
	st := match.NewStandings(true)
	if *sprtText != "" {
		t, err := sprt.Parse(*sprtText)
		if err != nil {
			return cli.Usagef("--sprt %q: %v", *sprtText, err)
		}
		st.SetTest(t)
	}
	counts, err := rf.stream(paths, match.Fields, stderr, st.Add)
	if err != nil {
		return err
	}
	if st.Counted == 0 {
		return fmt.Errorf("no games in %d files", len(paths))
	}
	st.Finish()
	rep := st.Report()
	if rf.json {
		return json.NewEncoder(stdout).Encode(struct {
			Counts selection.Counts `json:"counts"`
			*match.Report
		}{counts, rep})
	}
	printCounts(stdout, counts)
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "match\t%s (A) vs %s (B)\n", rep.A, rep.B)
	match.WriteTable(w, rep)
	return w.Flush()
}
