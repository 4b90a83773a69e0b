package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/internal/sysmem"
	"github.com/shogilab/shogilab/record"
)

// Run is one self-play run, or one shard of it.
type Run struct {
	Match
	Games    int         // games in the whole run (all shards)
	Parallel int         // games played at once; 0 means 1
	Shard    shard.Shard // the part this process plays; the zero Shard means Whole
	OutDir   string      // where the shard's record file goes (created if missing)
	Format   Format      // of the shard's file; the zero Format means JSONL
	// AllowChanges lets a resume add games of a configuration that differs
	// from the kept games' (the resume refuses by default, naming the setting).
	AllowChanges bool
	// Progress, if set, is called from the goroutine that called Execute after
	// each game is written (and once before the first game, with the games a
	// resume kept).
	Progress func(Progress)
	// OnGame, if set, sees every game of the shard's file, from the
	// goroutine that called Execute: first the games a resumed run keeps, in
	// file order, then each game as it is written. When it returns true the
	// run stops: no further game starts, the games in flight are abandoned,
	// and Execute returns with Summary.Stopped and no error. A match that
	// reaches its verdict (an SPRT) stops this way.
	OnGame func(*record.Game) (stop bool)
}

// Progress is the state of a run for a progress display.
type Progress struct {
	Done, Total int // games in the shard's file and games the shard must hold
	Kept        int // games found in the file when the run (re)started
	Elapsed     time.Duration
	// Game is the game just written (nil in the first report), so that a
	// display can tell of an engine's failure (its record's Detail).
	Game *record.Game
}

// Summary is what Execute did.
type Summary struct {
	Path        string // the shard's record file (for Parquet, its games table)
	Shard       shard.Shard
	Total       int // the shard's games
	Kept        int // games already in the file (a resumed run)
	Played      int // games played and written by this call
	Interrupted bool
	Stopped     bool // OnGame stopped the run
}

// ErrInterrupted is returned (wrapped) by Execute when its context was
// cancelled: the finished games are written, the games in flight were
// abandoned, and running the same command again resumes.
var ErrInterrupted = errors.New("interrupted")

// Execute plays the shard's games that its file does not hold yet and
// appends them to it, one line per game, in the order they finish.
//
// In the Parquet format the games go, one line each, to a journal beside
// the shard's file (games-I-of-N.journal.jsonl), which a resume reads as it
// reads a record file; when the shard's last game is written the journal
// becomes the games and positions tables (renamed into place, so a table
// that exists is whole) and is removed.
//
// A file left by a killed run is scanned first: its complete games are
// kept (and checked to belong to this run: same ids and seeds), a partial
// last line is cut off, and only the missing ids are played. Every record
// is written with one write call as soon as its game ends, so a SIGKILL
// loses at most the games in flight, which the next run plays again from
// their seeds. When ctx is cancelled (SIGINT, SIGTERM) the games in flight
// are abandoned and Execute returns an error wrapping ErrInterrupted.
func (r *Run) Execute(ctx context.Context) (Summary, error) {
	if err := r.Match.Validate(); err != nil {
		return Summary{}, err
	}
	part := r.Shard
	if part == (shard.Shard{}) {
		part = shard.Whole
	}
	if r.Games < 0 {
		return Summary{}, fmt.Errorf("selfplay: %d games", r.Games)
	}
	if err := r.checkMemory(); err != nil {
		return Summary{}, err
	}
	lo, hi := part.IDs(r.Games)
	format := r.Format
	if format == "" {
		format = JSONL
	}
	out := newOutput(r.OutDir, part, format)
	sum := Summary{Shard: part, Total: hi - lo, Path: out.path}

	if err := os.MkdirAll(r.OutDir, 0o755); err != nil {
		return sum, fmt.Errorf("selfplay: output directory: %w", err)
	}
	for _, f := range Formats {
		if other := filepath.Join(r.OutDir, part.FileName(string(f))); f != format && fileExists(other) {
			return sum, fmt.Errorf("selfplay: %s exists: that run was made with --format %s; use the same format or another --out", other, f)
		}
	}
	unlock, err := lockShard(sum.Path)
	if err != nil {
		return sum, err
	}
	defer unlock()
	if n, finished, err := out.finished(r, lo, hi); err != nil {
		return sum, err
	} else if finished {
		// Tables hold every game of the shard, or fewer when OnGame stopped
		// the run that wrote them.
		sum.Kept, sum.Stopped = n, n < sum.Total
		return sum, nil
	}
	done, stopped, err := r.resume(ctx, out.journal, lo, hi)
	if err != nil {
		return sum, err
	}
	sum.Kept = len(done)
	if stopped {
		sum.Stopped = true
		return sum, out.finish()
	}
	w, err := record.Append(out.journal)
	if err != nil {
		return sum, fmt.Errorf("selfplay: output: %w", err)
	}
	defer w.Close()

	if r.Engines == nil {
		r.Engines = NewEnginePool()
		defer func() { r.Engines.Close(); r.Engines = nil }()
	}
	var todo []int
	for id := lo; id < hi; id++ {
		if !done[id] {
			todo = append(todo, id)
		}
	}
	began := time.Now()
	report := func(g *record.Game) {
		if r.Progress != nil {
			r.Progress(Progress{Done: sum.Kept + sum.Played, Total: sum.Total, Kept: sum.Kept, Elapsed: time.Since(began), Game: g})
		}
	}
	report(nil)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan *record.Game)
	var (
		errMu   sync.Mutex
		playErr error // the first failure; set by workers and the writer
	)
	fail := func(err error) {
		errMu.Lock()
		defer errMu.Unlock()
		if playErr == nil {
			playErr = err
			cancel()
		}
	}
	failed := func() error {
		errMu.Lock()
		defer errMu.Unlock()
		return playErr
	}
	var wg sync.WaitGroup
	for range r.workers(len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range jobs {
				g, err := r.Play(ctx, id)
				if err != nil {
					if ctx.Err() == nil {
						fail(err)
					}
					return
				}
				select {
				case results <- g:
				case <-ctx.Done():
					// Finished but not yet handed over: the writer has
					// stopped taking games, so it is played again on resume.
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, id := range todo {
			select {
			case jobs <- id:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	for g := range results {
		if failed() != nil || sum.Stopped {
			continue // draining after a failure or a stop
		}
		if err := w.Write(g); err != nil {
			fail(fmt.Errorf("selfplay: %s: %w", sum.Path, err))
			continue
		}
		sum.Played++
		report(g)
		if r.OnGame != nil && r.OnGame(g) {
			sum.Stopped = true
			cancel()
		}
	}
	if err := failed(); err != nil {
		return sum, err
	}
	if sum.Stopped {
		if err := w.Close(); err != nil {
			return sum, fmt.Errorf("selfplay: %w", err)
		}
		return sum, out.finish()
	}
	if sum.Kept+sum.Played < sum.Total {
		sum.Interrupted = true
		return sum, fmt.Errorf("selfplay: %w after %d of %d games in %s; run the same command again to resume", ErrInterrupted, sum.Kept+sum.Played, sum.Total, out.journal)
	}
	if err := w.Close(); err != nil {
		return sum, fmt.Errorf("selfplay: %w", err)
	}
	return sum, out.finish()
}

// resume reads the games a previous run left in path, cuts a partial last
// record, and returns the ids done, and whether OnGame stopped the run on
// one of them. A game that is not this run's (an id outside the shard, a
// seed that is not GameSeed of this run's base seed, an id twice) is an
// error: the directory holds another run. So is a game played with other
// settings (players, start, rules, version), unless AllowChanges: the
// records themselves store the run's configuration.
func (r *Run) resume(ctx context.Context, path string, lo, hi int) (done map[int]bool, stopped bool, err error) {
	done = map[int]bool{}
	if !fileExists(path) {
		return done, false, nil
	}
	end, err := record.ScanFile(path, func(g *record.Game) error {
		if ctx.Err() != nil {
			return fmt.Errorf("%w while reading %s", ErrInterrupted, path)
		}
		switch {
		case g.ID < lo || g.ID >= hi:
			return fmt.Errorf("%s holds game %d, outside this shard's ids %d..%d: it is another run's; use another --out", path, g.ID, lo, hi-1)
		case g.Seed != GameSeed(r.Seed, g.ID):
			return fmt.Errorf("%s holds game %d with seed %d, not this run's (base seed %d): use the same --seed or another --out", path, g.ID, g.Seed, r.Seed)
		case done[g.ID]:
			return fmt.Errorf("%s holds game %d twice", path, g.ID)
		}
		if diff := configDiff(g, r.header(g.ID)); diff != "" && !r.AllowChanges {
			return fmt.Errorf("%s holds game %d played with another %s: it is another run's; resume with the same settings, use another --out, or allow the change (--allow-changes)", path, g.ID, diff)
		}
		done[g.ID] = true
		if r.OnGame != nil && !stopped {
			stopped = r.OnGame(g)
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("selfplay: resuming: %w", err)
	}
	if err := os.Truncate(path, end); err != nil {
		return nil, false, fmt.Errorf("selfplay: resuming: %w", err)
	}
	return done, stopped, nil
}

// configDiff names the first setting in which a kept game differs from the
// game this run would play with its id (want, from Match.header), with both
// values, or returns "".
func configDiff(kept, want *record.Game) string {
	differ := func(setting string, a, b any) string {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if bytes.Equal(ja, jb) {
			return ""
		}
		return fmt.Sprintf("%s (%s in the file, %s now)", setting, ja, jb)
	}
	player := func(side string, a, b record.Player) string {
		if d := differ(side+" player", a.Kind, b.Kind); d != "" {
			return d
		}
		if d := differ(side+" player's name", a.Name, b.Name); d != "" {
			return d
		}
		keys := map[string]bool{}
		for k := range a.Config {
			keys[k] = true
		}
		for k := range b.Config {
			keys[k] = true
		}
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			if d := differ(side+" player's "+k, a.Config[k], b.Config[k]); d != "" {
				return d
			}
		}
		return ""
	}
	for _, d := range []string{
		differ("start", kept.Start, want.Start),
		differ("start name", kept.StartName, want.StartName),
		player("sente", kept.Players.Sente, want.Players.Sente),
		player("gote", kept.Players.Gote, want.Players.Gote),
		differ("repetition rule", kept.Rules.Repetition, want.Rules.Repetition),
		differ("play limit (max plies)", kept.Rules.MaxPlies, want.Rules.MaxPlies),
		differ("toolkit version", kept.Version, want.Version),
	} {
		if d != "" {
			return d
		}
	}
	return ""
}

// checkMemory refuses a run whose games, played Parallel at a time, would
// allocate more node pools than the machine can hold (see sysmem.Check).
func (r *Run) checkMemory() error {
	per := r.A.memory() + r.B.memory()
	n := r.workers(r.Games)
	if err := sysmem.Check(uint64(n) * per); err != nil {
		return fmt.Errorf("selfplay: %d games at once (--parallel), each with node pools of %d MiB: %w", n, per>>20, err)
	}
	return nil
}

// workers is how many games are played at once when games are to be played.
func (r *Run) workers(games int) int { return max(min(r.Parallel, games), 1) }

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
