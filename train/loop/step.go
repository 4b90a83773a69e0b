package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cputime"
)

// The steps of a generation, in order, each written once (steps.go has their bodies):
// the name is the step's result file, RUN/gen-NNN/NAME.json, and what Hook is told.
const (
	StepSelfplay = "selfplay" // the best plays itself: records/, selfplay.json
	StepFit      = "fit"      // a candidate fitted to the window: candidate.nnue, fit.json
	StepGate     = "gate"     // with a gate: the candidate against the best, gate/, gate.json
	StepRate     = "rate"     // the candidate (generation 0: the initial network) on the ladder: rate/, rate.json
	StepLog      = "log"      // the generation's line appended to loop.jsonl
)

// Times is RUN/gen-NNN/times.json: each finished step's wall-clock and CPU seconds (this
// process's and its children's, user and system: USI engines count; and a Slurm job
// array's tasks', as they logged it, also apart as ArrayCPU). It is kept out of loop.jsonl,
// which a resumed run must write byte for byte as an uninterrupted one; the learning
// curve (analysis/learning) reads it for the CPU-hours.
type Times map[string]StepTime

// StepTime is one step's cost.
type StepTime struct {
	Wall float64 `json:"wall_seconds"`
	CPU  float64 `json:"cpu_seconds"` // all of it: this process's and ArrayCPU
	// ArrayCPU is the part spent by a Slurm job array's tasks (Slurm.run), which getrusage
	// cannot see: each task's selfplay logs its own (selfplay run --cpu-log).
	ArrayCPU float64 `json:"array_cpu_seconds,omitempty"`
	// Stopped counts the attempts at the step that were stopped (a kill with SIGTERM or
	// SIGINT, a failure) before one finished; their wall and CPU time are included, so that
	// a resumed run's CPU-hours are what it cost (a SIGKILL's attempt is still lost).
	Stopped int `json:"stopped_attempts,omitempty"`
}

// elsewhere is a step result that knows CPU seconds spent outside this process.
type elsewhere interface{ cpuElsewhere() float64 }

// step runs one step of generation g unless it is done: a done step's result is read
// back from its file, and a new one is written whole (internal/atomicfile) after do
// returns, with its times, and Hook is told. A kill during do leaves no result, so the
// step runs again on resume, from whatever partial work its records keep; an attempt that
// returns (stopped by SIGTERM or SIGINT through its context, or failed) leaves its time in
// times.json, which the attempt that finishes adds to its own (StepTime.Stopped).
func step[T any](c *Config, g int, name string, do func() (T, error)) (T, error) {
	var res T
	path := c.path(genDir(g), name+".json")
	err := readJSON(path, &res)
	if err == nil {
		return res, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return res, err
	}
	if err := os.MkdirAll(c.path(genDir(g)), 0o755); err != nil {
		return res, fmt.Errorf("loop: %w", err)
	}
	times := Times{}
	tpath := c.path(genDir(g), "times.json")
	if err := readJSON(tpath, &times); err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, err
	}
	wall, cpu := time.Now(), cputime.Seconds()
	res, err = do()
	// Without a result file, a time kept for the step is its stopped attempts'.
	st := times[name]
	st.Wall += time.Since(wall).Seconds()
	st.CPU += cputime.Seconds() - cpu
	if err != nil {
		st.Stopped++
		times[name] = st
		if werr := writeJSON(tpath, times); werr != nil {
			return res, errors.Join(err, werr)
		}
		return res, err
	}
	if err := writeJSON(path, res); err != nil {
		return res, err
	}
	if e, ok := any(res).(elsewhere); ok {
		st.ArrayCPU = e.cpuElsewhere()
		st.CPU += st.ArrayCPU
	}
	times[name] = st
	if err := writeJSON(tpath, times); err != nil {
		return res, err
	}
	return res, c.hook(g, name)
}

func (c *Config) hook(g int, step string) error {
	if c.Hook == nil {
		return nil
	}
	return c.Hook(g, step)
}

func (c *Config) progress(step string, done, total int) {
	if c.Progress != nil {
		c.Progress(step, done, total)
	}
}

// writeAtomic writes path through package atomicfile, so that path is whole or keeps what
// it held.
func writeAtomic(path string, content func() ([]byte, error)) error {
	b, err := content()
	if err != nil {
		return fmt.Errorf("loop: %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, b); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	return writeAtomic(path, func() ([]byte, error) {
		b, err := json.MarshalIndent(v, "", "  ")
		return append(b, '\n'), err
	})
}

// readJSON reads a step's result; an error (os.ErrNotExist) means the step is not done.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("loop: %s: %w", path, err)
	}
	return nil
}

func copyFile(from, to string) error {
	return writeAtomic(to, func() ([]byte, error) { return os.ReadFile(from) })
}

// ReadTimes reads a generation's times.json (none before its first step is done).
func ReadTimes(dir string, g int) (Times, error) {
	t := Times{}
	err := readJSON(filepath.Join(dir, genDir(g), "times.json"), &t)
	if errors.Is(err, os.ErrNotExist) {
		return t, nil
	}
	return t, err
}
