package datasets_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/engine"
	"github.com/shogilab/shogilab/internal/duckdbtest"
)

// jsonGame is a record as this file's tests read it: with encoding/json into plain maps,
// independently of the record and dataset packages, whose tables they check.
type jsonGame map[string]any

// readJSONGames reads record files (plain or gzip) line by line with encoding/json.
func readJSONGames(t *testing.T, paths ...string) []jsonGame {
	t.Helper()
	var games []jsonGame
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = f
		if strings.HasSuffix(path, ".gz") {
			// gzip.Reader reads a multistream file (one member per game) as one text.
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			r = zr
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			d := json.NewDecoder(strings.NewReader(sc.Text()))
			d.UseNumber()
			var g jsonGame
			if err := d.Decode(&g); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			games = append(games, g)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return games
}

func (g jsonGame) str(key string) string { s, _ := g[key].(string); return s }

func (g jsonGame) int(key string) int {
	n, err := strconv.Atoi(string(g[key].(json.Number)))
	if err != nil {
		panic(err)
	}
	return n
}

func (g jsonGame) player(side string) map[string]any {
	return g["players"].(map[string]any)[side].(map[string]any)
}

func (g jsonGame) config(side string) map[string]any {
	c, _ := g.player(side)["config"].(map[string]any)
	return c
}

// mover is the side to move before the move of the given ply: the start's side on even
// plies (the SFEN's second field), the other on odd ones.
func (g jsonGame) mover(ply int) string {
	side := map[string]string{"b": "sente", "w": "gote"}[strings.Fields(g.str("start"))[1]]
	if ply%2 == 1 {
		side = map[string]string{"sente": "gote", "gote": "sente"}[side]
	}
	return side
}

// score is the game's result for side.
func (g jsonGame) score(side string) float64 {
	switch g.str("result") {
	case "draw":
		return 0.5
	case side:
		return 1
	}
	return 0
}

// sameCells compares two rows of cells, numbers as numbers (1 and 1.0 are the same).
func sameCells(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, errx := strconv.ParseFloat(a[i], 64)
		y, erry := strconv.ParseFloat(b[i], 64)
		if errx == nil && erry == nil {
			if x != y {
				return false
			}
		} else if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameCells(a[i], b[i]) {
			return false
		}
	}
	return true
}

// markdownTable returns the rows of the first Markdown table in text, without its header.
func markdownTable(text string) (header []string, rows [][]string) {
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "|") {
			if header != nil {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		switch {
		case header == nil:
			header = cells
		case cells[0] != "---":
			rows = append(rows, cells)
		}
	}
	return header, rows
}

// duckRows runs sql and returns its rows as cells in the order of columns.
func duckRows(t *testing.T, sql string, columns []string) [][]string {
	t.Helper()
	var out [][]string
	for _, r := range duckdbtest.Query(t, sql) {
		var cells []string
		for _, c := range columns {
			cells = append(cells, fmt.Sprint(r[c]))
		}
		out = append(out, cells)
	}
	return out
}

// pandasPython returns a Python 3 that imports pandas (Debian's python3-pandas, which .ci/run
// installs, is /usr/bin/python3's), or skips the test, failing it under CI=true.
func pandasPython(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if path, err := exec.LookPath(py); err == nil && exec.Command(path, "-c", "import pandas").Run() == nil {
			return path
		}
	}
	msg := "no python3 with pandas (apt-get install python3-pandas)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// section returns the section of datasets/README.md that starts with the heading line.
func section(t *testing.T, heading string) string {
	t.Helper()
	return sectionOf(t, "README.md", heading)
}

// sectionOf returns the section of the markdown file path that starts with the heading
// line, up to the next heading of level 2 or 3.
func sectionOf(t *testing.T, path, heading string) string {
	t.Helper()
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, s, ok := strings.Cut(string(readme), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no section %q", path, heading)
	}
	s, _, _ = strings.Cut(s, "\n## ")
	s, _, _ = strings.Cut(s, "\n### ")
	return s
}

// fenced returns the contents of the fenced blocks of the given language, in order.
func fenced(text, lang string) []string {
	var blocks []string
	for {
		_, rest, ok := strings.Cut(text, "```"+lang+"\n")
		if !ok {
			return blocks
		}
		block, after, _ := strings.Cut(rest, "```")
		blocks = append(blocks, block)
		text = after
	}
}

// TestTablesInSQLAndPandas runs the README's section "Both tables in SQL, and the records
// in pandas": its two queries in DuckDB over the tables of the section before's export, and
// its pandas script over the JSON Lines file. Each answer must be the README's table, and
// the README's tables must be what this test computes from the records itself.
func TestTablesInSQLAndPandas(t *testing.T) {
	text := section(t, "### Both tables in SQL, and the records in pandas")
	queries := fenced(text, "sql")
	scripts := fenced(text, "python")
	outputs := fenced(text, "csv")
	if len(queries) != 2 || len(scripts) != 1 || len(outputs) != 1 {
		t.Fatalf("the section has %d SQL, %d Python and %d CSV blocks; want 2, 1, 1", len(queries), len(scripts), len(outputs))
	}
	var tables [][][]string
	var headers [][]string
	rest := text
	for _, q := range queries {
		_, after, _ := strings.Cut(rest, q)
		h, rows := markdownTable(after)
		headers, tables = append(headers, h), append(tables, rows)
		rest = after
	}

	// The records, read here.
	const file = "selfplay/mcts400/games-0-of-1.jsonl.gz"
	games := readJSONGames(t, file)
	type group struct {
		resign, termination, result string
		plies                       []int
	}
	groups := map[[3]string]*group{}
	type bucket struct {
		n     int
		score float64
	}
	buckets := map[float64]*bucket{}
	for _, g := range games {
		key := [3]string{fmt.Sprint(g.config("sente")["resign"]), g.str("termination"), g.str("result")}
		if groups[key] == nil {
			groups[key] = &group{resign: key[0], termination: key[1], result: key[2]}
		}
		groups[key].plies = append(groups[key].plies, g.int("plies"))
		stats, _ := g["stats"].([]any)
		for ply, s := range stats {
			side := g.mover(ply)
			if g.player(side)["kind"] != "mcts" {
				continue
			}
			v, _ := s.(map[string]any)["value"].(json.Number).Float64()
			b := math.Round(v*2) / 2
			if buckets[b] == nil {
				buckets[b] = &bucket{}
			}
			buckets[b].n++
			buckets[b].score += g.score(side)
		}
	}
	round := func(x float64, decimals int) string {
		p := math.Pow(10, float64(decimals))
		return strconv.FormatFloat(math.Round(x*p)/p, 'f', -1, 64)
	}
	var lengths [][]string
	var sorted []*group
	for _, g := range groups {
		sorted = append(sorted, g)
	}
	sort.Slice(sorted, func(i, j int) bool {
		if len(sorted[i].plies) != len(sorted[j].plies) {
			return len(sorted[i].plies) > len(sorted[j].plies)
		}
		return sorted[i].result < sorted[j].result
	})
	for _, g := range sorted {
		sum := 0
		for _, p := range g.plies {
			sum += p
		}
		lengths = append(lengths, []string{g.resign, g.termination, g.result, fmt.Sprint(len(g.plies)),
			round(float64(sum)/float64(len(g.plies)), 1), fmt.Sprint(slices.Min(g.plies)), fmt.Sprint(slices.Max(g.plies))})
	}
	var calibration [][]string
	var values []float64
	for v := range buckets {
		values = append(values, v)
	}
	slices.Sort(values)
	for _, v := range values {
		b := buckets[v]
		calibration = append(calibration, []string{round(v, 1), fmt.Sprint(b.n), round(b.score/float64(b.n), 3)})
	}
	for i, want := range [][][]string{lengths, calibration} {
		if !sameRows(tables[i], want) {
			t.Errorf("README table %d:\n%v\nfrom the records:\n%v", i+1, tables[i], want)
		}
	}

	// pandas, over the JSON Lines file, from the repository root.
	py := pandasPython(t)
	cmd := exec.Command(py, "-c", scripts[0])
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the pandas script: %v\n%s", err, stderr.String())
	}
	if got, want := strings.TrimSpace(string(out)), strings.TrimSpace(outputs[0]); got != want {
		t.Errorf("pandas prints\n%s\nthe README says\n%s", got, want)
	}
	// Its rows, sorted by the group keys as groupby sorts them, are the first table's.
	var csvRows [][]string
	for _, line := range strings.Split(strings.TrimSpace(outputs[0]), "\n")[1:] {
		csvRows = append(csvRows, strings.Split(line, ","))
	}
	byKeys := slices.Clone(lengths)
	slices.SortFunc(byKeys, func(a, b []string) int { return strings.Compare(strings.Join(a[:3], ","), strings.Join(b[:3], ",")) })
	if !sameRows(csvRows, byKeys) {
		t.Errorf("the README's pandas output\n%v\nfrom the records:\n%v", csvRows, byKeys)
	}

	// DuckDB, over the tables the export before this section makes.
	if !duckdbtest.Available(t) {
		return
	}
	var exportArgs []string
	for _, line := range strings.Split(section(t, "### The same question in DuckDB"), "\n") {
		if rest, ok := strings.CutPrefix(line, "go run ./cmd/selfplay "); ok {
			exportArgs = splitWords(t, rest)
		}
	}
	if exportArgs == nil || !slices.Contains(exportArgs, filepath.Join("datasets", file)) {
		t.Fatalf("the DuckDB section's export %v does not convert datasets/%s", exportArgs, file)
	}
	dir := t.TempDir()
	run(t, "selfplay", withFlag(t, exportArgs, "--out", dir)...)
	for i, q := range queries {
		got := duckRows(t, strings.ReplaceAll(q, "/tmp/mcts400", dir), headers[i])
		if !sameRows(got, tables[i]) {
			t.Errorf("DuckDB answers query %d with\n%v\nthe README says\n%v", i+1, got, tables[i])
		}
	}
}

// TestParquetNewColumns plays a small run whose engine side sets settings of every type,
// against a random mover, in two shards exported in the wrong order, and reads the tables
// with DuckDB: the games come by id, each player's setting columns hold its config's values
// (null where the config lacks them, as for the random mover), and each position's score,
// termination and plies are its game's, for the side to move; all as this test computes
// them from the JSON Lines records itself.
func TestParquetNewColumns(t *testing.T) {
	if !duckdbtest.Available(t) {
		return
	}
	dir := t.TempDir()
	const spec = "mcts:playouts=30,name=tuned,CPuct=1.5,MateDepth=3,Twins=off,RepetitionLeaves=true,Resign=never,MinimaxWeight=0.1,EvalFile=handset,MateNodes=200"
	var files []string
	for _, shard := range []string{"1/2", "0/2"} {
		out := filepath.Join(dir, "shard"+shard[:1])
		run(t, "selfplay", "--games", "8", "--shard", shard, "--sente", spec, "--gote", "random", "--max-plies", "40",
			"--seed", "5", "--parallel", "2", "--out", out)
		files = append(files, filepath.Join(out, "games-"+shard[:1]+"-of-2.jsonl"))
	}
	tables := filepath.Join(dir, "tables")
	run(t, "selfplay", append([]string{"export", "--format", "parquet", "--out", tables}, files...)...)
	games := readJSONGames(t, files...)
	if len(games) != 8 {
		t.Fatalf("%d games; want 8", len(games))
	}
	slices.SortFunc(games, func(a, b jsonGame) int { return a.int("id") - b.int("id") })

	// The games table: ids in order, and a column per setting a player spec may set.
	var keys []string
	for _, s := range engine.AllSettings() {
		if !s.PerGame {
			keys = append(keys, s.Key())
		}
	}
	var cols []string
	for _, side := range []string{"sente", "gote"} {
		for _, k := range keys {
			cols = append(cols, fmt.Sprintf("players.%s.%s::VARCHAR AS %s_%s", side, k, side, k))
		}
	}
	rows := duckdbtest.Query(t, fmt.Sprintf("SELECT id::VARCHAR AS id, %s FROM '%s'", strings.Join(cols, ", "), filepath.Join(tables, "games.parquet")))
	if len(rows) != len(games) {
		t.Fatalf("DuckDB reads %d games; want %d", len(rows), len(games))
	}
	set := 0
	for i, r := range rows {
		g := games[i]
		if r["id"] != fmt.Sprint(g.int("id")) {
			t.Fatalf("row %d is game %v; want game %d (the games by id)", i, r["id"], g.int("id"))
		}
		for _, side := range []string{"sente", "gote"} {
			config := g.config(side)
			for _, k := range keys {
				want := any(nil)
				if v, ok := config[k]; ok {
					want = fmt.Sprint(v) // DuckDB's VARCHAR of the number, text or true/false
					set++
				}
				if got := r[side+"_"+k]; got != want {
					t.Errorf("game %d: DuckDB reads players.%s.%s %v; the record's config has %v", g.int("id"), side, k, got, want)
				}
			}
		}
	}
	if set < 8*10 {
		t.Errorf("only %d settings named in the configs: the run does not set what it should", set)
	}

	// The positions table: each row's game outcome for the side to move.
	prows := duckdbtest.Query(t, fmt.Sprintf("SELECT game_id::VARCHAR AS id, ply, side, score, termination, plies FROM '%s'", filepath.Join(tables, "positions.parquet")))
	i := 0
	for _, g := range games {
		for ply := range g.int("plies") {
			if i >= len(prows) {
				t.Fatalf("DuckDB reads %d positions; the records have more", len(prows))
			}
			r := prows[i]
			i++
			side := g.mover(ply)
			want := fmt.Sprint(g.int("id"), " ", ply, " ", side, " ", g.score(side), " ", g.str("termination"), " ", g.int("plies"))
			if got := fmt.Sprint(r["id"], " ", r["ply"], " ", r["side"], " ", r["score"], " ", r["termination"], " ", r["plies"]); got != want {
				t.Fatalf("position %d: DuckDB reads %s; the records say %s", i-1, got, want)
			}
		}
	}
	if i != len(prows) {
		t.Errorf("DuckDB reads %d positions; the records have %d", len(prows), i)
	}
}
