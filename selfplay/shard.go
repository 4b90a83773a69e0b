package selfplay

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
		panic(fmt.Sprintf("selfplay: invalid shard %d/%d", s.Index, s.Count))
	}
	return s.Index * games / s.Count, (s.Index + 1) * games / s.Count
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// FileName is the name of the shard's file in format f: games-I-of-N.jsonl,
// .jsonl.gz or .parquet, I and N zero-padded to the same width so that the
// files sort in shard order. A Parquet games table has its positions table
// beside it (dataset.PositionsPath).
func (s Shard) FileName(f Format) string {
	w := len(strconv.Itoa(s.Count - 1))
	return fmt.Sprintf("games-%0*d-of-%0*d.%s", w, s.Index, w, s.Count, f)
}

// Format is the output format of a run: the extension of its files.
type Format string

// The formats: JSON Lines written game by game (datasets/README.md), gzip
// with a member per game, or Parquet tables (package dataset).
const (
	JSONL     Format = "jsonl"
	JSONLGzip Format = "jsonl.gz"
	Parquet   Format = "parquet"
)

// Formats are the formats, in the order usage messages list them.
var Formats = []Format{JSONL, JSONLGzip, Parquet}

// ParseFormat reads a format by its name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("selfplay: format %q is not jsonl, jsonl.gz or parquet", s)
}

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(text string) (Shard, error) {
	is, ns, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("selfplay: shard %q is not i/n", text)
	}
	s := Shard{i, n}
	if n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("selfplay: shard %q: want 0 <= i < n", text)
	}
	return s, nil
}

// ShardFromEnv finds the shard from a cluster scheduler's environment
// (getenv is os.Getenv in a command, a map in tests):
//
//   - a Slurm job array (sbatch --array): SLURM_ARRAY_TASK_ID,
//     SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MIN, so --array=1-8 and
//     --array=0-7 both give shards 0..7 of 8. Arrays with a step or holes
//     (--array=0-10:2) have ids that are not min..min+count-1 and are refused.
//   - a Kubernetes Indexed Job: JOB_COMPLETION_INDEX, with the count from
//     kubeCount (the --shards flag, which should equal the Job's
//     completions); kubeCount 0 means the count was not given.
//
// ok is false when neither is set.
func ShardFromEnv(getenv func(string) string, kubeCount int) (s Shard, ok bool, err error) {
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		num := func(name string) (int, error) {
			v, err := strconv.Atoi(getenv(name))
			if err != nil {
				return 0, fmt.Errorf("selfplay: %s=%q is not a number (inside a Slurm job array all of SLURM_ARRAY_TASK_ID, _COUNT and _MIN are set)", name, getenv(name))
			}
			return v, nil
		}
		i, err := num("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return Shard{}, false, err
		}
		n, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, false, err
		}
		lo, err := num("SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return Shard{}, false, err
		}
		if n < 1 || i-lo < 0 || i-lo >= n {
			return Shard{}, false, fmt.Errorf("selfplay: Slurm array task %d is not within min %d and count %d (an array with a step or holes cannot shard a run)", i, lo, n)
		}
		return Shard{i - lo, n}, true, nil
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		i, err := strconv.Atoi(idx)
		if err != nil {
			return Shard{}, false, fmt.Errorf("selfplay: JOB_COMPLETION_INDEX=%q is not a number", idx)
		}
		if kubeCount < 1 {
			return Shard{}, false, fmt.Errorf("selfplay: JOB_COMPLETION_INDEX is set but --shards is not: give the Job's completions count")
		}
		if i < 0 || i >= kubeCount {
			return Shard{}, false, fmt.Errorf("selfplay: JOB_COMPLETION_INDEX %d is not below --shards %d", i, kubeCount)
		}
		return Shard{i, kubeCount}, true, nil
	}
	return Shard{}, false, nil
}
