// Command tactics builds the tactical test suite of datasets/tactics from game records:
// the positions where the side to move has a forced mate by checks (a tsume) of exactly 3,
// 5 or 7 plies and none shorter, found by retro's df-pn search (the solver's method), and
// kept only where fairy-stockfish's full-width search scores the same mate (no quiet move
// mates sooner). It writes DIR/mate3.sfen, mate5.sfen and mate7.sfen, one SFEN a line.
//
//	tactics --out datasets/tactics datasets/selfplay/mcts400/games-0-of-1.jsonl.gz ...
//
// engine's TestTacticsSuite measures the engine's solve rate on the suite.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/shogilab/shogilab/internal/atomicfile"
	"github.com/shogilab/shogilab/internal/cli"
	"github.com/shogilab/shogilab/record"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/retro"
	ms "github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/usi"
)

func main() {
	os.Exit(cli.RunOne(cli.Command{Name: "tactics", Run: run}, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tactics", flag.ContinueOnError)
	out := fs.String("out", "", "directory for mate3.sfen, mate5.sfen and mate7.sfen (required)")
	most := fs.Int("max", 50, "positions kept of each length, the first found")
	fsfPath := fs.String("fsf", "/usr/games/fairy-stockfish", "fairy-stockfish, which confirms each mate's length")
	asJSON := fs.Bool("json", false, "print the counts as JSON")
	if err := cli.ParseHelp(fs, args, stdout, "usage: tactics --out DIR [flags] RECORDS...\n\nFinds the tactical suite's mates in the positions of game records (jsonl, jsonl.gz, or games tables .parquet)."); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return cli.Usagef("need --out DIR and at least one records file (tactics -h)")
	}
	if *most < 1 {
		return cli.Usagef("--max %d: need 1 or more", *most)
	}
	if err := cli.CheckOutputDir(*out); err != nil {
		return err
	}
	fsf, err := startFSF(ctx, *fsfPath)
	if err != nil {
		return err
	}
	defer fsf.quit()

	update, finish := cli.NewCounter(stderr, "games", 0)
	defer finish()
	games := 0
	found := map[int][]string{}
	seen := map[string]bool{}
	rejected := 0
	// Records of any form, as every record reader takes them (docs/architecture.md#records):
	// JSON Lines, plain or gzip, and games tables.
	r := table.NewReader(fs.Args(), table.Options{Fields: record.FieldStart | record.FieldMoves})
	defer r.Close()
	var checks ms.MoveList
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		g, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		pos, err := ms.ParseSFEN(g.Start)
		if err != nil {
			return fmt.Errorf("%s: start: %w", fileLine(r), err)
		}
		for i, mv := range g.Moves {
			pos.GenerateChecks(&checks)
			// The suite's positions start games of their own: the move number is 1.
			sfen := strings.Join(strings.Fields(pos.SFEN())[:3], " ") + " 1"
			if checks.N > 0 && !seen[sfen] {
				seen[sfen] = true
				ds := retro.NewMateSearch[ms.Position, ms.Move, ms.Code](ms.Tsume{Attacker: pos.SideToMove()}, 1<<20)
				plies, ok, err := ds.MinimalMate(pos, true, 7)
				if err != nil {
					return fmt.Errorf("%s: df-pn: %w", sfen, err)
				}
				if ok && plies >= 3 && len(found[plies]) < *most {
					confirmed, err := fsf.mateIn(ctx, sfen, plies+12, plies)
					if err != nil {
						return err
					}
					if confirmed {
						found[plies] = append(found[plies], sfen)
					} else {
						rejected++
					}
				}
			}
			m, err := pos.ParseMove(mv)
			if err != nil {
				return fmt.Errorf("%s: move %d %q: %w", fileLine(r), i+1, mv, err)
			}
			pos.MakeMove(m)
		}
		games++
		update(games)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	counts := map[string]int{"rejected_by_fsf": rejected}
	for _, n := range []int{3, 5, 7} {
		text := strings.Join(found[n], "\n") + "\n"
		if err := atomicfile.WriteFile(filepath.Join(*out, fmt.Sprintf("mate%d.sfen", n)), []byte(text)); err != nil {
			return err
		}
		counts[fmt.Sprintf("mate%d", n)] = len(found[n])
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(counts)
	}
	fmt.Fprintf(stdout, "mate in 3: %d, in 5: %d, in 7: %d; %d found by df-pn that fairy-stockfish scores otherwise\n",
		counts["mate3"], counts["mate5"], counts["mate7"], rejected)
	return nil
}

func fileLine(r *table.Reader) string {
	f, l := r.Position()
	return fmt.Sprintf("%s:%d", f, l)
}

// searchLimit bounds one of fairy-stockfish's searches: a depth search has no clock for the
// USI client to bound it by, and these, mates of at most 7 plies searched 19 plies deep,
// take well under a second.
const searchLimit = 2 * time.Minute

// fsf is fairy-stockfish as a USI client (usi.Client: its timeouts turn a dead or silent
// engine into an error).
type fsf struct{ c *usi.Client }

func startFSF(ctx context.Context, path string) (*fsf, error) {
	c, err := usi.StartVariant(ctx, []string{path}, "minishogi")
	if errors.Is(err, iofs.ErrNotExist) {
		return nil, fmt.Errorf("--fsf %s: no such program", path)
	}
	if err != nil {
		return nil, fmt.Errorf("--fsf %s: %w", path, err)
	}
	return &fsf{c}, nil
}

// mateIn reports whether fairy-stockfish's search of sfen to depth, from a fresh hash, ends
// on a score of mate in plies (USI counts plies): its last score that is not a bound.
func (f *fsf) mateIn(ctx context.Context, sfen string, depth, plies int) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, searchLimit)
	defer cancel()
	last, err := f.c.Score(ctx, sfen, depth)
	if err != nil {
		return false, fmt.Errorf("%s: %w", sfen, err)
	}
	return last.Kind == usi.ScoreMate && !last.MateLengthUnknown && last.Mate == plies, nil
}

func (f *fsf) quit() { f.c.Close() }
