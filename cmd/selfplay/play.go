package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/internal/cputime"
	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/selfplay"
)

const playUsage = `usage: selfplay [run] [flags]

Plays --games games between --sente and --gote and appends their records to
OUT/games-I-of-N.jsonl (.jsonl.gz with --gzip; with --format parquet, to a
journal that becomes the Parquet tables games-I-of-N.parquet and
positions-I-of-N.parquet when the shard is done). Game id's seed follows from
--seed and the id alone, so the records do not depend on --parallel or on the
sharding (with one search thread per game). Run the same command again after a
kill to finish the run: finished games are kept, a partial record is cut, and
only the missing games are played; a resume with other settings (players,
start, rules) is refused, naming the setting, unless --allow-changes. A second
run on the same shard and directory at once is refused. SIGINT and SIGTERM
stop cleanly (exit 130).

Players (--sente, --gote): see below. For example
--gote 'usi:/usr/games/fairy-stockfish,nodes=20000,option.Threads=1'. A player
without a limit gets --movetime, or else --playouts (nodes for a usi engine); an
mcts player gets --threads, --noise, --temperature-plies and --resign unless its
spec sets Threads, Noise, TemperaturePlies or Resign, and likewise --gumbel
(GumbelMoves), --forced-playouts (ForcedPlayouts) and the playout cap (cap-fast,
cap-prob) with the playouts.

Training targets (issue 32; datasets/README.md, MoveStats): --gumbel plays each
move with a Gumbel root (Danihelka et al. 2022) and records its improved policy;
--cap-fast n gives a move the full search (--cap-full or --playouts playouts)
with probability --cap-prob, else a fast search of n playouts without noise,
marked "fast": true in the record and not a policy target (KataGo). For example
  selfplay --gumbel --gumbel-moves 8 --cap-full 64 --cap-fast 16 --cap-prob 0.25

Sharding: --shard i/n, or from a Slurm job array (SLURM_ARRAY_TASK_ID is the shard;
the count is --shards N, or the array's range 0..SLURM_ARRAY_TASK_MAX: --array=0-7 is 8
shards, and a task resubmitted alone with --array=2 needs --shards 8), or from a Kubernetes
Indexed Job (JOB_COMPLETION_INDEX with --shards N).

%s`

func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	games := fs.Int("games", 100, "games in the whole run (all shards)")
	parallel := fs.Int("parallel", runtime.NumCPU(), "games played at once")
	threads := fs.Int("threads", 1, "search threads per game of an mcts player (1 keeps records reproducible)")
	playouts := fs.Int64("playouts", 400, "mcts playouts per move")
	movetime := fs.Duration("movetime", 0, "time per move instead of playouts (e.g. 100ms); not reproducible")
	seed := fs.Uint64("seed", 1, "base seed of the run")
	start := fs.String("start", "startpos", "startpos, a handicap ("+joinNames()+"), or @FILE of SFEN openings used in turn")
	tempPlies := fs.Int("temperature-plies", 10, "mcts: plies at the start of a game whose moves are drawn in proportion to visits")
	noise := fs.Float64("noise", 0.25, "mcts: weight of Dirichlet noise in the root priors (0 turns it off)")
	gumbel := fs.Bool("gumbel", false, "mcts: a Gumbel root (setting GumbelMoves = --gumbel-moves): sampled moves and sequential halving in place of Dirichlet noise and temperature, whose flags then default to 0; the records keep its policy targets")
	gumbelMoves := fs.Int("gumbel-moves", 16, "mcts: with --gumbel, the moves the root samples (m)")
	forced := fs.Float64("forced-playouts", 0, "mcts: KataGo's forced playouts k at a root with --noise, pruned from the policy target again (0: off; KataGo used 2)")
	capFull := fs.Int64("cap-full", 0, "mcts: with --cap-fast, the playouts of a full search (default --playouts)")
	capFast := fs.Int64("cap-fast", 0, "mcts: playout cap randomization (KataGo): the playouts of a fast search, played without root noise and not a policy target (0: every move a full search)")
	capProb := fs.Float64("cap-prob", 0.25, "mcts: with --cap-fast, the probability that a move gets the full search and becomes a policy target")
	resign := fs.String("resign", "proven", "mcts: when to resign: proven (when every move is proven lost) or never (play lost games to their end, so that game lengths count plies to the end)")
	maxPlies := fs.Int("max-plies", 256, "play limit: a game reaching it is a draw (0: none)")
	repetition := fs.String("repetition", "first-mover-loses", "non-check fourfold repetition: first-mover-loses, gote-wins or draw")
	out := fs.String("out", "selfplay-out", "output directory")
	shardFlag := fs.String("shard", "", "this process's shard i/n (default: from Slurm or Kubernetes, else 0/1)")
	shards := fs.Int("shards", 0, "shard count of the run, with a Slurm array task's or a Kubernetes Indexed Job's index as the shard")
	gzip := fs.Bool("gzip", false, "write .jsonl.gz (the same as --format jsonl.gz)")
	formatName := fs.String("format", "jsonl", "output `format`: jsonl, jsonl.gz or parquet (games and positions tables)")
	sente := fs.String("sente", "mcts", "player of Sente")
	gote := fs.String("gote", "mcts", "player of Gote")
	jsonOut := fs.Bool("json", false, "print the summary as one JSON object")
	progressEvery := fs.Duration("progress-interval", 10*time.Second, "period of the progress lines when stderr is not a terminal")
	cpuLog := fs.String("cpu-log", "", "when the run ends, finished or stopped, append a line of JSON with its shard, games played, wall and CPU seconds to `FILE` (selfplay.CPULine; for a cluster's accounting of CPU-hours)")
	allowChanges := fs.Bool("allow-changes", false, "let a resume add games whose settings differ from the games already in the output")
	if err := cli.ParseHelp(fs, args, stdout, fmt.Sprintf(playUsage, selfplay.SpecHelp())); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	switch {
	case *games < 0:
		return cli.Usagef("--games %d is negative", *games)
	case *parallel < 1:
		return cli.Usagef("--parallel %d: want at least 1", *parallel)
	case *threads < 1:
		return cli.Usagef("--threads %d: want at least 1", *threads)
	case *maxPlies < 0:
		return cli.Usagef("--max-plies %d is negative", *maxPlies)
	case *movetime < 0 || *playouts < 0 || *capFull < 0 || *capFast < 0:
		return cli.Usagef("negative budget per move")
	case *gumbelMoves < 1:
		return cli.Usagef("--gumbel-moves %d: want at least 1", *gumbelMoves)
	case *capFull > 0 && *capFast == 0:
		return cli.Usagef("--cap-full without --cap-fast")
	case *capFast > 0 && *movetime > 0:
		return cli.Usagef("--cap-fast and --movetime: a playout cap divides a budget of playouts")
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *gumbel {
		// The Gumbels are the noise and the sampling: no Dirichlet noise, no temperature.
		if !given["noise"] {
			*noise = 0
		}
		if !given["temperature-plies"] {
			*tempPlies = 0
		}
	}
	format, err := selfplay.ParseFormat(*formatName)
	if err != nil {
		return fmt.Errorf("%w (--format)", err)
	}
	if *gzip {
		if format != selfplay.JSONL && format != selfplay.JSONLGzip {
			return cli.Usagef("--gzip and --format %s: choose one", format)
		}
		format = selfplay.JSONLGzip
	}
	openings, err := selfplay.ParseStart(*start)
	if err != nil {
		return err
	}
	rep, err := minishogi.ParseRepetitionRule(*repetition)
	if err != nil {
		return fmt.Errorf("--repetition: %w", err)
	}
	defaults := selfplay.PlayerSpec{Limits: selfplay.Limits{Nodes: *playouts, MoveTime: *movetime}}
	if *movetime > 0 {
		defaults.Limits.Nodes = 0
	}
	if *capFast > 0 {
		if *capFull > 0 {
			defaults.Limits.Nodes = *capFull
		}
		defaults.Cap = selfplay.PlayoutCap{Fast: *capFast, Prob: *capProb}
	}
	options := []struct{ flag, setting, value string }{
		{"threads", "Threads", fmt.Sprint(*threads)},
		{"noise", "Noise", fmt.Sprint(*noise)},
		{"temperature-plies", "TemperaturePlies", fmt.Sprint(*tempPlies)},
		{"resign", "Resign", *resign},
	}
	if *gumbel {
		options = append(options, struct{ flag, setting, value string }{"gumbel-moves", "GumbelMoves", fmt.Sprint(*gumbelMoves)})
	}
	if *forced > 0 {
		options = append(options, struct{ flag, setting, value string }{"forced-playouts", "ForcedPlayouts", fmt.Sprint(*forced)})
	}
	for _, o := range options {
		if err := defaults.SetOption(o.setting, o.value); err != nil {
			return fmt.Errorf("%w (--%s)", err, o.flag)
		}
	}
	senteSpec, err := selfplay.ParsePlayerSpec(*sente, defaults)
	if err != nil {
		return fmt.Errorf("%w (--sente)", err)
	}
	goteSpec, err := selfplay.ParsePlayerSpec(*gote, defaults)
	if err != nil {
		return fmt.Errorf("%w (--gote)", err)
	}
	if err := cli.CheckOutputDir(*out); err != nil {
		return err
	}
	part, ok, err := shard.Select(*shardFlag, *shards, os.Getenv)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	if !ok {
		part = shard.Whole
	}
	for _, s := range []selfplay.PlayerSpec{senteSpec, goteSpec} {
		if err := s.CheckEngine(ctx); err != nil {
			return err
		}
	}

	r := &selfplay.Run{
		Match: selfplay.Match{
			A: senteSpec, B: goteSpec, Openings: openings,
			Rules: minishogi.GameOptions{Repetition: rep, MaxPlies: *maxPlies},
			Seed:  *seed, Version: selfplay.Version(),
		},
		Games: *games, Parallel: *parallel, Shard: part, OutDir: *out, Format: format,
		AllowChanges: *allowChanges,
	}
	prog := newProgress(stderr, "games", *progressEvery)
	r.Progress = prog.update
	began, cpu := time.Now(), cputime.Seconds()
	sum, err := r.Execute(ctx)
	prog.finish()
	if *cpuLog != "" {
		l := selfplay.CPULine{Shard: part.String(), Played: sum.Played, Wall: time.Since(began).Seconds(), CPU: cputime.Seconds() - cpu}
		if lerr := selfplay.AppendCPULog(*cpuLog, l); lerr != nil {
			return errors.Join(err, lerr)
		}
	}
	if err != nil {
		return err
	}
	return report(stdout, sum, time.Since(began), *jsonOut)
}

func joinNames() string {
	s := ""
	for i, n := range minishogi.HandicapNames() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// runReport is the --json summary of a run.
type runReport struct {
	File         string                     `json:"file"`
	Shard        string                     `json:"shard"`
	Games        int                        `json:"games"`
	Kept         int                        `json:"kept"`
	Played       int                        `json:"played"`
	Seconds      float64                    `json:"seconds"`
	GamesPerHour float64                    `json:"games_per_hour"`
	Plies        int                        `json:"plies"`
	Bytes        int64                      `json:"bytes"`
	Results      map[record.Result]int      `json:"results"`
	Terminations map[record.Termination]int `json:"terminations"`
}

// report verifies the shard's file (so every run checks its own records
// with the rules) and prints what it holds.
func report(w io.Writer, sum selfplay.Summary, took time.Duration, asJSON bool) error {
	v, err := selfplay.Verify(context.Background(), []string{sum.Path}, selfplay.VerifyOptions{})
	if err != nil {
		return err
	}
	if v.Games != sum.Total {
		return fmt.Errorf("%s holds %d games, want %d", sum.Path, v.Games, sum.Total)
	}
	rep := runReport{
		File: sum.Path, Shard: sum.Shard.String(), Games: v.Games, Kept: sum.Kept, Played: sum.Played,
		Seconds: took.Seconds(), Plies: v.Plies, Results: v.Results, Terminations: v.Terminations,
	}
	files := []string{sum.Path}
	if table.IsParquet(sum.Path) {
		files = append(files, table.PositionsPath(sum.Path)) // the records' statistics
	}
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			rep.Bytes += st.Size()
		}
	}
	if sum.Played > 0 && took > 0 {
		rep.GamesPerHour = float64(sum.Played) / took.Hours()
	}
	if asJSON {
		return json.NewEncoder(w).Encode(rep)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", rep.File)
	fmt.Fprintf(tw, "shard\t%s\n", rep.Shard)
	fmt.Fprintf(tw, "games\t%d (kept %d, played %d)\n", rep.Games, rep.Kept, rep.Played)
	fmt.Fprintf(tw, "time\t%.1f s, %.0f games/hour\n", rep.Seconds, rep.GamesPerHour)
	fmt.Fprintf(tw, "plies\t%d (%.1f a game)\n", rep.Plies, float64(rep.Plies)/float64(max(rep.Games, 1)))
	fmt.Fprintf(tw, "bytes\t%d (%.0f a game)\n", rep.Bytes, float64(rep.Bytes)/float64(max(rep.Games, 1)))
	fmt.Fprintf(tw, "results\tsente %d, gote %d, draw %d\n", rep.Results[record.Sente], rep.Results[record.Gote], rep.Results[record.Draw])
	for _, t := range record.Terminations() {
		if n := rep.Terminations[t]; n > 0 {
			fmt.Fprintf(tw, "  %s\t%d\n", t, n)
		}
	}
	return tw.Flush()
}
