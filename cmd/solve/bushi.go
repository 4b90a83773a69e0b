package main

import (
	"context"

	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/outcome"

	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/shogilab/shogilab/bushiplay"
	"github.com/shogilab/shogilab/rules/bushi"
)

type bushiFlags struct {
	layoutFile string
	json       bool
	allLayouts bool
	workers    int
	limit      int
	play       bool
	mcts       int
	mctsSide   string
	seed       uint64
}

func runBushi(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f bushiFlags
	fs := flag.NewFlagSet("solve bushi", flag.ContinueOnError)
	fs.StringVar(&f.layoutFile, "layout", "", "read the cube layout from `FILE` (the format of bushi.ParseLayout); default: the shipped layout")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the table")
	fs.BoolVar(&f.allLayouts, "all-layouts", false, "solve every layout, one per class of rotations of the cube")
	fs.IntVar(&f.workers, "workers", 0, "with --all-layouts: goroutines (0: all CPUs)")
	fs.IntVar(&f.limit, "limit", 0, "with --all-layouts: study only the first `N` classes (0: all)")
	fs.BoolVar(&f.play, "play", false, "show the optimal game move by move")
	fs.IntVar(&f.mcts, "mcts", 0, "with --play: let MCTS with `N` playouts a move play one side against the solver")
	fs.StringVar(&f.mctsSide, "mcts-side", "black", "with --mcts: the side MCTS plays, black or white")
	fs.Uint64Var(&f.seed, "seed", 1, "with --mcts: the search's random seed")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintln(stdout, `usage: solve bushi [--layout FILE] [--json] [--all-layouts | --play [--mcts N]]

Solves Bushi shogi by retrograde analysis: the value of the game from the empty board (black
places first), the value of every position after setup, and an optimal line. Positions that
neither side can force are draws.

flags:`)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return err
		}
		return cli.Usagef("%v", err)
	}
	switch {
	case fs.NArg() > 0:
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	case f.allLayouts && (f.play || f.layoutFile != ""):
		return cli.Usagef("--all-layouts studies every layout; it takes neither --layout nor --play")
	case f.mcts < 0 || f.workers < 0 || f.limit < 0:
		return cli.Usagef("--mcts, --workers and --limit must not be negative")
	case f.mcts > 0 && !f.play:
		return cli.Usagef("--mcts needs --play")
	case f.mctsSide != "black" && f.mctsSide != "white":
		return cli.Usagef("--mcts-side is %q, want black or white", f.mctsSide)
	}
	if f.allLayouts {
		return studyLayouts(f, stdout, stderr)
	}
	layout := bushi.DefaultLayout()
	if f.layoutFile != "" {
		text, err := os.ReadFile(f.layoutFile)
		if err != nil {
			return cli.Usagef("%v", err)
		}
		if layout, err = bushi.ParseLayout(string(text)); err != nil {
			return cli.Usagef("%s: %v", f.layoutFile, err)
		}
	}
	rules, err := bushi.NewRules(layout)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	sol := bushiplay.Solve(rules)
	if f.play {
		return playBushi(f, sol, stdout)
	}
	return reportBushi(f, sol, stdout)
}

// bushiReport is the JSON of solve bushi.
type bushiReport struct {
	Layout     string           `json:"layout"`
	Winner     string           `json:"winner"` // black, white or draw
	Plies      int              `json:"plies"`  // game length from the empty board, −1 for a draw
	Positions  bushiplay.Counts `json:"positions"`
	AfterSetup bushiplay.Counts `json:"after_setup"`
	Layers     []int            `json:"layers"`
	Reachable  int              `json:"reachable"`
	Line       []string         `json:"line"`
}

func reportBushi(f bushiFlags, sol *bushiplay.Solution, stdout io.Writer) error {
	rules := sol.Rules()
	start := bushi.Start()
	_, plies := sol.Value(start)
	all, setup := sol.PlayCounts()
	layers, reachable := bushiplay.Layers(rules)
	rep := bushiReport{
		Layout:     rules.Layout().Compact(),
		Winner:     sol.Result(start).String(),
		Plies:      plies,
		Positions:  all,
		AfterSetup: setup,
		Layers:     layers,
		Reachable:  reachable,
	}
	for _, m := range sol.Line(start, 200) {
		rep.Line = append(rep.Line, m.String())
	}
	if f.json {
		return json.NewEncoder(stdout).Encode(rep)
	}
	w := stdout
	fmt.Fprintf(w, "layout (face type gaze):\n%s\n", indent(rules.Layout().String()))
	switch rep.Winner {
	case "draw":
		fmt.Fprintf(w, "value from the empty board: draw (neither side can force mate)\n")
	default:
		fmt.Fprintf(w, "value from the empty board: %s wins in %d plies (2 placements and %d moves)\n", rep.Winner, plies, plies-2)
	}
	fmt.Fprintf(w, "\n%-44s %8s %8s %8s\n", "positions", "black", "white", "draw")
	row := func(name string, c bushiplay.Counts) {
		fmt.Fprintf(w, "%-44s %8d %8d %8d\n", name, c.BlackWins, c.WhiteWins, c.Draws)
	}
	row("all of play (24·24 orientations × 2 sides)", all)
	row("after a legal setup (black to move)", setup)
	fmt.Fprintf(w, "\npositions reachable from the empty board: %d; first reached at ply 0, 1, ...: %v\n", reachable, layers)
	fmt.Fprintf(w, "optimal line: %s\n", strings.Join(rep.Line, " "))
	return nil
}

func indent(text string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n  ")
}

// describe shows a cube's top face: orientation, gaze, swords and check.
func describe(r *bushi.Rules, o bushi.Orientation) string {
	face, gaze, swords := r.Top(o)
	s := make([]string, len(swords))
	for i, d := range swords {
		s[i] = d.String()
	}
	check := ""
	if r.Checks(o) {
		check = " check"
	}
	return fmt.Sprintf("%v (top %v, gaze %v, swords %s)%s", o, face, gaze, strings.Join(s, ","), check)
}

// playedMove is one ply of a shown game.
type playedMove struct {
	Ply    int    `json:"ply"`
	Player string `json:"player"`
	Move   string `json:"move"`
	By     string `json:"by"`     // solver or mcts
	Rating string `json:"rating"` // the move's value for its player, by the solver
	Black  string `json:"black"`
	White  string `json:"white"`
}

// gameReport is the JSON of solve bushi --play.
type gameReport struct {
	Layout string       `json:"layout"`
	Winner string       `json:"winner"` // black, white, or draw if the game was cut off
	Moves  []playedMove `json:"moves"`
}

// maxShownPlies cuts off a drawn game; a won game under the solver ends well before.
const maxShownPlies = 60

func playBushi(f bushiFlags, sol *bushiplay.Solution, stdout io.Writer) error {
	rules := sol.Rules()
	var player *bushiplay.Searcher
	mctsSide := bushi.Black
	if f.mctsSide == "white" {
		mctsSide = bushi.White
	}
	if f.mcts > 0 {
		var err error
		if player, err = bushiplay.NewSearcher(rules, f.mcts, f.seed); err != nil {
			return err
		}
	}
	rep := gameReport{Layout: rules.Layout().Compact(), Winner: "draw"}
	p := bushi.Start()
	var history []bushi.Move
	for ply := 1; ply <= maxShownPlies; ply++ {
		mover := p.ToMove
		var m bushi.Move
		by := "solver"
		if player != nil && mover == mctsSide {
			var err error
			if m, err = player.BestMove(history); err != nil {
				return err
			}
			by = "mcts"
		} else if best, ok := sol.BestMove(p); ok {
			m = best
		} else {
			break
		}
		v, d := sol.Rating(p, m)
		rating := v.String()
		if v != outcome.Draw {
			rating = fmt.Sprintf("%v in %d", v, d)
		}
		history = append(history, m)
		p = rules.Play(p, m)
		pm := playedMove{Ply: ply, Player: mover.String(), Move: m.String(), By: by, Rating: rating}
		if p.Phase != bushi.PlaceWhite {
			pm.White = describe(rules, p.Cube[bushi.White])
		}
		pm.Black = describe(rules, p.Cube[bushi.Black])
		rep.Moves = append(rep.Moves, pm)
		if winner, over := rules.Winner(p); over {
			rep.Winner = winner.String()
			break
		}
	}
	if f.json {
		return json.NewEncoder(stdout).Encode(rep)
	}
	fmt.Fprintf(stdout, "layout: %s\n\n%4s  %-6s %-9s %-7s %-10s  %s\n", rep.Layout, "ply", "player", "move", "by", "rating", "cubes after the move")
	for _, pm := range rep.Moves {
		fmt.Fprintf(stdout, "%4d  %-6s %-9s %-7s %-10s  black %s\n", pm.Ply, pm.Player, pm.Move, pm.By, pm.Rating, pm.Black)
		if pm.White != "" {
			fmt.Fprintf(stdout, "%43swhite %s\n", "", pm.White)
		}
	}
	if rep.Winner == "draw" {
		fmt.Fprintf(stdout, "\nno mate within %d plies: draw\n", maxShownPlies)
	} else {
		fmt.Fprintf(stdout, "\nmate: %s wins\n", rep.Winner)
	}
	return nil
}

// studyReport is the JSON of solve bushi --all-layouts.
type studyReport struct {
	Classes int                     `json:"classes"` // layouts up to rotation, solved once each
	Raw     int                     `json:"raw"`     // all layouts, 16^6 unless --limit
	Results map[string]resultReport `json:"results"` // by winner: black, white, draw
	Workers int                     `json:"workers"`
	Seconds float64                 `json:"seconds"`
}

type resultReport struct {
	Classes      int    `json:"classes"`
	Layouts      int    `json:"layouts"` // raw layouts, each class weighted by its orbit
	Example      string `json:"example,omitempty"`
	ExamplePlies int    `json:"example_plies,omitempty"` // −1 for a draw
	Longest      string `json:"longest,omitempty"`
	LongestPlies int    `json:"longest_plies,omitempty"`
}

func studyLayouts(f bushiFlags, stdout, stderr io.Writer) error {
	total := bushiplay.NumLayoutClasses
	if f.limit > 0 {
		total = min(total, f.limit)
	}
	start := time.Now()
	update, finish := cli.NewProgress(stderr, total, "solve bushi: layouts")
	st := bushiplay.StudyLayouts(bushiplay.StudyOptions{
		Workers:  f.workers,
		Limit:    f.limit,
		Progress: update,
	})
	finish()
	elapsed := time.Since(start)
	workers := f.workers
	if workers == 0 {
		workers = defaultWorkers()
	}
	rep := studyReport{Results: map[string]resultReport{}, Workers: workers, Seconds: elapsed.Seconds()}
	for _, res := range []bushiplay.Result{bushiplay.BlackWins, bushiplay.WhiteWins, bushiplay.Draw} {
		rr := resultReport{Classes: count(st.Classes, res), Layouts: count(st.Raw, res)}
		if ex := st.Example[res]; ex != nil {
			rr.Example, rr.ExamplePlies = ex.Layout.Compact(), ex.Plies
			if res != bushiplay.Draw { // a draw has no length
				rr.Longest, rr.LongestPlies = st.Longest[res].Layout.Compact(), st.Longest[res].Plies
			}
		}
		rep.Results[res.String()] = rr
		rep.Classes += rr.Classes
		rep.Raw += rr.Layouts
	}
	if f.json {
		return json.NewEncoder(stdout).Encode(rep)
	}
	w := stdout
	fmt.Fprintf(w, "%d layouts in %d classes under the cube's 24 rotations, each class solved once from the empty board\n\n", rep.Raw, rep.Classes)
	fmt.Fprintf(w, "%-11s %9s %10s\n", "winner", "classes", "layouts")
	for _, name := range []string{"black", "white", "draw"} {
		rr := rep.Results[name]
		fmt.Fprintf(w, "%-11s %9d %10d\n", name, rr.Classes, rr.Layouts)
	}
	for _, name := range []string{"black", "white", "draw"} {
		rr := rep.Results[name]
		if rr.Example == "" {
			continue
		}
		fmt.Fprintf(w, "\n%s: example (least code): %s", name, rr.Example)
		if name != "draw" {
			fmt.Fprintf(w, "  [%d plies]\n%s: longest game:        %s  [%d plies]", rr.ExamplePlies, name, rr.Longest, rr.LongestPlies)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\ntime: %.1f s on %d workers\n", rep.Seconds, rep.Workers)
	return nil
}

func count(c bushiplay.Counts, r bushiplay.Result) int {
	switch r {
	case bushiplay.BlackWins:
		return c.BlackWins
	case bushiplay.WhiteWins:
		return c.WhiteWins
	}
	return c.Draws
}

func defaultWorkers() int { return runtime.GOMAXPROCS(0) }
