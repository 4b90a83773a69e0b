// Command match plays a match between two players — the toolkit's engine in any
// configuration, any USI engine, or a random mover — and says which is the stronger: A's
// score, Elo with its 95% interval and LOS, and with --sprt a sequential test that stops
// itself, as Fishtest runs them. It is a front end of package selfplay: the games are
// ordinary records in --out (analyze games, analyze ratings and selfplay export read them),
// a killed match resumes, and the statistics are package sprt's.
//
//	go run ./cmd/match -a mcts -b random -games 40 -movetime 100ms
//	go run ./cmd/match -a mcts:CPuct=1.5 -b mcts -nodes 2000 -start @datasets/openings/balanced.sfen \
//	    -games 2000 -parallel 2 -sprt elo0=0,elo1=10 -out cpuct-test
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
)

// Exit statuses: 130 after SIGINT or SIGTERM (128 + SIGINT, the shell's convention), after
// which the same command resumes the match.
const exitInterrupted = cli.ExitInterrupted

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: match -a SPEC -b SPEC [flags]

match plays games between players A and B from each opening twice, the colours swapped
(A is Sente in even games, Gote in odd ones), and reports A's score with its 95%% interval,
the Elo difference, normalized Elo and LOS, computed on the game pairs (pentanomial), with a
live table on stderr. With --sprt it runs a sequential probability ratio test as Fishtest
does and stops when it accepts H0 or H1. Games end by the rules only (and by resignation,
engine failure or a lost clock). The records go to --out; rerun the same command after a
kill to resume.

%s
Flags:
`

// options are the command's flags after checking.
type options struct {
	match      selfplay.Match
	games      int
	parallel   int
	out        string
	test       *sprt.Test
	asJSON     bool
	limitsText string
}

func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts, err := parse(args, stdout)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(cli.UsageError)):
		fmt.Fprintf(stderr, "match: %v\n", err)
		return cli.ExitUsage
	case err != nil:
		fmt.Fprintf(stderr, "match: %v\n", message(err))
		return cli.ExitFailure
	}
	rep, err := play(ctx, opts, stderr)
	if rep != nil {
		if e := rep.write(stdout, opts.asJSON); e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "match: %v\n", message(err))
		if errors.Is(err, selfplay.ErrInterrupted) || ctx.Err() != nil {
			return exitInterrupted
		}
		return cli.ExitFailure
	}
	return 0
}

// message is err without the prefix of package selfplay, whose front end this is.
func message(err error) string { return strings.TrimPrefix(err.Error(), "selfplay: ") }

func parse(args []string, stdout io.Writer) (*options, error) {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), usage, selfplay.SpecHelp())
		fs.PrintDefaults()
	}
	a := fs.String("a", "", "player A (required)")
	b := fs.String("b", "", "player B (required)")
	games := fs.Int("games", 40, "games to play; with --sprt the most it may play")
	moveTime := fs.Duration("movetime", 100*time.Millisecond, "think time per move of a player without a limit of its own (0: none)")
	nodes := fs.Int64("nodes", 0, "nodes (playouts for our engine) per move of a player without a limit of its own")
	playouts := fs.Int64("playouts", 0, "the same as --nodes")
	clock := fs.Duration("time", 0, "main time on each player's clock, for players without a limit of their own")
	inc := fs.Duration("inc", 0, "time added to a player's clock after each of its moves")
	byoyomi := fs.Duration("byoyomi", 0, "time per move once a player's main time is spent")
	margin := fs.Duration("time-margin", 0, "how far a player may overstep its clock before it loses on time")
	threads := fs.Int("threads", 1, "search threads of our engine, unless a spec sets Threads")
	parallel := fs.Int("parallel", 1, "games played at once (a timed match wants a core per engine)")
	seed := fs.Uint64("seed", 1, "base seed of the games (with one thread and node limits the games replay exactly)")
	maxPlies := fs.Int("max-plies", 300, "a game that reaches this many plies is a draw (0: no limit)")
	start := fs.String("start", "startpos", "start: startpos, a handicap name, an SFEN, or @FILE of SFEN openings, each played twice")
	repetition := fs.String("repetition", "first-mover-loses", "who loses a fourfold repetition: first-mover-loses, gote-wins or draw")
	sprtText := fs.String("sprt", "", "run an SPRT: elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=logistic|normalized]")
	out := fs.String("out", "match-out", "directory of the match's records")
	asJSON := fs.Bool("json", false, "print the report as one JSON object instead of the table")
	if err := cli.ParseFlags(fs, args, stdout); err != nil {
		return nil, err
	}
	if *playouts != 0 {
		if *nodes != 0 && *nodes != *playouts {
			return nil, cli.Usagef("--nodes %d and --playouts %d disagree (they are one setting)", *nodes, *playouts)
		}
		*nodes = *playouts
	}
	switch {
	case fs.NArg() > 0:
		return nil, cli.Usagef("unexpected argument %q", fs.Arg(0))
	case *a == "" || *b == "":
		return nil, cli.Usagef("need both -a and -b (see -h)")
	case *games < 1:
		return nil, cli.Usagef("-games %d: need at least 1", *games)
	case *parallel < 1:
		return nil, cli.Usagef("-parallel %d: need at least 1", *parallel)
	case *maxPlies < 0:
		return nil, cli.Usagef("-max-plies %d is negative", *maxPlies)
	case *moveTime < 0 || *nodes < 0 || *clock < 0 || *inc < 0 || *byoyomi < 0 || *margin < 0:
		return nil, cli.Usagef("a limit is negative")
	}
	if err := cli.CheckOutputDir(*out); err != nil {
		return nil, err
	}
	o := &options{games: *games, parallel: *parallel, out: *out, asJSON: *asJSON}
	// The default movetime is for players without any other limit; a movetime given with
	// --nodes applies too (whichever ends the search first).
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	defaults := selfplay.PlayerSpec{Limits: selfplay.Limits{Nodes: *nodes, Time: *clock, Inc: *inc, Byoyomi: *byoyomi}}
	if given["movetime"] || (*nodes == 0 && !defaults.Limits.Clock()) {
		defaults.Limits.MoveTime = *moveTime
	}
	if err := defaults.SetOption("Threads", fmt.Sprint(*threads)); err != nil {
		return nil, flagError("threads", fmt.Sprint(*threads), err)
	}
	if *sprtText != "" {
		t, err := sprt.Parse(*sprtText)
		if err != nil {
			return nil, flagError("sprt", *sprtText, err)
		}
		o.test = &t
	}
	openings, err := selfplay.ParseStart(*start)
	if err != nil {
		return nil, flagError("start", *start, err)
	}
	rule, err := minishogi.ParseRepetitionRule(*repetition)
	if err != nil {
		return nil, flagError("repetition", *repetition, err)
	}
	pa, err := selfplay.ParsePlayerSpec(*a, defaults)
	if err != nil {
		return nil, flagError("a", *a, err)
	}
	pb, err := selfplay.ParsePlayerSpec(*b, defaults)
	if err != nil {
		return nil, flagError("b", *b, err)
	}
	if pa.DisplayName() == pb.DisplayName() && pa.Name == "" {
		pa.Name = pa.DisplayName() + "-A" // tell the two apart in tables
	}
	o.match = selfplay.Match{
		A: pa, B: pb, Pairs: true, Openings: openings,
		Rules: minishogi.GameOptions{Repetition: rule, MaxPlies: *maxPlies},
		Seed:  *seed, Version: selfplay.Version(), TimeMargin: *margin,
	}
	o.limitsText = limitsText(pa) + " vs " + limitsText(pb)
	return o, nil
}

// flagError is a usage error naming the flag and its value, with the package's prefix of
// err left out ("--sprt "elo0=5,elo1=0": elo0=5 must be below elo1=0").
func flagError(name, value string, err error) error {
	msg := err.Error()
	for _, prefix := range []string{"sprt: ", "selfplay: ", "minishogi: ", "engine: "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	if p, ok := strings.CutPrefix(msg, fmt.Sprintf("player %q: ", value)); ok {
		msg = p // the spec is quoted already
	}
	if p, ok := strings.CutPrefix(msg, fmt.Sprintf("--start %q: ", value)); ok {
		msg = p
	}
	return cli.Usagef("-%s %q: %s", name, value, msg)
}

// limitsText describes a player's budget.
func limitsText(s selfplay.PlayerSpec) string {
	if s.Kind == record.KindRandom {
		return "random moves"
	}
	l := s.Limits
	var parts []string
	if l.MoveTime > 0 {
		parts = append(parts, "movetime "+l.MoveTime.String())
	}
	if l.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("nodes %d", l.Nodes))
	}
	if l.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", l.Depth))
	}
	if l.Clock() {
		c := l.Time.String()
		if l.Inc > 0 {
			c += "+" + l.Inc.String()
		}
		if l.Byoyomi > 0 {
			c += " byoyomi " + l.Byoyomi.String()
		}
		parts = append(parts, "clock "+c)
	}
	if len(parts) == 0 {
		return "no limit"
	}
	return strings.Join(parts, ", ")
}

// play runs the match and returns its report, also when it was interrupted.
func play(ctx context.Context, o *options, stderr io.Writer) (*report, error) {
	for _, s := range []selfplay.PlayerSpec{o.match.A, o.match.B} {
		if err := s.CheckEngine(ctx); err != nil {
			return nil, err
		}
	}
	st := selfplay.NewStandings(&o.match)
	var seq *sprt.Sequence
	var verdict *sprt.Verdict
	if o.test != nil {
		seq = sprt.NewSequence(*o.test)
	}
	live := newLive(stderr, o)
	r := &selfplay.Run{Match: o.match, Games: o.games, Parallel: o.parallel, OutDir: o.out}
	began := time.Now()
	r.OnGame = func(g *record.Game) bool {
		if st.Add(g) && seq != nil {
			v := seq.Update(st.Pairs)
			verdict = &v
		}
		live.update(st, verdict)
		return verdict != nil && verdict.State != sprt.Continue
	}
	r.Progress = func(p selfplay.Progress) { live.rate(p.Done-p.Kept, p.Elapsed) }
	sum, err := r.Execute(ctx)
	if sum.Path == "" {
		return nil, err
	}
	rep := newReport(o, st, verdict, sum, time.Since(began))
	return rep, err
}

// report is what the match found; its JSON keys are snake case.
type report struct {
	A            string                     `json:"a"`
	B            string                     `json:"b"`
	Limits       string                     `json:"limits"`
	Openings     int                        `json:"openings"`
	Seed         uint64                     `json:"seed"`
	Games        int                        `json:"games"`
	Pairs        int                        `json:"pairs"`
	Wins         int                        `json:"wins"`
	Draws        int                        `json:"draws"`
	Losses       int                        `json:"losses"`
	Pentanomial  sprt.Pentanomial           `json:"pentanomial"`
	Estimate     estimateJSON               `json:"estimate"`
	SPRT         *sprtJSON                  `json:"sprt,omitempty"`
	MeanPlies    float64                    `json:"mean_plies"`
	Terminations map[record.Termination]int `json:"terminations"`
	Played       int                        `json:"played"` // games played by this run (not kept from an earlier one)
	Seconds      float64                    `json:"seconds"`
	GamesPerHour float64                    `json:"games_per_hour"`
	Records      string                     `json:"records"`
	Interrupted  bool                       `json:"interrupted,omitempty"`
}

// estimateJSON is sprt.Result with the infinite or undefined values as null.
type estimateJSON struct {
	Score     float64  `json:"score"`
	ScoreLow  float64  `json:"score_low"`
	ScoreHigh float64  `json:"score_high"`
	Elo       *float64 `json:"elo"`
	EloLow    *float64 `json:"elo_low"`
	EloHigh   *float64 `json:"elo_high"`
	NElo      *float64 `json:"nelo"`
	NEloLow   *float64 `json:"nelo_low"`
	NEloHigh  *float64 `json:"nelo_high"`
	LOS       *float64 `json:"los"`
	result    sprt.Result
}

// sprtJSON is the test and where it stands.
type sprtJSON struct {
	Elo0  float64    `json:"elo0"`
	Elo1  float64    `json:"elo1"`
	Alpha float64    `json:"alpha"`
	Beta  float64    `json:"beta"`
	Model sprt.Model `json:"model"`
	sprt.Verdict
}

func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

func newReport(o *options, st *selfplay.Standings, v *sprt.Verdict, sum selfplay.Summary, took time.Duration) *report {
	e := st.Estimate()
	rep := &report{
		A: o.match.A.DisplayName(), B: o.match.B.DisplayName(), Limits: o.limitsText,
		Openings: len(o.match.Openings), Seed: o.match.Seed,
		Games: st.Played(), Pairs: st.Pairs.Pairs(), Wins: st.Games.Wins, Draws: st.Games.Draws, Losses: st.Games.Losses,
		Pentanomial: st.Pairs, Terminations: st.Terminations, Played: sum.Played, Seconds: took.Seconds(),
		Records: sum.Path, Interrupted: sum.Interrupted,
		Estimate: estimateJSON{Score: e.Score, ScoreLow: e.ScoreLow, ScoreHigh: e.ScoreHigh,
			Elo: finite(e.Elo), EloLow: finite(e.EloLow), EloHigh: finite(e.EloHigh),
			NElo: finite(e.NElo), NEloLow: finite(e.NEloLow), NEloHigh: finite(e.NEloHigh), LOS: finite(e.LOS), result: e},
	}
	if math.IsNaN(e.Score) {
		rep.Estimate.Score, rep.Estimate.ScoreLow, rep.Estimate.ScoreHigh = 0, 0, 1
	}
	if rep.Games > 0 {
		rep.MeanPlies = float64(st.Plies) / float64(rep.Games)
	}
	if sum.Played > 0 && took > 0 {
		rep.GamesPerHour = float64(sum.Played) / took.Hours()
	}
	if o.test != nil {
		verdict := sprt.Verdict{State: sprt.Continue}
		if v != nil {
			verdict = *v
		} else {
			verdict.Lower, verdict.Upper = o.test.Bounds()
		}
		t := o.test
		rep.SPRT = &sprtJSON{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta, Model: t.Model, Verdict: verdict}
	}
	return rep
}

func (rep *report) write(w io.Writer, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(rep)
	}
	e := rep.Estimate.result
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "match\t%s (A) vs %s (B), %s\n", rep.A, rep.B, rep.Limits)
	fmt.Fprintf(tw, "games\t%d (%d pairs) from %d openings, seed %d\n", rep.Games, rep.Pairs, rep.Openings, rep.Seed)
	fmt.Fprintf(tw, "A wins / draws / losses\t%d / %d / %d\n", rep.Wins, rep.Draws, rep.Losses)
	p := rep.Pentanomial
	fmt.Fprintf(tw, "pairs by A's points 0, ½, 1, 1½, 2\t%d, %d, %d, %d, %d\n", p[0], p[1], p[2], p[3], p[4])
	if e.Games > 0 {
		fmt.Fprintf(tw, "A score\t%.3f (95%% interval %.3f .. %.3f)\n", e.Score, e.ScoreLow, e.ScoreHigh)
		fmt.Fprintf(tw, "Elo (logistic)\t%s (95%% interval %s .. %s)\n", eloText(e.Elo), eloText(e.EloLow), eloText(e.EloHigh))
		fmt.Fprintf(tw, "normalized Elo\t%s (95%% interval %s .. %s)\n", eloText(e.NElo), eloText(e.NEloLow), eloText(e.NEloHigh))
		fmt.Fprintf(tw, "LOS\t%.1f%%\n", 100*e.LOS)
	}
	if s := rep.SPRT; s != nil {
		state := map[sprt.State]string{sprt.H0: "H0 accepted", sprt.H1: "H1 accepted", sprt.Continue: "no verdict yet"}[s.State]
		fmt.Fprintf(tw, "SPRT\t%s: LLR %.2f (bounds %.2f, %.2f), %s Elo [%g, %g], α %g, β %g\n",
			state, s.LLR, s.Lower, s.Upper, s.Model, s.Elo0, s.Elo1, s.Alpha, s.Beta)
	}
	fmt.Fprintf(tw, "mean plies\t%.1f\n", rep.MeanPlies)
	for _, t := range record.Terminations() {
		if n := rep.Terminations[t]; n > 0 {
			fmt.Fprintf(tw, "  %s\t%d\n", t, n)
		}
	}
	fmt.Fprintf(tw, "time\t%.0f s for %d games played, %.0f games/hour\n", rep.Seconds, rep.Played, rep.GamesPerHour)
	fmt.Fprintf(tw, "records\t%s\n", rep.Records)
	return tw.Flush()
}

// eloText writes an Elo difference with its sign, or ±inf.
func eloText(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.1f", x)
}
