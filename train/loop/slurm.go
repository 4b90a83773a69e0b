package loop

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/selfplay"
)

// Slurm plays a generation's self-play as a Slurm job array: Shards array tasks of the
// selfplay command (cmd/selfplay, as deploy/slurm.sbatch runs it), each writing its shard
// file; the loop submits the job with sbatch --wait and goes on when every shard is whole.
// A resubmission after a failure resumes every shard (selfplay keeps the finished games).
// Each task appends its CPU time to OUT/cpu-TASK.jsonl when it ends, also when Slurm stops
// it with SIGTERM (selfplay run --cpu-log), and the step counts the sum of every attempt's
// lines among its CPU-hours: getrusage sees only this process and its own children.
type Slurm struct {
	Selfplay string   // the selfplay binary, reachable from the compute nodes
	Shards   int      // the array's size
	Sbatch   string   // the sbatch command; "" is sbatch on PATH
	Args     []string // further sbatch flags (partition, account, time limit)
}

// script is the job's shell script for the self-play of generation g. Every word that
// comes from the user (paths, the player spec) is quoted for the shell, and none is written
// into a #SBATCH line, whose quoting sbatch does not share with the shell: the log's path
// goes on sbatch's command line (logFlag). A word with a line break could still end a
// comment or a directive, and is refused (checkWords).
func (s *Slurm) script(c *Config, g int, spec, out string) string {
	q := func(x string) string { return "'" + strings.ReplaceAll(x, "'", `'\''`) + "'" }
	openings, err := filepath.Abs(c.OpeningsName)
	if err != nil {
		openings = c.OpeningsName
	}
	return fmt.Sprintf(`#!/usr/bin/env bash
# Generation %d of a train loop run: one shard of its self-play per array task
# (selfplay reads the shard from SLURM_ARRAY_TASK_ID and --shards).
#SBATCH --job-name=shogilab-loop-%03d
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --signal=B:TERM@60
set -euo pipefail
exec %s run --sente %s --gote %s --start %s --games %d --seed %d --max-plies %d --parallel 1 --threads 1 --shards %d --out %s --cpu-log %s"/cpu-${SLURM_ARRAY_TASK_ID}.jsonl"
`, g, g, q(s.Selfplay), q(spec), q(spec), q("@"+openings),
		c.SelfPlay.Games, c.seed(g, seedSelfplay), c.MaxPlies, s.Shards, q(out), q(out))
}

// logFlag is the sbatch flag for the array tasks' log files, beside the shards.
func logFlag(out string) string {
	return "--output=" + filepath.Join(filepath.Dir(out), "slurm-%A_%a.log")
}

// checkWords refuses the words of the script that hold a line break or another control
// character: inside a comment or a directive it would start a line of its own.
func (s *Slurm) checkWords(c *Config, spec, out string) error {
	for _, w := range []struct{ what, word string }{
		{"the run directory", c.Dir}, {"the selfplay binary", s.Selfplay}, {"the player", spec},
		{"the openings file", c.OpeningsName}, {"the output directory", out},
	} {
		if i := strings.IndexFunc(w.word, func(r rune) bool { return r < ' ' || r == 0x7f }); i >= 0 {
			return fmt.Errorf("loop: slurm: %s %.60q holds a control character (byte %d): a job script cannot carry it; use a path without one", w.what, w.word, i)
		}
	}
	return nil
}

// run submits generation g's self-play, waits for it, and returns the CPU seconds its
// tasks logged.
func (s *Slurm) run(ctx context.Context, c *Config, g int, spec, out string) (float64, error) {
	if s.Shards < 1 || s.Selfplay == "" {
		return 0, fmt.Errorf("loop: slurm: %d shards, selfplay binary %q: need a binary and 1 or more shards", s.Shards, s.Selfplay)
	}
	if c.OpeningsName == "" {
		return 0, fmt.Errorf("loop: slurm: the openings must come from a file")
	}
	if err := s.checkWords(c, spec, out); err != nil {
		return 0, err
	}
	path := filepath.Join(filepath.Dir(out), "selfplay.sbatch")
	if err := atomicfile.WriteFile(path, []byte(s.script(c, g, spec, out))); err != nil {
		return 0, fmt.Errorf("loop: slurm: %w", err)
	}
	sbatch := s.Sbatch
	if sbatch == "" {
		sbatch = "sbatch"
	}
	args := append([]string{"--wait", fmt.Sprintf("--array=0-%d", s.Shards-1), logFlag(out)}, s.Args...)
	cmd := exec.CommandContext(ctx, sbatch, append(args, path)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("loop: slurm: %s %s: %v: %s", sbatch, strings.Join(args, " "), err, strings.TrimSpace(string(b)))
	}
	for i := range s.Shards {
		sh := shard.Shard{Index: i, Count: s.Shards}
		lo, hi := sh.IDs(c.SelfPlay.Games)
		f := filepath.Join(out, sh.FileName(string(selfplay.JSONL)))
		n, _, _, err := countGames(f)
		if err != nil {
			return 0, fmt.Errorf("loop: slurm: shard %s: %w", sh, err)
		}
		if n != hi-lo {
			return 0, fmt.Errorf("loop: slurm: shard %s holds %d games of %d; submit again to resume", sh, n, hi-lo)
		}
	}
	return arrayCPU(out)
}

// arrayCPU sums the CPU seconds the array tasks logged in dir/cpu-*.jsonl (a line per
// attempt of a task: a requeued task's earlier attempts count too).
func arrayCPU(dir string) (float64, error) {
	files, err := filepath.Glob(filepath.Join(dir, "cpu-*.jsonl"))
	if err != nil {
		return 0, fmt.Errorf("loop: slurm: %w", err)
	}
	var total float64
	for _, f := range files {
		lines, err := selfplay.ReadCPULog(f)
		if err != nil {
			return 0, fmt.Errorf("loop: slurm: %w", err)
		}
		for _, l := range lines {
			total += l.CPU
		}
	}
	return total, nil
}
