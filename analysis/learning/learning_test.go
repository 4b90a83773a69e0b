package learning

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// TestRead: a run of three lines written by hand. Generation 0 (no self-play, its rating's
// gauntlet in times.json under rate, which is not counted), generation 1 (100 games, 3,000
// positions; self-play 5,400 s and fit 1,800 s of CPU: 2 hours), generation 2 (100 games,
// 2,800 positions; 3,600 s + 1,800 s + a gate of 1,800 s: 2 hours more; its rating won every
// game, so its upper end is null, open). Cumulative: games 0, 100, 200; positions 0, 3,000,
// 5,800; CPU-hours 0, 2, 4.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("loop.jsonl", `{"generation":0,"best":"initial","result":"initial","best_after":"initial","rating":{"of":"initial","elo":-120.5,"elo_low":-180,"elo_high":-60,"games":40}}
{"generation":1,"best":"initial","games":100,"positions":3000,"result":"promoted","best_after":"gen-001","rating":{"of":"gen-001","elo":10,"elo_low":-40,"elo_high":60,"games":40}}
{"generation":2,"best":"gen-001","games":100,"positions":2800,"result":"promoted","best_after":"gen-002","rating":{"of":"gen-002","elo":300,"elo_low":250,"elo_high":null,"games":40}}
`)
	write("gen-000/times.json", `{"rate":{"wall_seconds":99,"cpu_seconds":7200}}`)
	write("gen-001/times.json", `{"selfplay":{"wall_seconds":1,"cpu_seconds":5400},"fit":{"wall_seconds":1,"cpu_seconds":1800},"rate":{"cpu_seconds":999}}`)
	write("gen-002/times.json", `{"selfplay":{"cpu_seconds":3600},"fit":{"cpu_seconds":1800},"gate":{"cpu_seconds":1800}}`)
	pts, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Point{
		{Generation: 0, Games: 0, Positions: 0, CPUHours: 0, Elo: -120.5, Low: -180, High: -60, RatedGames: 40},
		{Generation: 1, Games: 100, Positions: 3000, CPUHours: 2, Elo: 10, Low: -40, High: 60, RatedGames: 40},
		{Generation: 2, Games: 200, Positions: 5800, CPUHours: 4, Elo: 300, Low: 250, High: math.Inf(1), RatedGames: 40},
	}
	if len(pts) != len(want) {
		t.Fatalf("%d points, want %d", len(pts), len(want))
	}
	for i := range want {
		t.Run(string(rune('0'+i)), func(t *testing.T) {
			g, w := pts[i], want[i]
			if g.Generation != w.Generation || g.Games != w.Games || g.Positions != w.Positions || math.Abs(g.CPUHours-w.CPUHours) > 1e-12 ||
				g.Elo != w.Elo || g.Low != w.Low || g.High != w.High || g.RatedGames != w.RatedGames {
				t.Errorf("point %+v, want %+v", g, w)
			}
		})
	}
	for _, a := range []Axis{ByCPUHours, ByGames} {
		if _, err := Plot(pts, a); err != nil {
			t.Errorf("plot: %v", err)
		}
		if xs := Chart(pts, a).Series[0].XYs; len(xs) != 3 || xs[2].X != map[Axis]float64{ByCPUHours: 4, ByGames: 200}[a] {
			t.Errorf("axis %d: %v", a, xs)
		}
	}
}

// TestChartReference: a reference is a level line at its Elo over the span of the rated
// points (CPU-hours 1 to 3 here, the unrated generation left out), drawn after the curve.
func TestChartReference(t *testing.T) {
	pts := []Point{
		{Generation: 0, CPUHours: 0, Elo: math.NaN()},
		{Generation: 1, CPUHours: 1, Elo: -50},
		{Generation: 2, CPUHours: 3, Elo: 120},
	}
	c := Chart(pts, ByCPUHours, Reference{Label: "built-in", Elo: 369})
	if len(c.Series) != 2 {
		t.Fatalf("%d series, want the curve and the reference", len(c.Series))
	}
	if r := c.Series[1]; r.Label != "built-in" || len(r.XYs) != 2 || r.XYs[0] != (plotter.XY{X: 1, Y: 369}) || r.XYs[1] != (plotter.XY{X: 3, Y: 369}) {
		t.Errorf("reference %+v, want a line at 369 from 1 to 3", r)
	}
}
