package paper

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/analysis/selection"
	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/figure"
)

// StrengthMatches is where the strength datasets live below the repository root: one
// directory per engine version, one per match inside it (datasets/strength/make.sh).
const StrengthMatches = "datasets/strength"

// StrengthEngine is one measured version of our engine: its directory under StrengthMatches
// and what it was (the README's Strength section gives the commit of each).
type StrengthEngine struct {
	Label, About string
}

// StrengthEngines returns the versions the paper compares, oldest first.
func StrengthEngines() []StrengthEngine {
	return []StrengthEngine{
		{"handset-mate3", "hand-set evaluation, mate search to 3 plies"},
		{"nnue", "a network fitted to fairy-stockfish's games, mate search to 5 plies"},
	}
}

// strengthMatch is one match of each version: its directory, and our playouts a move on
// the ladder (0 for the timed match).
type strengthMatch struct {
	match    string
	playouts int
}

// strengthMatches are the timed match, then the ladder's: our engine at these playouts a
// move against Fairy-Stockfish at LadderJudgeNodes nodes.
func strengthMatches() []strengthMatch {
	return []strengthMatch{{TimedMatch, 0}, {"ladder-1k", 1000}, {"ladder-10k", 10000}, {"ladder-100k", 100000}}
}

const (
	// LadderJudgeNodes is Fairy-Stockfish's node limit in the ladder.
	LadderJudgeNodes = 2000
	// TimedMatch is the match at 100 ms a move each.
	TimedMatch = "100ms"
)

// StrengthResult is one match of one engine version: its games counted from our side
// (player A of the match, Sente in the even games), and its estimate from the game pairs.
type StrengthResult struct {
	Engine   StrengthEngine
	Match    string
	Playouts int // the ladder's playouts a move; 0 for the timed match
	Games    sprt.Trinomial
	Estimate sprt.Strength
}

// StrengthStudy is the section on strength: our engine against Fairy-Stockfish 11.1 at
// 100 ms a move and on a ladder of playouts, for each version.
type StrengthStudy struct {
	Results []StrengthResult // by engine, then the timed match, then the ladder upwards
}

// NewStrengthStudy reads the shipped strength datasets under root. A version may lack a
// match; a version with none is an error.
func NewStrengthStudy(root string) (*StrengthStudy, error) {
	s := &StrengthStudy{}
	for _, e := range StrengthEngines() {
		found := 0
		for _, m := range strengthMatches() {
			path := filepath.Join(root, StrengthMatches, e.Label, m.match, "games-0-of-1.jsonl.gz")
			if ok, err := exists(path); err != nil {
				return nil, fmt.Errorf("paper: strength: %w", err)
			} else if !ok {
				continue
			}
			r, err := readMatch(path)
			if err != nil {
				return nil, fmt.Errorf("paper: strength: %s: %w", filepath.Join(e.Label, m.match), err)
			}
			r.Engine, r.Match, r.Playouts = e, m.match, m.playouts
			s.Results = append(s.Results, r)
			found++
		}
		if found == 0 {
			return nil, fmt.Errorf("paper: strength: no matches of %s under %s", e.Label, filepath.Join(root, StrengthMatches))
		}
	}
	return s, nil
}

// readMatch counts a match's records as the match did (package match).
func readMatch(path string) (StrengthResult, error) {
	st := match.NewStandings(true)
	if _, err := selection.Stream([]string{path}, selection.Filter{}, selection.Options{Fields: match.Fields}, st.Add); err != nil {
		return StrengthResult{}, err
	}
	if st.Counted == 0 {
		return StrengthResult{}, fmt.Errorf("no games")
	}
	return StrengthResult{Games: st.Games, Estimate: st.Estimate()}, nil
}

// Timed returns the versions' matches at 100 ms a move, oldest first.
func (s *StrengthStudy) Timed() []StrengthResult {
	var out []StrengthResult
	for _, r := range s.Results {
		if r.Match == TimedMatch {
			out = append(out, r)
		}
	}
	return out
}

// Ladder returns a version's ladder matches, fewest playouts first.
func (s *StrengthStudy) Ladder(label string) []StrengthResult {
	var out []StrengthResult
	for _, r := range s.Results {
		if r.Engine.Label == label && r.Playouts > 0 {
			out = append(out, r)
		}
	}
	return out
}

// LadderChart is the data of the ladder figure: for each version, its Elo against
// Fairy-Stockfish at LadderJudgeNodes nodes at each playout budget, and the even line.
func (s *StrengthStudy) LadderChart() figure.Chart {
	c := figure.Chart{
		Title:  fmt.Sprintf("Our engine against Fairy-Stockfish 11.1 at %s nodes", figure.Thousands(LadderJudgeNodes)),
		XLabel: "our playouts a move",
		YLabel: "Elo against Fairy-Stockfish",
		XTicks: figure.Log,
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range StrengthEngines() {
		ser := figure.Series{Label: e.About, Kind: figure.LinePoints}
		for _, r := range s.Ladder(e.Label) {
			ser.XYs = append(ser.XYs, plotter.XY{X: float64(r.Playouts), Y: r.Estimate.Elo})
			lo, hi = math.Min(lo, float64(r.Playouts)), math.Max(hi, float64(r.Playouts))
		}
		if len(ser.XYs) > 0 {
			c.Series = append(c.Series, ser)
		}
	}
	if lo <= hi {
		c.Series = append(c.Series, figure.Series{Label: "even (0 Elo)", Kind: figure.Line,
			XYs: plotter.XYs{{X: lo, Y: 0}, {X: hi, Y: 0}}})
	}
	return c
}

// eloBars are the 95% intervals of the points of a series, as error bars.
type eloBars struct {
	plotter.XYs
	low, high []float64 // the distances below and above each point
}

func (e eloBars) YError(i int) (float64, float64) { return e.low[i], e.high[i] }
func (e eloBars) XError(i int) (float64, float64) { return e.low[i], e.high[i] }

// finiteElo clips an interval's end at ±inf (a score of 0 or 1) to the figure's range.
func finiteElo(x float64) float64 { return math.Max(-800, math.Min(800, x)) }

// PlotLadder draws LadderChart with each Elo's 95% interval (from the game pairs).
func (s *StrengthStudy) PlotLadder() (*figure.Plot, error) {
	p, err := s.LadderChart().Plot()
	if err != nil {
		return nil, err
	}
	i := 0
	for _, e := range StrengthEngines() {
		rs := s.Ladder(e.Label)
		if len(rs) == 0 {
			continue
		}
		b := eloBars{}
		for _, r := range rs {
			b.XYs = append(b.XYs, plotter.XY{X: float64(r.Playouts), Y: r.Estimate.Elo})
			b.low = append(b.low, r.Estimate.Elo-finiteElo(r.Estimate.EloLow))
			b.high = append(b.high, finiteElo(r.Estimate.EloHigh)-r.Estimate.Elo)
		}
		if err := p.AddYErrorBars(b, i, ""); err != nil { // the series' colour
			return nil, err
		}
		i++
	}
	// Error bars draw no legend thumbnail: one solid black line stands for the intervals
	// of every series (each drawn in its series' colour).
	legend := figure.LineStyle(6)
	legend.Dashes = nil
	p.AddLegend("95% interval (series' colour)", &plotter.Line{LineStyle: legend})
	return p, nil
}

// TimedChart is the data of the timed figure: each version's Elo at 100 ms a move, a point
// on its own row, the newest on the top row. Rows are y = 0, 1, ...; rowNames names them
// from the bottom up.
func (s *StrengthStudy) TimedChart() (c figure.Chart, rowNames []string) {
	c = figure.Chart{
		Title:  "Our engine against Fairy-Stockfish 11.1, 100 ms a move each",
		XLabel: "Elo against Fairy-Stockfish",
		YLabel: "our engine (games)",
	}
	timed := s.Timed()
	points := figure.Series{Label: "Elo of the score", Kind: figure.Points}
	for i, r := range timed {
		points.XYs = append(points.XYs, plotter.XY{X: r.Estimate.Elo, Y: float64(i)})
		rowNames = append(rowNames, fmt.Sprintf("%s (%d)", r.Engine.Label, r.Estimate.Games))
	}
	c.Series = []figure.Series{points}
	return c, rowNames
}

// PlotTimed draws TimedChart with each Elo's 95% interval.
func (s *StrengthStudy) PlotTimed() (*figure.Plot, error) {
	c, rows := s.TimedChart()
	p, err := c.Plot()
	if err != nil {
		return nil, err
	}
	p.NominalY(rows...)
	b := eloBars{XYs: c.Series[0].XYs}
	for _, r := range s.Timed() {
		b.low = append(b.low, r.Estimate.Elo-finiteElo(r.Estimate.EloLow))
		b.high = append(b.high, finiteElo(r.Estimate.EloHigh)-r.Estimate.Elo)
	}
	if err := p.AddXErrorBars(b, 0, "95% interval"); err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = -0.5, float64(len(rows))-0.5
	return p, nil
}

// Figures are the section's figures.
func (s *StrengthStudy) Figures() []Figure {
	var about []string
	for _, e := range StrengthEngines() {
		about = append(about, e.Label+": "+e.About)
	}
	source := fmt.Sprintf("From the records of %s (made by datasets/strength/make.sh); one thread each, from the 100 balanced openings, each played with both colours; Elo is the logistic Elo of the score, its 95%% interval from the game pairs (pentanomial); `go run ./cmd/analyze match %s/VERSION/MATCH/games-0-of-1.jsonl.gz` prints each. Versions: %s.",
		StrengthMatches, StrengthMatches, strings.Join(about, "; "))
	return []Figure{
		{Name: "strength_timed", Caption: "Our engine's Elo against Fairy-Stockfish 11.1 at 100 ms a move each, by version. " + source, Draw: s.PlotTimed},
		{Name: "strength_ladder", Caption: fmt.Sprintf("Our engine's Elo against Fairy-Stockfish 11.1 at %s nodes a move, by our playouts a move. ", figure.Thousands(LadderJudgeNodes)) + source, Draw: s.PlotLadder},
	}
}

// exists reports whether path is there; an error other than its absence is returned.
func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
