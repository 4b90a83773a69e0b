package loop

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/selfplay"
)

// Slurm plays a generation's self-play as a Slurm job array: Shards array tasks of the
// selfplay command (cmd/selfplay, as deploy/slurm.sbatch runs it), each writing its shard
// file; the loop submits the job with sbatch --wait and goes on when every shard is whole.
// A resubmission after a failure resumes every shard (selfplay keeps the finished games).
type Slurm struct {
	Selfplay string   // the selfplay binary, reachable from the compute nodes
	Shards   int      // the array's size
	Sbatch   string   // the sbatch command; "" is sbatch on PATH
	Args     []string // further sbatch flags (partition, account, time limit)
}

// script is the job's shell script for the self-play of generation g.
func (s *Slurm) script(c *Config, g int, spec, out string) string {
	q := func(x string) string { return "'" + strings.ReplaceAll(x, "'", `'\''`) + "'" }
	return fmt.Sprintf(`#!/usr/bin/env bash
# Generation %d of the loop in %s: one shard of its self-play per array task
# (selfplay reads the shard from SLURM_ARRAY_TASK_ID, _COUNT and _MIN).
#SBATCH --job-name=shogilab-loop-%03d
#SBATCH --cpus-per-task=1
#SBATCH --output=%s
#SBATCH --requeue
#SBATCH --signal=TERM@60
set -euo pipefail
exec %s run --sente %s --gote %s --start %s --games %d --seed %d --max-plies %d --parallel 1 --threads 1 --out %s
`, g, c.Dir, g, filepath.Join(filepath.Dir(out), "slurm-%A_%a.log"), q(s.Selfplay), q(spec), q(spec), q("@"+c.OpeningsName),
		c.Games, c.seed(g, seedSelfplay), c.MaxPlies, q(out))
}

// run submits generation g's self-play and waits for it.
func (s *Slurm) run(ctx context.Context, c *Config, g int, spec, out string) error {
	if s.Shards < 1 || s.Selfplay == "" {
		return fmt.Errorf("loop: slurm: %d shards, selfplay binary %q: need a binary and 1 or more shards", s.Shards, s.Selfplay)
	}
	if c.OpeningsName == "" {
		return fmt.Errorf("loop: slurm: the openings must come from a file")
	}
	path := filepath.Join(filepath.Dir(out), "selfplay.sbatch")
	if err := os.WriteFile(path, []byte(s.script(c, g, spec, out)), 0o755); err != nil {
		return fmt.Errorf("loop: slurm: %w", err)
	}
	sbatch := s.Sbatch
	if sbatch == "" {
		sbatch = "sbatch"
	}
	args := append([]string{"--wait", fmt.Sprintf("--array=0-%d", s.Shards-1)}, s.Args...)
	cmd := exec.CommandContext(ctx, sbatch, append(args, path)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("loop: slurm: %s %s: %v: %s", sbatch, strings.Join(args, " "), err, strings.TrimSpace(string(b)))
	}
	for i := range s.Shards {
		sh := selfplay.Shard{Index: i, Count: s.Shards}
		lo, hi := sh.IDs(c.Games)
		f := filepath.Join(out, sh.FileName(selfplay.JSONL))
		n, _, err := countGames(f)
		if err != nil {
			return fmt.Errorf("loop: slurm: shard %s: %w", sh, err)
		}
		if n != hi-lo {
			return fmt.Errorf("loop: slurm: shard %s holds %d games of %d; submit again to resume", sh, n, hi-lo)
		}
	}
	return nil
}
