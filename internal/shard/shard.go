package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one part of a run split across cluster jobs: shard Index of
// Count (0 <= Index < Count) plays a contiguous block of the game ids.
type Shard struct {
	Index, Count int
}

// Whole is the unsharded run.
var Whole = Shard{0, 1}

// IDs returns the half-open range [lo, hi) of the game ids of shard s in a
// run of games games. The blocks differ in size by at most one game and
// cover 0..games-1 exactly once.
func (s Shard) IDs(games int) (lo, hi int) {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		panic(fmt.Sprintf("shard: invalid shard %d/%d", s.Index, s.Count))
	}
	return s.Index * games / s.Count, (s.Index + 1) * games / s.Count
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// FileName is the name of the shard's file with extension ext (jsonl,
// jsonl.gz, parquet): games-I-of-N.EXT, I and N zero-padded to the same width
// so that the files sort in shard order.
func (s Shard) FileName(ext string) string {
	w := len(strconv.Itoa(s.Count - 1))
	return fmt.Sprintf("games-%0*d-of-%0*d.%s", w, s.Index, w, s.Count, ext)
}

// Parse reads "i/n" with 0 <= i < n.
func Parse(text string) (Shard, error) {
	is, ns, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard: shard %q is not i/n", text)
	}
	s := Shard{i, n}
	if n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard: shard %q: want 0 <= i < n", text)
	}
	return s, nil
}

// FromEnv finds the shard from a cluster scheduler's environment
// (getenv is os.Getenv in a command, a map in tests); count is the run's
// shard count when the command line gives it (--shards), else 0:
//
//   - a Slurm job array (sbatch --array): the shard is the task's id,
//     SLURM_ARRAY_TASK_ID, so that a task resubmitted alone (sbatch
//     --array=2) plays the same shard. The count is count, or, without it,
//     SLURM_ARRAY_TASK_MAX+1 when the array is the whole range 0..MAX
//     (SLURM_ARRAY_TASK_MIN 0 and SLURM_ARRAY_TASK_COUNT MAX+1, as sbatch
//     --array=0-7 or 0-7%2 sets them; see sbatch(1), "Job Array"). Any other
//     array (one task resubmitted, a step, a list) needs count.
//   - a Kubernetes Indexed Job: JOB_COMPLETION_INDEX, with count (which
//     should equal the Job's completions) required.
//
// ok is false when neither is set.
func FromEnv(getenv func(string) string, count int) (s Shard, ok bool, err error) {
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		num := func(name string) (int, error) {
			v, err := strconv.Atoi(getenv(name))
			if err != nil {
				return 0, fmt.Errorf("shard: %s=%q is not a number (inside a Slurm job array all of SLURM_ARRAY_TASK_ID, _MIN, _MAX and _COUNT are set)", name, getenv(name))
			}
			return v, nil
		}
		i, err := num("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return Shard{}, false, err
		}
		if count == 0 {
			var lo, hi, n int
			for _, v := range []struct {
				name string
				to   *int
			}{{"SLURM_ARRAY_TASK_MIN", &lo}, {"SLURM_ARRAY_TASK_MAX", &hi}, {"SLURM_ARRAY_TASK_COUNT", &n}} {
				if *v.to, err = num(v.name); err != nil {
					return Shard{}, false, err
				}
			}
			if lo != 0 || n != hi+1 {
				return Shard{}, false, fmt.Errorf("shard: Slurm array task %d is in an array of %d tasks from %d to %d, not the whole range 0-%d of a run (a task resubmitted alone, or a step): give the run's shard count with --shards", i, n, lo, hi, hi)
			}
			count = hi + 1
		}
		if i < 0 || i >= count {
			return Shard{}, false, fmt.Errorf("shard: Slurm array task %d is not a shard of %d (the array's ids are the shards 0..%d)", i, count, count-1)
		}
		return Shard{i, count}, true, nil
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		i, err := strconv.Atoi(idx)
		if err != nil {
			return Shard{}, false, fmt.Errorf("shard: JOB_COMPLETION_INDEX=%q is not a number", idx)
		}
		if count < 1 {
			return Shard{}, false, fmt.Errorf("shard: JOB_COMPLETION_INDEX is set but --shards is not: give the Job's completions count")
		}
		if i < 0 || i >= count {
			return Shard{}, false, fmt.Errorf("shard: JOB_COMPLETION_INDEX %d is not below --shards %d", i, count)
		}
		return Shard{i, count}, true, nil
	}
	return Shard{}, false, nil
}

// Select is the shard a command's flags choose: `--shard i/n` (text) when given, else the
// cluster task's (FromEnv with `--shards N`, count). ok is false when neither names a shard,
// and `--shards` given outside a cluster task is an error, as every sharding command
// (selfplay, train label, solve shard) reports it.
func Select(text string, count int, getenv func(string) string) (s Shard, ok bool, err error) {
	if text != "" {
		s, err := Parse(text)
		return s, err == nil, err
	}
	s, ok, err = FromEnv(getenv, count)
	if err == nil && !ok && count > 0 {
		return Shard{}, false, fmt.Errorf("shard: --shards %d without SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX: use --shard i/n outside a cluster job", count)
	}
	return s, ok, err
}
