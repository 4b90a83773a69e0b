package shard

import (
	"fmt"
	"strings"
	"testing"
)

func TestIDs(t *testing.T) {
	// Hand-derived: 10 games in 3 shards.
	want := [][2]int{{0, 3}, {3, 6}, {6, 10}}
	for i, w := range want {
		if lo, hi := (Shard{i, 3}).IDs(10); lo != w[0] || hi != w[1] {
			t.Errorf("shard %d/3 of 10: [%d, %d), want [%d, %d)", i, lo, hi, w[0], w[1])
		}
	}
	// Every id exactly once, blocks within one game of each other.
	for games := range 40 {
		for n := 1; n <= 7; n++ {
			count := make([]int, games)
			small, big := games, 0
			for i := range n {
				lo, hi := (Shard{i, n}).IDs(games)
				small, big = min(small, hi-lo), max(big, hi-lo)
				for id := lo; id < hi; id++ {
					count[id]++
				}
			}
			for id, c := range count {
				if c != 1 {
					t.Fatalf("%d games in %d shards: id %d played %d times", games, n, id, c)
				}
			}
			if big-small > 1 {
				t.Fatalf("%d games in %d shards: blocks of %d and %d", games, n, small, big)
			}
		}
	}
}

func TestParse(t *testing.T) {
	if s, err := Parse("2/5"); err != nil || s != (Shard{2, 5}) {
		t.Errorf("Parse(2/5) = %v, %v", s, err)
	}
	for _, bad := range []string{"", "3", "5/5", "-1/2", "1/0", "a/b", "1/2/3"} {
		t.Run(bad, func(t *testing.T) {
			if _, err := Parse(bad); err == nil {
				t.Errorf("Parse(%q) accepted", bad)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		env     map[string]string
		kube    int
		want    Shard
		ok      bool
		wantErr string
	}{
		{env: nil, ok: false},
		// sbatch --array=0-3: task ids 0..3 are shards 0..3 of 4 (sbatch(1) sets
		// SLURM_ARRAY_TASK_MIN 0, _MAX 3, _COUNT 4).
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"}, want: Shard{2, 4}, ok: true},
		// The same task resubmitted alone (sbatch --array=2): MIN = MAX = 2, COUNT 1. It
		// stays shard 2 of 4 with --shards 4, and is refused without it (not shard 0 of 1).
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_MAX": "2"}, kube: 4, want: Shard{2, 4}, ok: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_MAX": "2"}, wantErr: "--shards"},
		// --array=0-10:2 has 6 tasks with ids up to 10.
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "10", "SLURM_ARRAY_TASK_COUNT": "6", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "10"}, wantErr: "--shards"},
		// --array=1-4 starts at 1: its ids are not shards 0..3.
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4"}, kube: 4, wantErr: "not a shard of 4"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, wantErr: "SLURM_ARRAY_TASK_MIN"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, kube: 5, want: Shard{2, 5}, ok: true},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, wantErr: "--shards"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5"}, kube: 5, wantErr: "not below"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v,shards=%d", tc.env, tc.kube), func(t *testing.T) {
			s, ok, err := FromEnv(func(k string) string { return tc.env[k] }, tc.kube)
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want one with %q", err, tc.wantErr)
				}
			case err != nil || ok != tc.ok || s != tc.want:
				t.Errorf("%v %v %v, want %v %v", s, ok, err, tc.want, tc.ok)
			}
		})
	}
}

// TestSelect: --shard i/n wins over a cluster task's index; without either there is no shard,
// and --shards outside a cluster task is refused.
func TestSelect(t *testing.T) {
	slurm := map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"}
	tests := []struct {
		name    string
		text    string
		count   int
		env     map[string]string
		want    Shard
		ok      bool
		wantErr string
	}{
		{name: "flag", text: "2/5", want: Shard{2, 5}, ok: true},
		{name: "flag over Slurm", text: "2/5", env: slurm, want: Shard{2, 5}, ok: true},
		{name: "bad flag", text: "5/5", wantErr: "want 0 <= i < n"},
		{name: "Slurm", env: slurm, want: Shard{1, 4}, ok: true},
		{name: "none", ok: false},
		{name: "shards outside a cluster", count: 3, wantErr: "--shards 3 without"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, ok, err := Select(tc.text, tc.count, func(k string) string { return tc.env[k] })
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want one with %q", err, tc.wantErr)
				}
			case err != nil || ok != tc.ok || s != tc.want:
				t.Errorf("%v %v %v, want %v %v", s, ok, err, tc.want, tc.ok)
			}
		})
	}
}
