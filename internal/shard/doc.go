// Package shard is the part of a run one cluster task plays: shard Index of
// Count, its block of game ids, its file name, and where a task finds its index
// (a Slurm array task's id, a Kubernetes Indexed Job's completion index).
// selfplay shards its runs with it, solve shard its positions, and train/loop
// writes its Slurm script's file names with it. Select turns the commands' flags
// (`--shard i/n`, `--shards N`) and the environment into the shard.
//
//	s, ok, err := shard.FromEnv(os.Getenv, 0) // inside sbatch --array=0-7: s is i/8
//	lo, hi := s.IDs(games)
package shard
