package label

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/duckdbtest"
	"github.com/shogilab/shogilab/internal/filelock"
	"github.com/shogilab/shogilab/internal/fsftest"
	"github.com/shogilab/shogilab/internal/shard"
	"github.com/shogilab/shogilab/record/table"
	"github.com/shogilab/shogilab/train/labels"
)

var (
	book   = filepath.Join("..", "..", "datasets", "openings", "book.sfen.gz")
	sample = filepath.Join("..", "..", "datasets", "evaluation", "fsf5000-sample.jsonl.gz")
)

// mateIn1 is the position before the last move of the first game of
// datasets/evaluation/fsf5000-sample.jsonl.gz: Sente mates with 1b3b.
const mateIn1 = "b4/4+R/1Sk1p/P1B+r1/KG3 b gs 49"

// bookLines are the first positions of the book.
var bookLines = []string{
	"r1sgk/B1b1p/5/P4/KGS1R b - 3",
	"r1s1k/2b1g/P3p/1GB2/K1S1R w - 8",
	"r1sgk/b3p/3S1/P4/KG1BR w - 4",
	"rb1gk/3sp/5/PG3/K1SBR b - 3",
}

func labeller(t *testing.T, depth int) Labeller {
	t.Helper()
	l, err := ParseLabeller(fmt.Sprintf("usi:%s,depth=%d,option.Threads=1,option.Hash=16", fsftest.Path(t), depth))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// writeLines writes an SFEN file.
func writeLines(t *testing.T, name string, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readRows(t *testing.T, paths ...string) []labels.Row {
	t.Helper()
	var rows []labels.Row
	if err := labels.Rows(paths, func(r labels.Row) error { rows = append(rows, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return rows
}

// direct is what Fairy-Stockfish answers for one position.
type direct struct {
	move         string
	cp, mate     *int
	depth, nodes int64
}

// askDirectly labels sfens with a plain USI exchange with Fairy-Stockfish, written here
// from the protocol and not through package usi or this package: one process, the
// variant and options set, and before each position usinewgame and isready (before the
// first only when !newGame), as a labelling process of one block does.
func askDirectly(t *testing.T, depth int, sfens []string, newGame bool) []direct {
	t.Helper()
	cmd := exec.Command(fsftest.Path(t))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	in := bufio.NewScanner(stdout)
	until := func(prefix string, each func(string)) {
		for in.Scan() {
			line := in.Text()
			if each != nil {
				each(line)
			}
			if strings.HasPrefix(line, prefix) {
				return
			}
		}
		t.Fatalf("fairy-stockfish ended before %q", prefix)
	}
	fmt.Fprint(stdin, "usi\n")
	until("usiok", nil)
	fmt.Fprint(stdin, "setoption name UCI_Variant value minishogi\nsetoption name Threads value 1\nsetoption name Hash value 16\n")
	var out []direct
	for i, sfen := range sfens {
		if i == 0 || newGame {
			fmt.Fprint(stdin, "usinewgame\nisready\n")
			until("readyok", nil)
		}
		fmt.Fprintf(stdin, "position sfen %s\ngo depth %d\n", sfen, depth)
		var d direct
		until("bestmove", func(line string) {
			f := strings.Fields(line)
			if f[0] == "bestmove" {
				d.move = f[1]
				return
			}
			if f[0] != "info" || !strings.Contains(line, " score ") {
				return
			}
			for i := 1; i+1 < len(f); i++ {
				n, _ := strconv.Atoi(f[i+1])
				switch f[i] {
				case "depth":
					d.depth = int64(n)
				case "nodes":
					d.nodes = int64(n)
				case "score":
					v, _ := strconv.Atoi(f[i+2])
					d.cp, d.mate = nil, nil
					if f[i+1] == "cp" {
						d.cp = &v
					} else {
						d.mate = &v
					}
				case "pv":
					i = len(f)
				}
			}
		})
		out = append(out, d)
	}
	fmt.Fprint(stdin, "quit\n")
	return out
}

// TestLabelsAgreeWithFairyStockfish: the rows of a run are what Fairy-Stockfish answers
// when asked directly, one process a block of three, usinewgame before each position or,
// keeping state, before a block's first only.
func TestLabelsAgreeWithFairyStockfish(t *testing.T) {
	const depth, block = 6, 3
	sfens := append(append([]string{}, bookLines...), mateIn1)
	file := writeLines(t, "some.sfen", sfens...)
	positions, _, err := Collect(Sources{Files: []string{file}})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(newGame bool) (out []direct) {
		for i := 0; i < len(sfens); i += block {
			out = append(out, askDirectly(t, depth, sfens[i:min(i+block, len(sfens))], newGame)...)
		}
		return out
	}
	fresh := ask(true)
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("keep state %v", keep), func(t *testing.T) {
			l := labeller(t, depth)
			l.KeepState = keep
			want := fresh
			if keep {
				want = ask(false)
				// The two ways must answer differently here, or this case tests nothing.
				if reflect.DeepEqual(want, fresh) {
					t.Fatal("Fairy-Stockfish answers these positions alike with and without usinewgame")
				}
			}
			checkLabels(t, l, positions, block, file, sfens, want)
		})
	}
}

// checkLabels labels positions (the lines of file, sfens) in blocks and compares the rows
// with Fairy-Stockfish's direct answers.
func checkLabels(t *testing.T, l Labeller, positions []Position, block int, file string, sfens []string, want []direct) {
	t.Helper()
	dir := t.TempDir()
	sum, err := Run{Labeller: l, Positions: positions, Block: block, Dir: dir}.Do(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Positions != len(sfens) || sum.Labelled != len(sfens) {
		t.Errorf("summary %+v", sum)
	}
	rows := readRows(t, filepath.Join(dir, "labels-0-of-1.parquet"))
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, w := range want {
		r := rows[i]
		t.Run(fmt.Sprintf("line %d", i+1), func(t *testing.T) {
			if r.SFEN != sfens[i] || r.Move != w.move || r.Depth != int(w.depth) || r.Nodes != w.nodes ||
				!reflect.DeepEqual(r.ScoreCP, w.cp) || !reflect.DeepEqual(r.Mate, w.mate) {
				t.Errorf("row %+v (cp %v mate %v), Fairy-Stockfish says %s, cp %v, mate %v, depth %d, nodes %d",
					r, deref(r.ScoreCP), deref(r.Mate), w.move, deref(w.cp), deref(w.mate), w.depth, w.nodes)
			}
			// The value as datasets/README.md defines it for an external engine's score.
			value := 0.0
			switch {
			case w.cp != nil:
				value = 2/(1+math.Pow(10, -float64(*w.cp)/400)) - 1
			case *w.mate > 0:
				value = 1
			default:
				value = -1
			}
			if math.Abs(r.Value-value) > 1e-12 {
				t.Errorf("value %v, want %v", r.Value, value)
			}
			if r.Source != file || r.Line == nil || *r.Line != i+1 || r.GameID != nil || r.Score != nil || r.Occurrences != 1 {
				t.Errorf("provenance of row %+v", r)
			}
		})
	}
	if m := rows[len(rows)-1]; m.Mate == nil || *m.Mate != 1 || m.Move != "1b3b" {
		t.Errorf("the mate in 1 (the sample game's last move, 1b3b): %+v", m)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestCollect: duplicates are found by board, hands and side to move, whatever the move
// number or the file; the order is the files'.
func TestCollect(t *testing.T) {
	// Two games from the start that transpose: Sente's silver and gold moves and Gote's
	// silver and gold moves in either order reach, after 4 plies, the position worked out
	// by hand below (move 5, Sente to move).
	start := "rbsgk/4p/5/P4/KGSBR b - 1"
	games := writeLines(t, "games.jsonl",
		gameLine(0, start, "3e3d", "3a3b", "4e4d", "2a2b"),
		gameLine(1, start, "4e4d", "2a2b", "3e3d", "3a3b"),
	)
	after4 := "rb2k/2sgp/5/PGS2/K2BR b - 5"
	sfens := writeLines(t, "more.sfen", "# a comment", "rb2k/2sgp/5/PGS2/K2BR b - 9", start)
	t.Run("transposition", func(t *testing.T) {
		list, st, err := Collect(Sources{Files: []string{games, sfens}})
		if err != nil {
			t.Fatal(err)
		}
		// Game 0: 5 positions; game 1: its start and its last are game 0's, 3 new; the SFEN
		// file: both positions seen before.
		if st.Games != 2 || st.Found != 12 || st.Distinct != 8 || st.NoMove != 0 || len(list) != 8 {
			t.Fatalf("stats %+v, %d positions", st, len(list))
		}
		if p := list[0]; p.SFEN != start || p.Occurrences != 3 || p.GameID != 0 || p.Ply != 0 || p.Score != 1 {
			t.Errorf("the start: %+v", p)
		}
		if p := list[4]; p.SFEN != after4 || p.Occurrences != 3 || p.GameID != 0 || p.Ply != 4 || p.Line != -1 || p.Score != 1 || p.Source != games {
			t.Errorf("the transposition: %+v", p)
		}
		if p := list[5]; p.GameID != 1 || p.Ply != 1 || p.Score != 0 {
			t.Errorf("game 1's second position (Gote to move, Sente won): %+v", p)
		}
	})
	t.Run("order of the files", func(t *testing.T) {
		list, _, err := Collect(Sources{Files: []string{sfens, games}, Name: filepath.Base})
		if err != nil {
			t.Fatal(err)
		}
		if p := list[0]; p.SFEN != "rb2k/2sgp/5/PGS2/K2BR b - 9" || p.Line != 2 || p.Source != "more.sfen" || p.HasScore() || p.Occurrences != 3 {
			t.Errorf("first position: %+v", p)
		}
	})
	t.Run("sample", func(t *testing.T) {
		all, _, err := Collect(Sources{Files: []string{book}})
		if err != nil {
			t.Fatal(err)
		}
		half, st, err := Collect(Sources{Files: []string{book}, Sample: 0.5, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		// 5,000 positions kept with probability 1/2: within 5 standard deviations (177).
		if n := len(half); n < 2500-177 || n > 2500+177 || st.Distinct != 5000 || st.Sampled != n {
			t.Errorf("sample of a half kept %d of %d (%+v)", n, len(all), st)
		}
		// The sample is by position: the same from the other order of the files.
		again, _, err := Collect(Sources{Files: []string{games, book}, Sample: 0.5, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		// By board, side to move and hands: a position of the games comes with its own
		// move number.
		key := func(sfen string) string { return strings.Join(strings.Fields(sfen)[:3], " ") }
		inBook := map[string]bool{}
		for _, p := range again {
			inBook[key(p.SFEN)] = true
		}
		for _, p := range half {
			if !inBook[key(p.SFEN)] {
				t.Fatalf("%s is in one sample and not the other", p.SFEN)
			}
		}
		other, _, _ := Collect(Sources{Files: []string{book}, Sample: 0.5, Seed: 4})
		if reflect.DeepEqual(other, half) {
			t.Error("seeds 3 and 4 give the same sample")
		}
	})
	t.Run("no legal move", func(t *testing.T) {
		// The shipped sample's games that end in checkmate or stalemate end in a position
		// without a legal move; no other position of a game has none.
		out, err := exec.Command("sh", "-c", "gzip -dc "+sample+` | grep -c -E '"termination":"(checkmate|stalemate)"'`).Output()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		_, st, err := Collect(Sources{Files: []string{sample}})
		if err != nil {
			t.Fatal(err)
		}
		if want == 0 || st.NoMove != want || st.Games != 100 {
			t.Errorf("%d positions without a move in %d games; %d games end in checkmate or stalemate", st.NoMove, st.Games, want)
		}
	})
	t.Run("limit", func(t *testing.T) {
		list, st, err := Collect(Sources{Files: []string{games}, Limit: 3})
		if err != nil || len(list) != 3 || st.Positions != 3 || st.Distinct != 8 {
			t.Errorf("limit 3: %d positions, %+v, %v", len(list), st, err)
		}
	})
}

// gameLine is a minimal valid record (datasets/README.md) of a game Sente won by
// resignation.
func gameLine(id int, start string, moves ...string) string {
	q := make([]string, len(moves))
	for i, m := range moves {
		q[i] = strconv.Quote(m)
	}
	return fmt.Sprintf(`{"id":%d,"seed":%d,"variant":"minishogi","start":%q,"moves":[%s],"result":"sente","termination":"resignation","plies":%d,`+
		`"players":{"sente":{"name":"a","kind":"random"},"gote":{"name":"b","kind":"random"}},"rules":{"repetition":"first-mover-loses","max_plies":0},"version":"test"}`,
		id, id+1, start, strings.Join(q, ","), len(moves))
}

// TestShards: the shards' tables, read in order, are the unsharded run's table.
func TestShards(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Fairy-Stockfish a dozen times")
	}
	positions, _, err := Collect(Sources{Files: []string{book}, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	l := labeller(t, 4)
	whole := t.TempDir()
	if _, err := (Run{Labeller: l, Positions: positions, Block: 3, Dir: whole}).Do(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := readRows(t, filepath.Join(whole, "labels-0-of-1.parquet"))
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d shards", n), func(t *testing.T) {
			dir := t.TempDir()
			var files []string
			total := 0
			for i := range n {
				sum, err := Run{Labeller: l, Positions: positions, Block: 3, Dir: dir, Shard: shard.Shard{Index: i, Count: n}}.Do(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				total += sum.Positions
				files = append(files, sum.File)
			}
			if got := readRows(t, files...); total != 10 || !reflect.DeepEqual(got, want) {
				t.Errorf("%d shards (%d positions): rows differ from the unsharded run's", n, total)
			}
		})
	}
}

// TestResume: a run stopped in the middle of a block, its journal's last line cut as a
// kill can leave it, then run again, gives the table of an uninterrupted run.
func TestResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Fairy-Stockfish several times")
	}
	positions, _, err := Collect(Sources{Files: []string{book}, Limit: 8})
	if err != nil {
		t.Fatal(err)
	}
	l := labeller(t, 5)
	ref := t.TempDir()
	if _, err := (Run{Labeller: l, Positions: positions, Block: 3, Dir: ref}).Do(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := readRows(t, filepath.Join(ref, "labels-0-of-1.parquet"))

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := Run{Labeller: l, Positions: positions, Block: 3, Dir: dir, OnRow: func(done, _ int) {
		if done == 5 {
			cancel()
		}
	}}
	if _, err := stopped.Do(ctx); err == nil || !strings.Contains(err.Error(), "run the same command again") {
		t.Fatalf("a stopped run: %v", err)
	}
	journal := filepath.Join(dir, "labels-0-of-1.journal.jsonl")
	f, err := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"index":5,"sfen":"rbs`) // a row cut by a kill
	f.Close()
	if _, err := os.Stat(filepath.Join(dir, "labels-0-of-1.parquet")); err == nil {
		t.Fatal("a stopped run wrote its table")
	}
	sum, err := Run{Labeller: l, Positions: positions, Block: 3, Dir: dir}.Do(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Blocks of 3: rows 0-2 were whole, 3-4 of the second block are labelled again.
	if sum.Kept != 3 || sum.Labelled != 5 {
		t.Errorf("resumed: %+v", sum)
	}
	if got := readRows(t, sum.File); !reflect.DeepEqual(got, want) {
		t.Errorf("resumed table differs from the uninterrupted one:\n%+v\n%+v", got, want)
	}
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("journal left after the table: %v", err)
	}
	t.Run("finished shard", func(t *testing.T) {
		sum, err := Run{Labeller: l, Positions: positions, Block: 3, Dir: dir}.Do(context.Background())
		if err != nil || sum.Kept != 8 || sum.Labelled != 0 {
			t.Errorf("again: %+v, %v", sum, err)
		}
	})
	t.Run("a shard being written", func(t *testing.T) {
		l2, err := filelock.Acquire(filelock.Beside(sum.File))
		if err != nil {
			t.Fatal(err)
		}
		defer l2.Release()
		_, err = Run{Labeller: l, Positions: positions, Block: 3, Dir: dir}.Do(context.Background())
		if err == nil || !strings.Contains(err.Error(), "being written by another run") {
			t.Errorf("a second run at once: %v", err)
		}
	})
	t.Run("another run's directory", func(t *testing.T) {
		_, err := Run{Labeller: l, Positions: positions[:7], Block: 3, Dir: dir}.Do(context.Background())
		if err == nil || !strings.Contains(err.Error(), "another run's") {
			t.Errorf("other positions into a finished shard: %v", err)
		}
	})
}

// TestDuckDB: DuckDB reads the table, its columns and its footer.
func TestDuckDB(t *testing.T) {
	if !duckdbtest.Available(t) {
		return
	}
	file := writeLines(t, "some.sfen", bookLines[0], mateIn1)
	positions, _, err := Collect(Sources{Files: []string{file}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	prov := labels.Provenance{Command: "train label test", Labeller: "Fairy-Stockfish test", Options: []string{"UCI_Variant=minishogi", "Threads=1"}}
	sum, err := Run{Labeller: labeller(t, 3), Positions: positions, Dir: dir, Provenance: prov}.Do(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, sum.File)
	got := duckdbtest.Query(t, fmt.Sprintf(`SELECT "index"::INT i, sfen, side, move, score_cp::INT score_cp, mate::INT mate, value, depth, nodes::INT nodes,
		score, source, game_id, ply, line, occurrences FROM '%s' ORDER BY "index"`, sum.File))
	if len(got) != len(rows) {
		t.Fatalf("DuckDB reads %d rows, the reader %d", len(got), len(rows))
	}
	for i, r := range rows {
		g := got[i]
		num := func(k string) any {
			if v, ok := g[k].(float64); ok {
				return int(v)
			}
			return g[k]
		}
		if num("i") != int(r.Index) || g["sfen"] != r.SFEN || g["side"] != r.Side || g["move"] != r.Move || num("score_cp") != deref(r.ScoreCP) ||
			num("mate") != deref(r.Mate) || g["value"] != r.Value || num("depth") != r.Depth || num("nodes") != int(r.Nodes) ||
			g["score"] != nil || g["source"] != file || g["game_id"] != nil || g["ply"] != nil || num("line") != *r.Line || num("occurrences") != 1 {
			t.Errorf("row %d: DuckDB %v, reader %+v", i, g, r)
		}
	}
	meta := duckdbtest.Query(t, fmt.Sprintf(`SELECT decode(key) k, decode(value) v FROM parquet_kv_metadata('%s')`, sum.File))
	kv := map[string]any{}
	for _, m := range meta {
		kv[m["k"].(string)] = m["v"]
	}
	for k, v := range map[string]string{"shogilab.table": "labels", "shogilab.format": "1", labels.CommandKey: "train label test", labels.LabellerKey: "Fairy-Stockfish test",
		labels.OptionsKey: "UCI_Variant=minishogi\nThreads=1", labels.LimitKey: "depth 3", labels.ShardKey: "0/1", labels.PositionsKey: "2"} {
		if kv[k] != v {
			t.Errorf("footer %s = %v, want %q", k, kv[k], v)
		}
	}
}

// TestBadInput: each bad input is an error that says what was wrong and where.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	badSFEN := writeLines(t, "bad.sfen", "rbsgk/4p/5/P4/KGSBR b - 1", "rbsgk/4p/5/P4 b - 1")
	notTable := filepath.Join(dir, "x.parquet")
	os.WriteFile(notTable, []byte("PAR1 not really"), 0o644)
	for _, c := range []struct {
		name  string
		err   func() error
		wants []string
	}{
		{"missing file", func() error {
			_, _, err := Collect(Sources{Files: []string{filepath.Join(dir, "nope.jsonl")}})
			return err
		}, []string{"nope.jsonl"}},
		{"bad SFEN line", func() error { _, _, err := Collect(Sources{Files: []string{badSFEN}}); return err }, []string{"bad.sfen:2"}},
		{"bad sample", func() error { _, _, err := Collect(Sources{Files: []string{badSFEN}, Sample: 1.5}); return err }, []string{"sample 1.5"}},
		{"not a table", func() error { _, err := labels.Open(notTable); return err }, []string{"x.parquet", "not a whole Parquet file"}},
		{"a games table", func() error {
			games := filepath.Join(dir, "games.parquet")
			if _, err := table.Convert(context.Background(), []string{sample}, games, table.PositionsPath(games)); err != nil {
				return err
			}
			_, err := labels.Open(games)
			return err
		}, []string{"games table, not a labels table"}},
		{"mcts labeller", func() error { _, err := ParseLabeller("mcts:playouts=100"); return err }, []string{"not a USI engine"}},
		{"timed labeller", func() error { _, err := ParseLabeller("usi:fairy-stockfish,movetime=100"); return err }, []string{"timed"}},
		{"labeller without a command", func() error { _, err := ParseLabeller("usi:depth=3"); return err }, []string{"command first"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if err == nil {
				t.Fatal("no error")
			}
			prefix := "label: "
			if strings.HasPrefix(c.name, "not a table") || strings.HasPrefix(c.name, "a games table") {
				prefix = "labels: " // package labels reads the tables
			}
			for _, w := range c.wants {
				if !strings.Contains(err.Error(), w) || !strings.HasPrefix(err.Error(), prefix) || strings.Contains(err.Error(), "\n") {
					t.Errorf("error %q: want one line, prefixed %q, with %q", err, prefix, w)
				}
			}
		})
	}
}

// TestREADMEColumns: datasets/README.md's table of the labels table's columns names every
// column of Schema, in order, and no other.
func TestREADMEColumns(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "datasets", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(text), "\n### The labels table\n")
	if !ok {
		t.Fatal(`datasets/README.md has no section "The labels table"`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var documented []string
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell := strings.Split(line, "|")[1]
		for _, name := range strings.Split(cell, ",") {
			documented = append(documented, strings.Trim(strings.TrimSpace(name), "`"))
		}
	}
	var columns []string
	for _, f := range labels.Schema.Fields() {
		columns = append(columns, f.Name)
	}
	if !reflect.DeepEqual(documented, columns) {
		t.Errorf("datasets/README.md documents %v; the table has %v", documented, columns)
	}
}
