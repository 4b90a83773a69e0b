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
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/shogilab/shogilab/analysis/match"
	"github.com/shogilab/shogilab/analysis/sprt"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
)

// Exit statuses: 130 after SIGINT or SIGTERM (128 + SIGINT, the shell's convention), after
// which the same command resumes the match. With --sprt, a match that ends without an error
// exits 0 when the test accepted H1, exitH0 when it accepted H0 and exitUndecided when it
// reached its game bound undecided, so that a script can tell the three apart.
const (
	exitInterrupted = cli.ExitInterrupted
	exitH0          = 3
	exitUndecided   = 4
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: match -a SPEC -b SPEC [flags]
       match -p SPEC -p SPEC -p SPEC... [flags]          a round robin
       match -a SPEC -p SPEC -p SPEC... [flags]          a gauntlet of A
       match -a SPEC -ladder datasets/ladder/ladder.json [flags]   A rated on the ladder

match plays games between players A and B from each opening twice, the colours swapped
(A is Sente in even games, Gote in odd ones), and reports A's score with its 95%% interval,
the Elo difference, normalized Elo and LOS, computed on the distinct game pairs
(pentanomial), with a live table on stderr. With --sprt it runs a sequential probability
ratio test as Fishtest does and stops when it accepts H0 or H1; it then exits 0 for H1, 3
for H0 and 4 when it reached --games undecided. Games end by the rules only (and by
resignation, engine failure or a lost clock). The records go to --out; rerun the same
command after a kill to resume.

With one thread, a node limit and no noise both players are deterministic, and a pair
from an opening used before would replay an earlier pair: such a match is refused when
--games asks for more than twice the openings (use the large book,
datasets/openings/book.sfen.gz). Other matches that reuse openings say so in the report.

With -p, every pairing of a round robin (or A against each other player in a gauntlet)
is such a match of --games games from the same openings, in OUT/A-vs-B, and the report
ends with the players' ratings by maximum likelihood. With -ladder the other players are
the ladder's anchors (Fairy-Stockfish at fixed nodes and frozen builds of this engine,
shogilab-COMMIT, built by datasets/ladder/build.sh into a directory on PATH), and A is
placed on the ladder's fixed scale with its 95%% interval.

%s`

// options are the command's flags after checking.
type options struct {
	match      selfplay.Match
	games      int
	parallel   int
	out        string
	test       *sprt.Test
	asJSON     bool
	limitsText string
	// tournament, when not nil, is a match of more than two players (tournament.go).
	tournament *tournament
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
	if opts.tournament != nil {
		return opts.tournament.run(ctx, opts, stdout, stderr)
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
	if rep.SPRT != nil {
		switch rep.SPRT.State {
		case sprt.H0:
			return exitH0
		case sprt.Continue:
			return exitUndecided
		}
	}
	return 0
}

// message is err without the prefix of package selfplay, whose front end this is.
func message(err error) string { return strings.TrimPrefix(err.Error(), "selfplay: ") }

func parse(args []string, stdout io.Writer) (*options, error) {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	a := fs.String("a", "", "player A")
	b := fs.String("b", "", "player B")
	var others []string
	fs.Func("p", "a further player (repeat it): a round robin of them all, or a gauntlet of -a against each", func(v string) error {
		others = append(others, v)
		return nil
	})
	kind := fs.String("tournament", "", "with -p: round-robin (every pair of players) or gauntlet (-a against every other player); default gauntlet with -a, round-robin without")
	ladderFile := fs.String("ladder", "", "a rating ladder (datasets/ladder/ladder.json): a gauntlet of -a against its anchors, and -a's rating on it")
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
	bookOrder := fs.String("book-order", "sequential", "order of the openings of --start @FILE: sequential (the file's order) or random (drawn from --seed)")
	repetition := fs.String("repetition", "first-mover-loses", "who loses a fourfold repetition: first-mover-loses, gote-wins or draw")
	sprtText := fs.String("sprt", "", "run an SPRT: elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=logistic|normalized]")
	out := fs.String("out", "match-out", "directory of the match's records")
	asJSON := fs.Bool("json", false, "print the report as one JSON object instead of the table")
	if err := cli.ParseHelp(fs, args, stdout, fmt.Sprintf(usage, selfplay.SpecHelp())); err != nil {
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
	case len(others) == 0 && *ladderFile == "" && (*a == "" || *b == ""):
		return nil, cli.Usagef("need both -a and -b, or players with -p or -ladder (see -h)")
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
	switch *bookOrder {
	case "sequential":
	case "random":
		openings = selfplay.ShuffleOpenings(openings, *seed)
	default:
		return nil, cli.Usagef("-book-order %q: want sequential or random", *bookOrder)
	}
	rule, err := minishogi.ParseRepetitionRule(*repetition)
	if err != nil {
		return nil, flagError("repetition", *repetition, err)
	}
	rules := minishogi.GameOptions{Repetition: rule, MaxPlies: *maxPlies}
	if len(others) > 0 || *ladderFile != "" {
		if o.test != nil {
			return nil, cli.Usagef("-sprt is for a match of two players")
		}
		t, err := parseTournament(*kind, *a, *b, others, *ladderFile, defaults)
		if err != nil {
			return nil, err
		}
		o.tournament = t
		o.match = selfplay.Match{Openings: openings, Rules: rules, Seed: *seed, TimeMargin: *margin}
		for _, m := range t.pairings(openings, rules, *seed, *margin) {
			if err := m.CheckReplays(o.games); err != nil {
				return nil, cli.Usagef("%s vs %s: %s", m.A.DisplayName(), m.B.DisplayName(), message(err))
			}
		}
		return o, nil
	}
	if *kind != "" {
		return nil, cli.Usagef("-tournament is for players given with -p")
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
		A: pa, B: pb, Pairs: true, Openings: openings, Rules: rules,
		Seed: *seed, Version: selfplay.Version(), TimeMargin: *margin,
	}
	o.limitsText = limitsText(pa) + " vs " + limitsText(pb)
	if err := o.match.CheckReplays(o.games); err != nil {
		return nil, cli.Usagef("%s", message(err))
	}
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
	st := match.NewStandings(true)
	if o.test != nil {
		st.SetTest(*o.test)
	}
	live := newLive(stderr, o)
	r := &selfplay.Run{Match: o.match, Games: o.games, Parallel: o.parallel, OutDir: o.out}
	r.Progress = func(p selfplay.Progress) { live.rate(p.Done-p.Kept, p.Elapsed) }
	began := time.Now()
	sum, err := selfplay.PlayMatch(ctx, r, st, func() { live.update(st) })
	if sum.Path == "" {
		return nil, err
	}
	return newReport(o, st, sum, time.Since(began)), err
}

// report is the match's report (package match's, the same as analyze match writes) and
// what this run of it did; its JSON keys are snake case.
type report struct {
	*match.Report
	Limits       string  `json:"limits"`
	Openings     int     `json:"openings"`
	OpeningUses  int     `json:"opening_uses"` // the most times one opening starts a pair
	Seed         uint64  `json:"seed"`
	Played       int     `json:"played"` // games played by this run (not kept from an earlier one)
	Seconds      float64 `json:"seconds"`
	GamesPerHour float64 `json:"games_per_hour"`
	Records      string  `json:"records"`
	Interrupted  bool    `json:"interrupted,omitempty"`
}

func newReport(o *options, st *match.Standings, sum selfplay.Summary, took time.Duration) *report {
	rep := &report{
		Report: st.Report(), Limits: o.limitsText, Openings: len(o.match.Openings),
		OpeningUses: o.match.OpeningUses(st.Counted), Seed: o.match.Seed,
		Played: sum.Played, Seconds: took.Seconds(), Records: sum.Path, Interrupted: sum.Interrupted,
	}
	if sum.Played > 0 && took > 0 {
		rep.GamesPerHour = float64(sum.Played) / took.Hours()
	}
	return rep
}

func (rep *report) write(w io.Writer, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(rep)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "match\t%s (A) vs %s (B), %s\n", rep.A, rep.B, rep.Limits)
	fmt.Fprintf(tw, "openings\t%d, seed %d", rep.Openings, rep.Seed)
	if rep.OpeningUses > 1 {
		fmt.Fprintf(tw, "; openings reused: one starts up to %d pairs", rep.OpeningUses)
	}
	fmt.Fprintln(tw)
	match.WriteTable(tw, rep.Report)
	fmt.Fprintf(tw, "time\t%.0f s for %d games played, %.0f games/hour\n", rep.Seconds, rep.Played, rep.GamesPerHour)
	fmt.Fprintf(tw, "records\t%s\n", rep.Records)
	return tw.Flush()
}
