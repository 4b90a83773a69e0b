package viewer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
)

// This file counts a match from its records alone with package match, as cmd/match and
// analyze match count it (games 2k and 2k+1 are a pair from one opening, A is Sente in the
// even game; a game that replays an earlier one counts once), and keeps the SPRT's verdict
// after each distinct pair for the chart.

// matchReport is what a match page shows.
type matchReport struct {
	A, B         string
	Games        sprt.Trinomial // A's wins, draws and losses
	Pairs        sprt.Pentanomial
	Estimate     sprt.Strength
	Unpaired     int // games whose partner is missing
	Replayed     int // games left out as replays of earlier ones
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
	rep := &matchReport{Test: test, TestFrom: "view --sprt"}
	if info, err := readMatchInfo(filepath.Join(filepath.Dir(paths[0]), "report.json")); err != nil {
		return nil, err
	} else if info != nil {
		rep.Info = info
		if info.SPRT != nil && info.SPRT.Validate() == nil {
			rep.Test, rep.TestFrom = *info.SPRT, "the match's report.json"
		}
	}
	st := match.NewStandings(true)
	st.SetTest(rep.Test)
	r := table.NewReader(paths, table.Options{Fields: match.Fields, SkipInvalid: true})
	defer r.Close()
	for {
		g, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := st.Add(g); err != nil {
			return nil, fmt.Errorf("%s: not one match played in pairs", strings.TrimPrefix(err.Error(), "match: "))
		}
	}
	st.Finish()
	if st.Counted == 0 {
		return nil, errors.New("no games")
	}
	rep.A, rep.B = st.A, st.B
	rep.Games, rep.Pairs, rep.Estimate = st.Games, st.Pairs, st.Estimate()
	rep.Terminations, rep.Replayed = st.Terminations, st.ReplayedGames
	rep.Unpaired = st.Unpaired()
	rep.MeanPlies = st.Report().MeanPlies
	for i, v := range st.Steps() {
		rep.Steps = append(rep.Steps, sprtStep{Games: 2 * (i + 1), Verdict: v})
	}
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
