// Command solve computes exact game-theoretic values by retrograde analysis.
//
//	solve bushi                    Bushi shogi solved from the empty board (default layout)
//	solve bushi --layout FILE      ... for a layout read from a file
//	solve bushi --all-layouts      every layout, up to rotation of the cube
//	solve bushi --play             the optimal game, move by move
//	solve handicap NAME            a Minishogi handicap's shortest forced mate, with proof
//	solve mate --sfen S --attacker b|w   the same from any position
//	solve check --sfen S --line L  check a claimed mating line
//	solve handicap NAME --split K --split-file F   the subproblems after K plies
//	solve shard F --shard i/n      solve a share of them (or a Slurm array task's)
//	solve merge F RESULT...        the root's mate from the shards, one checked proof and certificate
//	solve verify FILE              check a proof or a disproof certificate on its own
//	solve <subcommand> -h          the subcommand's flags
//
// Each subcommand lives in its own file and is one line of the subcommands table.
package main

import (
	"os"

	"github.com/shogilab/shogilab/internal/cli"
)

// program is the dispatcher; to add a subcommand, write its run function in a file of its
// own and add its line here.
var program = cli.Program{
	Name:  "solve",
	Intro: "solve computes exact game values: by retrograde analysis, and for Minishogi mates by df-pn too.",
	Commands: []cli.Command{
		{Name: "bushi", Summary: "Bushi shogi solved outright: one layout, every layout, or the optimal game", Run: runBushi},
		{Name: "handicap", Summary: "a Minishogi handicap's shortest forced mate, with proof", Run: runHandicap, Graceful: true},
		{Name: "mate", Summary: "the shortest forced mate from a Minishogi position, with proof", Run: runMate, Graceful: true},
		{Name: "check", Summary: "check a claimed Minishogi mating line; print refutations", Run: runCheck},
		{Name: "shard", Summary: "solve a share of a split solve's subproblems (--shard i/n or a Slurm array task)", Run: runShard, Graceful: true},
		{Name: "merge", Summary: "merge the shards of a split solve into the root's mate, one checked proof and one certificate", Run: runMerge},
		{Name: "verify", Summary: "check a proof file (upper bound) or a disproof certificate (lower bound) on its own", Run: runVerify},
	},
}

func main() { os.Exit(program.Run(os.Args[1:], os.Stdout, os.Stderr)) }
