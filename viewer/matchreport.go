package viewer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/dataset"
	"github.com/shogilab/shogilab/record"
)

// This file counts a match from its records alone, with package sprt, as cmd/match counted
// it (games 2k and 2k+1 are a pair from one opening, A is Sente in the even game), and runs
// the SPRT pair by pair for its chart. It stands in for the match report the analyses are to
// offer (a package under analysis/), which it should give way to.

// matchReport is what a match page shows.
type matchReport struct {
	A, B         string
	Games        sprt.Trinomial // A's wins, draws and losses
	Pairs        sprt.Pentanomial
	Estimate     sprt.Result
	Unpaired     int // games whose partner is missing
	Terminations map[record.Termination]int
	MeanPlies    float64
	Test         sprt.Test
	TestFrom     string     // where the test comes from: the match's report.json or the viewer's option
	Steps        []sprtStep // the test after each pair, in the order of the pairs
	Info         *matchInfo // from report.json, when there is one
}

// sprtStep is the test after one more pair.
type sprtStep struct {
	Games int
	sprt.Verdict
}

// matchInfo is what cmd/match's report.json adds to the records: how the match was played.
type matchInfo struct {
	Limits   string     `json:"limits"`
	Openings int        `json:"openings"`
	Seed     uint64     `json:"seed"`
	SPRT     *sprt.Test `json:"sprt"`
}

// maxReportBytes bounds the report.json read: cmd/match writes well under a kilobyte.
const maxReportBytes = 1 << 20

// loadMatch indexes a match directory's records and counts the match.
func (s *Server) loadMatch(src *source, i int, progress func()) {
	paths, err := recordFilesIn(src.Path)
	if err != nil {
		src.Err = err
		return
	}
	if len(paths) == 0 {
		src.Err = errors.New("no record files (*.jsonl, *.jsonl.gz, *.parquet) in the directory")
		return
	}
	for _, p := range paths {
		s.addRecords(src, i, p, progress)
	}
	rep, err := countMatch(paths, s.opts.SPRT)
	if err != nil {
		src.Err = err
		return
	}
	src.match = rep
}

func countMatch(paths []string, test sprt.Test) (*matchReport, error) {
	rep := &matchReport{Terminations: map[record.Termination]int{}, Test: test, TestFrom: "view --sprt"}
	if info, err := readMatchInfo(filepath.Join(filepath.Dir(paths[0]), "report.json")); err != nil {
		return nil, err
	} else if info != nil {
		rep.Info = info
		if info.SPRT != nil && info.SPRT.Validate() == nil {
			rep.Test, rep.TestFrom = *info.SPRT, "the match's report.json"
		}
	}
	r := dataset.NewReader(paths, dataset.Options{Fields: record.FieldID | record.FieldPlayers | record.FieldResult | record.FieldTermination | record.FieldPlies, SkipInvalid: true})
	defer r.Close()
	type pair struct {
		points float64
		games  int
	}
	pairs := map[int]*pair{}
	plies := 0
	for {
		g, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		aSente := g.ID%2 == 0
		a, b := g.Players.Sente.Name, g.Players.Gote.Name
		if !aSente {
			a, b = b, a
		}
		if rep.A == "" && rep.B == "" {
			rep.A, rep.B = a, b
		} else if a != rep.A || b != rep.B {
			return nil, fmt.Errorf("game %d: A is %q and B %q; the first game had %q and %q: not one match played in pairs", g.ID, a, b, rep.A, rep.B)
		}
		points := 0.5
		switch {
		case g.Result == record.Sente && aSente, g.Result == record.Gote && !aSente:
			points = 1
			rep.Games.Wins++
		case g.Result == record.Draw:
			rep.Games.Draws++
		default:
			points = 0
			rep.Games.Losses++
		}
		rep.Terminations[g.Termination]++
		plies += g.Plies
		p := pairs[g.ID/2]
		if p == nil {
			p = &pair{}
			pairs[g.ID/2] = p
		}
		p.points += points
		p.games++
	}
	games := rep.Games.Wins + rep.Games.Draws + rep.Games.Losses
	if games == 0 {
		return nil, errors.New("no games")
	}
	rep.MeanPlies = float64(plies) / float64(games)
	keys := make([]int, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	seq := sprt.NewSequence(rep.Test)
	for _, k := range keys {
		p := pairs[k]
		if p.games != 2 {
			rep.Unpaired += p.games
			continue
		}
		rep.Pairs.Add(p.points)
		rep.Steps = append(rep.Steps, sprtStep{Games: 2 * rep.Pairs.Pairs(), Verdict: seq.Update(rep.Pairs)})
	}
	rep.Estimate = sprt.Estimate(rep.Pairs.Units())
	return rep, nil
}

func readMatchInfo(path string) (*matchInfo, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var info matchInfo
	if err := json.NewDecoder(io.LimitReader(f, maxReportBytes)).Decode(&info); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &info, nil
}
