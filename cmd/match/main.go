// Command match plays Minishogi games between two players and prints the score of the
// first with a 95% confidence interval.
//
//	go run ./cmd/match -a shogilab -b random -games 40 -movetime 100ms
//	go run ./cmd/match -a shogilab:playouts=2000 -b usi:/usr/games/fairy-stockfish -games 40 -movetime 100ms --json
package main

import (
	"errors"

	"github.com/shogilab/shogilab/internal/cli"

	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"sort"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/shogilab/shogilab/engine/match"
	"github.com/shogilab/shogilab/rules/minishogi"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "match: %v\n", err)
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `usage: match -a SPEC -b SPEC [flags]

match plays games between players A and B, colours alternating (A is Sente in even games),
and prints A's score with a 95%% confidence interval and the Elo difference it implies.

A player SPEC is one of
  random                         uniformly random legal moves
  shogilab[:key=value,...]       our engine; keys playouts, movetime, threads, hash (MB),
                                 cpuct, fpu, twins (auto, on, off), matedepth, name
  usi:PATH[,key=value,...]       an external USI engine; keys movetime, nodes, name,
                                 option.NAME=VALUE (UCI_Variant=minishogi is set by itself)
Per-move limits not in a spec come from -movetime or -playouts.

`)
		fs.PrintDefaults()
	}
	a := fs.String("a", "", "player A (required)")
	b := fs.String("b", "", "player B (required)")
	games := fs.Int("games", 40, "number of games")
	moveTime := fs.Duration("movetime", 100*time.Millisecond, "think time per move (0: use -playouts)")
	playouts := fs.Int64("playouts", 0, "playouts per move for our engine, nodes for USI engines, when -movetime is 0")
	threads := fs.Int("threads", 1, "search goroutines of our engine")
	seed := fs.Uint64("seed", 1, "base seed of the games")
	maxPlies := fs.Int("max-plies", match.DefaultMaxPlies, "a game that reaches this many plies is a draw")
	start := fs.String("start", "startpos", "start position: startpos, a handicap name, or an SFEN")
	repetition := fs.String("repetition", "first-mover-loses", "repetition rule: first-mover-loses, gote-wins or draw")
	asJSON := fs.Bool("json", false, "print one JSON object (summary and games) instead of the table")
	if err := cli.ParseFlags(fs, args, stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case *a == "" || *b == "":
		return fmt.Errorf("need both -a and -b (see -h)")
	case *games < 1:
		return fmt.Errorf("-games %d: need at least 1", *games)
	case *moveTime <= 0 && *playouts <= 0:
		return fmt.Errorf("need -movetime or -playouts")
	case *maxPlies < 1:
		return fmt.Errorf("-max-plies %d: need at least 1", *maxPlies)
	}
	pos, err := minishogi.NamedStart(*start)
	if err != nil {
		if pos, err = minishogi.ParseSFEN(*start); err != nil {
			return fmt.Errorf("-start: %v", err)
		}
	}
	rule, err := minishogi.ParseRepetitionRule(*repetition)
	if err != nil {
		return fmt.Errorf("-repetition: %v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	d := match.Defaults{MoveTime: *moveTime, Playouts: *playouts, Threads: *threads}
	pa, err := match.ParsePlayer(ctx, *a, d)
	if err != nil {
		return err
	}
	defer pa.Close()
	pb, err := match.ParsePlayer(ctx, *b, d)
	if err != nil {
		return err
	}
	defer pb.Close()

	progress := newProgress(stderr, *games)
	res, err := match.Play(ctx, pa, pb, match.Options{
		Games:  *games,
		Seed:   *seed,
		Start:  pos,
		Rules:  minishogi.GameOptions{Repetition: rule, MaxPlies: *maxPlies},
		OnGame: progress,
	})
	if err != nil && len(res.Games) == 0 {
		return err
	}
	limit := fmt.Sprintf("movetime %v", *moveTime)
	if *moveTime <= 0 {
		limit = fmt.Sprintf("playouts %d", *playouts)
	}
	if *asJSON {
		out := struct {
			Limit   string       `json:"limit"`
			Seed    uint64       `json:"seed"`
			Start   string       `json:"start"`
			Summary jsonSummary  `json:"summary"`
			Games   []match.Game `json:"games"`
			Error   string       `json:"error,omitempty"`
		}{limit, *seed, pos.SFEN(), toJSON(res.Summary), res.Games, errString(err)}
		enc := json.NewEncoder(stdout)
		if e := enc.Encode(out); e != nil {
			return e
		}
	} else {
		printTable(stdout, res.Summary, limit)
	}
	return err
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// jsonSummary is Summary with the infinite Elo ends of a whitewash written as null.
type jsonSummary struct {
	match.Summary
	Elo     *float64 `json:"Elo"`
	EloLow  *float64 `json:"EloLow"`
	EloHigh *float64 `json:"EloHigh"`
}

func toJSON(s match.Summary) jsonSummary {
	finite := func(x float64) *float64 {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
		return &x
	}
	return jsonSummary{s, finite(s.Elo), finite(s.EloLow), finite(s.EloHigh)}
}

func printTable(w io.Writer, s match.Summary, limit string) {
	fmt.Fprintf(w, "%s vs %s, %d games, %s\n", s.A, s.B, s.Games, limit)
	fmt.Fprintf(w, "%-22s %d / %d / %d\n", "A wins / draws / losses", s.WinsA, s.Draws, s.LossesA)
	fmt.Fprintf(w, "%-22s %.3f  (95%% CI %.3f .. %.3f)\n", "A score", s.Score, s.Low, s.High)
	fmt.Fprintf(w, "%-22s %+.0f  (95%% CI %+.0f .. %+.0f)\n", "Elo difference", s.Elo, s.EloLow, s.EloHigh)
	fmt.Fprintf(w, "%-22s %.1f\n", "mean plies", s.MeanPlies)
	terms := make([]string, 0, len(s.Terminations))
	for t := range s.Terminations {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	for _, t := range terms {
		fmt.Fprintf(w, "  %-20s %d\n", t, s.Terminations[t])
	}
}

// newProgress reports each finished game: a progress bar when stderr is a terminal, a
// plain line per game otherwise (logs of batch jobs).
func newProgress(stderr io.Writer, games int) func(match.Game) {
	if f, ok := stderr.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			bar := progressbar.NewOptions(games, progressbar.OptionSetWriter(stderr),
				progressbar.OptionSetDescription("games"), progressbar.OptionShowCount(),
				progressbar.OptionClearOnFinish())
			return func(match.Game) { bar.Add(1) }
		}
	}
	var score float64
	done := 0
	return func(g match.Game) {
		done++
		score += g.ScoreA
		fmt.Fprintf(stderr, "game %d/%d: %s by %s in %d plies (A score %.1f/%d)\n",
			done, games, g.Result, g.Termination, len(g.Moves), score, done)
	}
}
