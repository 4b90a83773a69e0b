package datasets_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/rules/minishogi"
	"github.com/shogilab/shogilab/train/labels"
)

// labelRuns are the shipped labelling runs (README.md, "Labelled positions"): each a
// directory of labels tables, the first shipped of its shards.
var labelRuns = []struct {
	dir             string
	shipped, shards int
	limit           string // the footer's limit
	// sources says whether the files the footer's command names are in the repository: then
	// the first block is labelled again from them, else from the rows' own positions.
	sources bool
}{
	{"labels/fsf-d8", 8, 8, "depth 8", true},
	{"labels/fsf-d8-games-1", 2, 2, "depth 8", false},
	{"labels/fsf-d8-games-2", 2, 2, "depth 8", false},
}

// readShards reads the shipped shards of a run, in order, and their footers.
func readShards(t *testing.T, dir string, shipped, shards int) ([]labels.Row, []labels.Provenance) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "labels-*-of-*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != shipped {
		t.Fatalf("%s: %d tables, want the first %d of %d shards", dir, len(files), shipped, shards)
	}
	var rows []labels.Row
	var provs []labels.Provenance
	for i := range shipped {
		path := filepath.Join(dir, fmt.Sprintf("labels-%d-of-%d.parquet", i, shards))
		r, err := labels.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		provs = append(provs, r.Provenance())
		r.Close()
		if err := labels.Rows([]string{path}, func(row labels.Row) error { rows = append(rows, row); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	return rows, provs
}

// TestShippedLabels checks each shipped labelling run: the shards are one run's, the rows
// are the run's list in order from its start, each move is legal in its position by the
// rules, and each value is the score mapped as the README's table says
// (2/(1+10^(-cp/400)) - 1, ±1 for a mate).
func TestShippedLabels(t *testing.T) {
	for _, lr := range labelRuns {
		t.Run(lr.dir, func(t *testing.T) {
			rows, provs := readShards(t, lr.dir, lr.shipped, lr.shards)
			for i, p := range provs {
				whole := p.Positions == len(rows) || lr.shipped < lr.shards && p.Positions > len(rows)
				if p.Command != provs[0].Command || p.Run == "" || p.Limit != lr.limit || p.Shard != fmt.Sprintf("%d/%d", i, lr.shards) || !whole {
					t.Errorf("shard %d: footer %+v; want the run's command, limit %q, shard %d/%d, %d positions", i, p, lr.limit, i, lr.shards, len(rows))
				}
			}
			seen := map[uint64]bool{}
			for i, r := range rows {
				if r.Index != int64(i) {
					t.Fatalf("row %d has index %d", i, r.Index)
				}
				pos, err := minishogi.ParseSFEN(r.SFEN)
				if err != nil {
					t.Fatalf("row %d: %v", i, err)
				}
				if seen[pos.Hash()] {
					t.Errorf("row %d: %s labelled twice", i, r.SFEN)
				}
				seen[pos.Hash()] = true
				m, err := pos.ParseMove(r.Move)
				if err != nil || !slices.Contains(pos.LegalMoves(nil), m) {
					t.Errorf("row %d: %s is not a legal move of %s (%v)", i, r.Move, r.SFEN, err)
				}
				var want float64
				switch {
				case r.Mate != nil && *r.Mate > 0:
					want = 1
				case r.Mate != nil:
					want = -1
				case r.ScoreCP != nil:
					want = 2/(1+math.Pow(10, -float64(*r.ScoreCP)/400)) - 1
				default:
					t.Fatalf("row %d: neither a score nor a mate", i)
				}
				if math.Abs(r.Value-want) > 1e-9 {
					t.Errorf("row %d: value %v for score %v mate %v; want %v", i, r.Value, r.ScoreCP, r.Mate, want)
				}
			}
		})
	}
}

// labelFields are what a labeller decides of a row; the rest says where the position came
// from.
func labelFields(r labels.Row) string {
	return fmt.Sprintf("%s %s %v %v %v %d %d", r.SFEN, r.Move, deref(r.ScoreCP), deref(r.Mate), r.Value, r.Depth, r.Nodes)
}

func deref(p *int) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(*p)
}

// TestLabelsFirstBlock labels the first block of each run again and compares the rows
// (Fairy-Stockfish's answers depend only on the block's positions, the spec and the block
// size): with the command its footer keeps, where its source files are shipped, the rows
// whole; else from the block's positions written as an SFEN file, what the labeller
// decided of each.
func TestLabelsFirstBlock(t *testing.T) {
	fsf := fsftest.Path(t)
	for _, lr := range labelRuns {
		t.Run(lr.dir, func(t *testing.T) {
			rows, provs := readShards(t, lr.dir, lr.shipped, lr.shards)
			words := strings.Fields(provs[0].Command)
			if len(words) < 7 || words[0] != "train" || words[1] != "label" || words[2] != "--engine" || words[4] != "--block" {
				t.Fatalf("footer command %q: want train label --engine SPEC --block N [--keep-state] FILES...", provs[0].Command)
			}
			block, flags, files := words[5], []string{}, words[6:]
			if files[0] == "--keep-state" {
				flags, files = files[:1], files[1:]
			}
			engine := strings.Replace(words[3], "usi:fairy-stockfish", "usi:"+fsf, 1)
			dir := t.TempDir()
			if !lr.sources {
				n, err := strconv.Atoi(block)
				if err != nil || n > len(rows) {
					t.Fatalf("block %q of %d rows", block, len(rows))
				}
				var sfens strings.Builder
				for _, r := range rows[:n] {
					sfens.WriteString(r.SFEN + "\n")
				}
				f := filepath.Join(dir, "block.sfen")
				if err := os.WriteFile(f, []byte(sfens.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				files = []string{f}
			}
			args := append([]string{"label", "-o", dir, "--engine", engine, "--block", block, "--limit", block}, flags...)
			args = append(args, files...)
			run(t, "train", args...)
			var again []labels.Row
			if err := labels.Rows([]string{filepath.Join(dir, "labels-0-of-1.parquet")}, func(r labels.Row) error { again = append(again, r); return nil }); err != nil {
				t.Fatal(err)
			}
			want := rows[:min(len(again), len(rows))]
			diff := 0
			for i := range want {
				same := reflect.DeepEqual(again[i], want[i])
				if !lr.sources {
					same = labelFields(again[i]) == labelFields(want[i])
				}
				if !same {
					diff++
				}
			}
			if len(again) == 0 || diff > 0 {
				t.Errorf("the first block labelled again: %d rows, %d differ from the shipped ones", len(again), diff)
			}
		})
	}
}
