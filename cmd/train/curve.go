package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/analysis/learning"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/internal/figure"
	"github.com/shogilab/shogilab/train/loop"
)

func runCurve(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("train curve", flag.ContinueOnError)
	// --out names an output directory in every command (docs/architecture.md#commands);
	// -o, this command's first spelling, still works.
	out := fs.String("out", "", "output directory of the plot (default: the run directory)")
	fs.StringVar(out, "o", "", "the same as --out")
	name := fs.String("name", "learning-curve", "file name of the plot, without extension")
	o := figure.Screen()
	o.AddFlags(fs)
	asJSON := fs.Bool("json", false, "print the curve's points as JSON")
	var refs references
	fs.Var(&refs, "reference", "draw a fixed player as a level line, `LABEL=ELO` on the ladder's scale (for example 'fsf5000-64x16-p8=369'); repeat for more")
	if err := cli.ParseHelp(fs, args, stdout, "usage: train curve [flags] RUN\n\n"+
		"Draws the learning curve of a train loop run from its logs (analysis/learning):\n"+
		"each generation's network's Elo on the ladder with its 95% interval (an open end,\n"+
		"at a score of 0 or 1, is drawn 400 Elo long) against cumulative CPU-hours\n"+
		"(NAME-cpu) and self-play games (NAME-games). A run from before the ladder\n"+
		"(datasets/loop/run1) is drawn against its fixed anchor by generation.\n"+
		"--reference draws a player the run means to overtake, rated on the same ladder\n"+
		"(analyze ladder place; datasets/ladder/gauntlet holds the games of shogilab-p8-1k,\n"+
		"the network fitted to fairy-stockfish's games at 1,000 playouts)."); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("want one run directory, got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)
	if *out != "" {
		if err := cli.CheckOutputDir(*out); err != nil {
			return err
		}
	}
	prov, err := loop.ReadProvenance(dir)
	if err != nil {
		return err
	}
	gens, err := loop.ReadLog(dir)
	if err != nil {
		return err
	}
	if len(gens) > 0 && gens[0].Rating != nil {
		return ladderCurve(stdout, dir, *out, *name, o, *asJSON, refs)
	}
	if len(refs) > 0 {
		return cli.Usagef("--reference: %s was not rated on the ladder (its curve is against an anchor)", dir)
	}
	points := loop.Curve(gens)
	if len(points) == 0 {
		return fmt.Errorf("train curve: %s: no generation has an anchor result", dir)
	}
	p, err := loop.PlotCurve(points, prov.Config.AnchorName())
	if err != nil {
		return err
	}
	if *out == "" {
		*out = dir
	}
	paths, err := p.Save(*out, *name, o)
	if err != nil {
		return err
	}
	if *asJSON {
		type point struct {
			Generation int      `json:"generation"`
			Elo        *float64 `json:"elo"`
			Low        *float64 `json:"elo_low"`
			High       *float64 `json:"elo_high"`
			Games      int      `json:"games"`
		}
		num := func(x float64) *float64 {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil
			}
			return &x
		}
		var ps []point
		for _, q := range points {
			ps = append(ps, point{q.Generation, num(q.Elo), num(q.Low), num(q.High), q.Games})
		}
		return json.NewEncoder(stdout).Encode(map[string]any{"files": paths, "points": ps})
	}
	for _, q := range points {
		fmt.Fprintf(stdout, "generation %d: Elo %+.0f [%+.0f, %+.0f] (%d games)\n", q.Generation, q.Elo, q.Low, q.High, q.Games)
	}
	for _, path := range paths {
		fmt.Fprintln(stdout, path)
	}
	return nil
}

// ladderCurve draws and prints the curve of a run rated on the ladder.
func ladderCurve(stdout io.Writer, dir, out, name string, o figure.Options, asJSON bool, refs references) error {
	points, err := learning.Read(dir)
	if err != nil {
		return err
	}
	if out == "" {
		out = dir
	}
	var paths []string
	for _, a := range []struct {
		axis   learning.Axis
		suffix string
	}{{learning.ByCPUHours, "-cpu"}, {learning.ByGames, "-games"}} {
		p, err := learning.Plot(points, a.axis, refs...)
		if err != nil {
			return err
		}
		ps, err := p.Save(out, name+a.suffix, o)
		if err != nil {
			return err
		}
		paths = append(paths, ps...)
	}
	if asJSON {
		num := func(x float64) *float64 {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil
			}
			return &x
		}
		type point struct {
			learning.Point
			Elo  *float64 `json:"elo"`
			Low  *float64 `json:"elo_low"`
			High *float64 `json:"elo_high"`
		}
		var ps []point
		for _, q := range points {
			ps = append(ps, point{q, num(q.Elo), num(q.Low), num(q.High)})
		}
		return json.NewEncoder(stdout).Encode(map[string]any{"files": paths, "points": ps})
	}
	for _, q := range points {
		fmt.Fprintf(stdout, "generation %d: Elo %+.0f [%+.0f, %+.0f] (%d games) after %d self-play games, %.3f CPU-hours\n",
			q.Generation, q.Elo, q.Low, q.High, q.RatedGames, q.Games, q.CPUHours)
	}
	for _, path := range paths {
		fmt.Fprintln(stdout, path)
	}
	return nil
}

// references is the --reference flag: level lines, LABEL=ELO each.
type references []learning.Reference

func (r *references) String() string {
	var parts []string
	for _, x := range *r {
		parts = append(parts, fmt.Sprintf("%s=%g", x.Label, x.Elo))
	}
	return strings.Join(parts, ",")
}

func (r *references) Set(v string) error {
	label, elo, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(label) == "" {
		return fmt.Errorf("%q: want LABEL=ELO", v)
	}
	x, err := strconv.ParseFloat(elo, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("%q: the Elo %q is not a finite number", v, elo)
	}
	*r = append(*r, learning.Reference{Label: label, Elo: x})
	return nil
}
