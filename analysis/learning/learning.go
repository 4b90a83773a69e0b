package learning

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot/plotter"

	"github.com/shogilab/shogilab/internal/figure"
)

// Point is one generation on the curve.
type Point struct {
	Generation int `json:"generation"`
	// Games and Positions are the self-play games and positions of generations 1 to this
	// one; CPUHours the CPU time of their self-play, fits and gates.
	Games     int     `json:"games"`
	Positions int     `json:"positions"`
	CPUHours  float64 `json:"cpu_hours"`
	// Elo on the ladder with its 95% interval (±Inf for an open end, a gauntlet won or
	// lost whole), and the gauntlet's games; NaN for a generation without a rating.
	Elo        float64 `json:"elo"`
	Low        float64 `json:"elo_low"`
	High       float64 `json:"elo_high"`
	RatedGames int     `json:"rated_games"`
}

// line is what the curve reads of a loop.jsonl line.
type line struct {
	N         int `json:"generation"`
	Games     int `json:"games"`
	Positions int `json:"positions"`
	Rating    *struct {
		Elo   *float64 `json:"elo"`
		Low   *float64 `json:"elo_low"`
		High  *float64 `json:"elo_high"`
		Games int      `json:"games"`
	} `json:"rating"`
}

// costSteps are the steps whose CPU makes a network (train/loop's step names).
var costSteps = []string{"selfplay", "fit", "gate"}

// Read reads the curve of run directory dir.
func Read(dir string) ([]Point, error) {
	f, err := os.Open(filepath.Join(dir, "loop.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("learning: %w", err)
	}
	defer f.Close()
	var out []Point
	var games, positions int
	var cpu float64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("learning: %s line %d: %w", f.Name(), n, err)
		}
		games += l.Games
		positions += l.Positions
		times := map[string]struct {
			CPU float64 `json:"cpu_seconds"`
		}{}
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("gen-%03d", l.N), "times.json"))
		switch {
		case err == nil:
			if err := json.Unmarshal(b, &times); err != nil {
				return nil, fmt.Errorf("learning: generation %d's times: %w", l.N, err)
			}
		case !errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("learning: %w", err)
		}
		for _, s := range costSteps {
			cpu += times[s].CPU
		}
		p := Point{Generation: l.N, Games: games, Positions: positions, CPUHours: cpu / 3600, Elo: math.NaN(), Low: math.NaN(), High: math.NaN()}
		if r := l.Rating; r != nil {
			// JSON keeps an infinite Elo or end as null: the side the score left open.
			p.Elo, p.Low, p.High, p.RatedGames = orInf(r.Elo, math.NaN()), orInf(r.Low, math.Inf(-1)), orInf(r.High, math.Inf(1)), r.Games
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("learning: %w", err)
	}
	return out, nil
}

func orInf(x *float64, open float64) float64 {
	if x == nil {
		return open
	}
	return *x
}

// Axis is the curve's x axis.
type Axis int

const (
	ByCPUHours Axis = iota // cumulative CPU-hours
	ByGames                // cumulative self-play games
)

func (a Axis) x(p Point) float64 {
	if a == ByGames {
		return float64(p.Games)
	}
	return p.CPUHours
}

func (a Axis) label() string {
	if a == ByGames {
		return "self-play games"
	}
	return "CPU-hours (self-play, fits, gates)"
}

// Reference is a fixed player drawn across the curve as a level line: an anchor of the
// ladder, such as the network the run means to overtake.
type Reference struct {
	Label string
	Elo   float64
}

// Chart is the curve's data: the rated generations' Elo against the axis, and each
// reference as a level line over the same span.
func Chart(points []Point, a Axis, refs ...Reference) figure.Chart {
	s := figure.Series{Label: "the generation's network", Kind: figure.LinePoints}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		if !math.IsNaN(p.Elo) && !math.IsInf(p.Elo, 0) {
			s.XYs = append(s.XYs, plotter.XY{X: a.x(p), Y: p.Elo})
			lo, hi = math.Min(lo, a.x(p)), math.Max(hi, a.x(p))
		}
	}
	c := figure.Chart{Title: "Learning curve: Elo on the ladder", XLabel: a.label(), YLabel: "Elo on the ladder (fsf-1k = 0)", Series: []figure.Series{s}}
	if len(s.XYs) > 0 {
		for _, r := range refs {
			c.Series = append(c.Series, figure.Series{Label: r.Label, Kind: figure.Line, XYs: plotter.XYs{{X: lo, Y: r.Elo}, {X: hi, Y: r.Elo}}})
		}
	}
	return c
}

// clip bounds a drawn interval's open end, in Elo beyond the point.
const clip = 400

// Plot draws the curve with each point's 95% interval.
func Plot(points []Point, a Axis, refs ...Reference) (*figure.Plot, error) {
	p, err := Chart(points, a, refs...).Plot()
	if err != nil {
		return nil, fmt.Errorf("learning: %w", err)
	}
	iv := make([]figure.Interval, 0, len(points))
	for _, q := range points {
		iv = append(iv, figure.Interval{X: a.x(q), Y: q.Elo, Low: q.Low, High: q.High})
	}
	if err := p.AddIntervals(iv, clip); err != nil {
		return nil, fmt.Errorf("learning: %w", err)
	}
	return p, nil
}
