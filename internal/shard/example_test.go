package shard_test

import (
	"fmt"

	"github.com/shogilab/shogilab/internal/shard"
)

// Ten games in three shards: each shard plays a contiguous block of ids
// and writes its own file.
func ExampleShard() {
	for i := range 3 {
		s := shard.Shard{Index: i, Count: 3}
		lo, hi := s.IDs(10)
		fmt.Println(s, lo, hi, s.FileName("jsonl.gz"))
	}
	// Output:
	// 0/3 0 3 games-0-of-3.jsonl.gz
	// 1/3 3 6 games-1-of-3.jsonl.gz
	// 2/3 6 10 games-2-of-3.jsonl.gz
}

// A Slurm array task (sbatch --array=1-4) finds its shard in the environment.
func ExampleFromEnv() {
	// Task 3 of sbatch --array=0-3, and the same task resubmitted alone with
	// sbatch --array=3 and --shards 4.
	env := map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"}
	s, ok, err := shard.FromEnv(func(k string) string { return env[k] }, 0)
	fmt.Println(s, ok, err)
	env = map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "1"}
	s, ok, err = shard.FromEnv(func(k string) string { return env[k] }, 4)
	fmt.Println(s, ok, err)
	// Output:
	// 3/4 true <nil>
	// 3/4 true <nil>
}
