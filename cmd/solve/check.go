package main

import (
	"context"

	"github.com/shogilab/shogilab/internal/cli"

	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/solver"
)

type checkReport struct {
	SFEN        string              `json:"sfen"`
	Attacker    string              `json:"attacker"`
	Line        []string            `json:"line"`
	OK          bool                `json:"ok"`
	Mate        bool                `json:"mate"`
	MinimalMate *int                `json:"minimal_mate"`
	Refutations []solver.Refutation `json:"refutations"`
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var sfen, line, attacker, memory string
	var asJSON bool
	fs := flag.NewFlagSet("solve check", flag.ContinueOnError)
	fs.StringVar(&sfen, "sfen", "", "the root position in SFEN (required)")
	fs.StringVar(&line, "line", "", "the claimed mating line, USI moves separated by spaces (required)")
	fs.StringVar(&attacker, "attacker", "", "the side that mates, b or w (default: the side that makes the line's last move)")
	fs.StringVar(&memory, "memory", "2GiB", "memory `budget` for the searches' table")
	fs.BoolVar(&asJSON, "json", false, "print one JSON object instead of the table")
	if err := cli.ParseHelp(fs, args, stdout, `usage: solve check --sfen SFEN --line "MOVES..." [flags]

Checks a claimed solution: is every move legal, does the line end in mate, does the attacker
force mate in exactly that many plies (no shorter mate from the root or any later attacker
turn), and is each defence in the line a longest one (no other defence escapes or lasts
longer)? Each failure is printed with its refutation. Exits with status 1 if the claim fails.`); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	if sfen == "" || strings.TrimSpace(line) == "" {
		return cli.Usagef("--sfen and --line are required")
	}
	root, err := minishogi.ParseSFEN(sfen)
	if err != nil {
		return cli.Usagef("--sfen: %v", err)
	}
	moves := strings.Fields(line)
	side := root.SideToMove()
	if len(moves)%2 == 0 {
		side = side.Opponent()
	}
	if attacker != "" {
		if side, err = solver.ParseColor(attacker); err != nil {
			return cli.Usagef("--attacker: %v", err)
		}
	}
	budget, err := parseBytes(memory)
	if err != nil {
		return cli.Usagef("--memory: %v", err)
	}
	lc, err := solver.CheckLine(root, side, moves, int(budget/solver.BytesPerTableEntry))
	if err != nil {
		return err
	}
	rep := checkReport{SFEN: root.SFEN(), Attacker: colorName(side), Line: moves, OK: lc.OK(), Mate: lc.Mate, Refutations: lc.Refutations}
	if lc.MinimalMate >= 0 {
		rep.MinimalMate = &lc.MinimalMate
	}
	if rep.Refutations == nil {
		rep.Refutations = []solver.Refutation{}
	}
	if asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "position  %s (attacker %s)\nline      %s (%d plies)\n", rep.SFEN, rep.Attacker, line, len(moves))
		switch {
		case rep.MinimalMate != nil:
			fmt.Fprintf(stdout, "minimal   mate in %d plies from the root\n", *rep.MinimalMate)
		default:
			fmt.Fprintf(stdout, "minimal   no forced mate within %d plies from the root\n", len(moves))
		}
		for _, r := range rep.Refutations {
			fmt.Fprintf(stdout, "refuted   [%s] ply %d: %s", r.Kind, r.Ply, r.Text)
			if len(r.Moves) > 0 {
				fmt.Fprintf(stdout, ": %s", strings.Join(r.Moves, " "))
			}
			fmt.Fprintln(stdout)
		}
		if rep.OK {
			fmt.Fprintln(stdout, "verdict   the claim holds")
		}
	}
	if !rep.OK {
		return fmt.Errorf("the claim fails: %d refutation(s)", len(rep.Refutations))
	}
	return nil
}
