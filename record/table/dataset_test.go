package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/shogilab/shogilab/internal/duckdbtest"
	"github.com/shogilab/shogilab/record"
)

// sources are the record files the tests convert: the record package's
// examples (an external engine's scores and mates, a random player's zero
// statistics, a game without moves, nanosecond times) and the shipped
// self-play datasets.
//
// The fourth example has a move that is not legal (the format does not
// check legality), which the positions table cannot hold: left out.
func sources(t *testing.T) []string {
	data, err := os.ReadFile("../testdata/valid.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	examples := filepath.Join(t.TempDir(), "examples.jsonl")
	if err := os.WriteFile(examples, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob("../../datasets/selfplay/*/games-*.jsonl.gz")
	more, _ := filepath.Glob("../../datasets/selfplay/*/*/games-*.jsonl.gz")
	all := append(append([]string{examples}, paths...), more...)
	if len(all) < 8 {
		t.Fatalf("sources %v", all)
	}
	return all
}

// readJSONL reads record files with the record package alone.
func readJSONL(t *testing.T, paths ...string) []*record.Game {
	t.Helper()
	return drain(t, record.NewReader(paths))
}

func readAll(t *testing.T, opts Options, paths ...string) []*record.Game {
	t.Helper()
	return drain(t, NewReader(paths, opts))
}

// drain reads r to its end, failing t on an error, and closes it.
func drain(t *testing.T, r interface {
	Read() (*record.Game, error)
	Close() error
}) []*record.Game {
	t.Helper()
	defer r.Close()
	var games []*record.Game
	for {
		g, err := r.Read()
		if err == io.EOF {
			return games
		}
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
}

// convert writes the sources as tables in a fresh directory, and returns
// their games in the tables' order: by id, games of one id (in several
// files) in the order of the files.
func convert(t *testing.T) (dir string, games []*record.Game) {
	t.Helper()
	dir = t.TempDir()
	src := sources(t)
	n, err := Convert(context.Background(), src, filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	games = readJSONL(t, src...)
	if n != len(games) || n < 320 {
		t.Fatalf("converted %d games of %d", n, len(games))
	}
	slices.SortStableFunc(games, func(a, b *record.Game) int { return a.ID - b.ID })
	return dir, games
}

// TestRoundTrip: records → Parquet → records gives the records back, field by
// field, statistics included (from the positions table).
func TestRoundTrip(t *testing.T) {
	dir, want := convert(t)
	got := readAll(t, Options{}, filepath.Join(dir, "games.parquet"))
	if len(got) != len(want) {
		t.Fatalf("%d games back, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			a, _ := record.MarshalLine(got[i])
			b, _ := record.MarshalLine(want[i])
			t.Fatalf("game %d differs:\n got %s\nwant %s", want[i].ID, a, b)
		}
	}
	// A projected read gives those fields and leaves the rest zero.
	fields := record.FieldMoves | record.FieldResult | record.FieldPlayers
	for i, g := range readAll(t, Options{Fields: fields}, filepath.Join(dir, "games.parquet")) {
		w := want[i]
		p := record.Game{Moves: w.Moves, Result: w.Result, Players: w.Players}
		if !reflect.DeepEqual(*g, p) {
			t.Fatalf("projected game %d: %+v, want %+v", w.ID, g, p)
		}
	}
}

// TestDuckDBAgrees reads the tables with DuckDB, an independent Parquet
// reader, and compares what it sees with the records read by the record
// package: counts and results, every game's scalar fields, and every ply's
// move and statistics.
func TestDuckDBAgrees(t *testing.T) {
	if !duckdbtest.Available(t) {
		return
	}
	dir, games := convert(t)
	gp, pp := filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet")

	results := map[string]int{}
	plies := 0
	for _, g := range games {
		results[string(g.Result)]++
		plies += g.Plies
	}
	row := duckdbtest.Query(t, fmt.Sprintf(`SELECT count(*)::INT n, count(*) FILTER (result = 'sente')::INT sente,
		count(*) FILTER (result = 'gote')::INT gote, count(*) FILTER (result = 'draw')::INT draw, sum(plies)::INT plies,
		(SELECT count(*) FROM '%s')::INT positions FROM '%s'`, pp, gp))[0]
	if want := fmt.Sprint(map[string]any{"n": float64(len(games)), "sente": float64(results["sente"]), "gote": float64(results["gote"]),
		"draw": float64(results["draw"]), "plies": float64(plies), "positions": float64(plies)}); fmt.Sprint(row) != want {
		t.Errorf("DuckDB counts %v; the records %s", row, want)
	}

	rows := duckdbtest.Query(t, fmt.Sprintf(`SELECT id::VARCHAR id, seed::VARCHAR seed, variant, start, start_name, moves, result, termination,
		plies, players.sente.name sente, players.gote.kind gote_kind, players.sente.config::VARCHAR sente_config,
		rules.repetition repetition, rules.max_plies max_plies, version, epoch_ns(started_at)::VARCHAR started_ns, seconds
		FROM read_parquet('%s', file_row_number = true) ORDER BY file_row_number`, gp))
	if len(rows) != len(games) {
		t.Fatalf("DuckDB reads %d games", len(rows))
	}
	for i, r := range rows {
		g := games[i]
		if r["id"] != fmt.Sprint(g.ID) || r["seed"] != fmt.Sprint(g.Seed) {
			t.Fatalf("row %d: DuckDB reads game %v seed %v; the records have game %d seed %d", i, r["id"], r["seed"], g.ID, g.Seed)
		}
		var config any
		if r["sente_config"] != nil {
			json.Unmarshal([]byte(r["sente_config"].(string)), &config)
		}
		var wantConfig any
		if g.Players.Sente.Config != nil {
			wantConfig = map[string]any(g.Players.Sente.Config)
		}
		started := any(nil)
		if !g.StartedAt.IsZero() {
			// DuckDB reads a UTC timestamp as TIMESTAMPTZ, in microseconds.
			started = fmt.Sprint(g.StartedAt.UnixNano() / 1000 * 1000)
		}
		seconds := any(nil)
		if g.Seconds != 0 {
			seconds = g.Seconds
		}
		startName := any(nil)
		if g.StartName != "" {
			startName = g.StartName
		}
		moves := []any{}
		for _, m := range g.Moves {
			moves = append(moves, m)
		}
		for _, c := range []struct {
			col       string
			got, want any
		}{
			{"variant", r["variant"], g.Variant}, {"start", r["start"], g.Start}, {"start_name", r["start_name"], startName},
			{"moves", r["moves"], moves}, {"result", r["result"], string(g.Result)}, {"termination", r["termination"], string(g.Termination)},
			{"plies", r["plies"], float64(g.Plies)}, {"players.sente.name", r["sente"], g.Players.Sente.Name},
			{"players.gote.kind", r["gote_kind"], g.Players.Gote.Kind}, {"players.sente.config", config, wantConfig},
			{"rules.repetition", r["repetition"], g.Rules.Repetition}, {"rules.max_plies", r["max_plies"], float64(g.Rules.MaxPlies)},
			{"version", r["version"], g.Version}, {"started_at", r["started_ns"], started}, {"seconds", r["seconds"], seconds},
		} {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Fatalf("game %d: DuckDB reads %s %#v; the record has %#v", g.ID, c.col, c.got, c.want)
			}
		}
	}

	// Every ply: the move and the statistics, in order. Games of one id
	// from several files (the ladder's) are told apart by their order.
	prows := duckdbtest.Query(t, fmt.Sprintf(`SELECT game_id::VARCHAR game_id, ply, side, move, result, visits::VARCHAR visits, value,
		[t.move || ':' || t.visits FOR t IN top] top, score_cp::VARCHAR score_cp, mate::VARCHAR mate, ms, sfen,
		fast, [p.move || ':' || p.p FOR p IN "policy"] "policy"
		FROM read_parquet('%s', file_row_number = true) ORDER BY file_row_number`, pp))
	i := 0
	for _, g := range games {
		for ply, m := range g.Moves {
			r := prows[i]
			i++
			want := map[string]any{"game_id": fmt.Sprint(g.ID), "ply": float64(ply), "move": m, "result": string(g.Result),
				"visits": nil, "value": nil, "top": nil, "score_cp": nil, "mate": nil, "ms": nil, "fast": nil, "policy": nil}
			if ply < len(g.Stats) {
				s := g.Stats[ply]
				want["visits"], want["value"], want["ms"], want["fast"] = fmt.Sprint(s.Visits), s.Value, s.MS, s.Fast
				if len(s.Policy) > 0 {
					var policy []any
					for _, p := range s.Policy {
						policy = append(policy, fmt.Sprintf("%s:%v", p.Move, p.P))
					}
					want["policy"] = policy
				}
				if len(s.Top) > 0 {
					var top []any
					for _, tm := range s.Top {
						top = append(top, fmt.Sprintf("%s:%d", tm.Move, tm.Visits))
					}
					want["top"] = top
				}
				if s.ScoreCP != nil {
					want["score_cp"] = fmt.Sprint(*s.ScoreCP)
				}
				if s.Mate != nil {
					want["mate"] = fmt.Sprint(*s.Mate)
				}
			}
			for k, v := range want {
				if !reflect.DeepEqual(r[k], v) {
					t.Fatalf("game %d ply %d: DuckDB reads %s %#v; the record has %#v", g.ID, ply, k, r[k], v)
				}
			}
			// The side to move alternates from the start's, and the SFEN
			// says it too; the first position is the start.
			side := strings.Fields(g.Start)[1]
			if ply%2 == 1 {
				side = map[string]string{"b": "w", "w": "b"}[side]
			}
			if f := strings.Fields(r["sfen"].(string)); len(f) != 4 || f[1] != side || r["side"] != map[string]string{"b": "sente", "w": "gote"}[side] {
				t.Fatalf("game %d ply %d: sfen %v, side %v; want side %s", g.ID, ply, r["sfen"], r["side"], side)
			}
			if ply == 0 && r["sfen"] != g.Start {
				t.Fatalf("game %d: first position %v, start %s", g.ID, r["sfen"], g.Start)
			}
		}
	}
	if i != len(prows) {
		t.Errorf("DuckDB reads %d positions; the records have %d", len(prows), i)
	}
	// The metadata says which table is which.
	kv := duckdbtest.Query(t, fmt.Sprintf(`SELECT decode(key) k, decode(value) v FROM parquet_kv_metadata('%s') WHERE decode(key) LIKE 'shogilab.%%' ORDER BY k`, gp))
	// The pair's digest (PairKey), as DuckDB computes it from the games table's rows.
	digest := duckdbtest.Query(t, fmt.Sprintf(`SELECT sha256(string_agg(id || ' ' || array_to_string(moves, ' ') || chr(10), '' ORDER BY file_row_number)) d FROM read_parquet('%s', file_row_number = true)`, gp))[0]["d"]
	if want := fmt.Sprintf("[map[k:shogilab.format v:1] map[k:shogilab.pair v:%s] map[k:shogilab.positions v:positions.parquet] map[k:shogilab.table v:games]]", digest); fmt.Sprint(kv) != want {
		t.Errorf("games table metadata %v, want %s", kv, want)
	}
	pkv := duckdbtest.Query(t, fmt.Sprintf(`SELECT decode(value) v FROM parquet_kv_metadata('%s') WHERE decode(key) = 'shogilab.pair'`, filepath.Join(filepath.Dir(gp), "positions.parquet")))
	if len(pkv) != 1 || pkv[0]["v"] != digest {
		t.Errorf("positions table digest %v, want %v", pkv, digest)
	}
}

// TestSchemasInStep: every key of the JSON Schema of a record is a column of
// the games table (the statistics: of the positions table), with a matching
// type, and every column is a key, so neither format gains a field alone.
func TestSchemasInStep(t *testing.T) {
	data, err := os.ReadFile("../../datasets/record.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var sch struct {
		Properties map[string]map[string]any
		Defs       map[string]struct{ Properties map[string]map[string]any } `json:"$defs"`
	}
	if err := json.Unmarshal(data, &sch); err != nil {
		t.Fatal(err)
	}
	// The JSON type a column holds (integers, numbers, strings, lists,
	// objects; a free-form object is JSON text).
	kind := func(dt arrow.DataType) string {
		switch dt.ID() {
		case arrow.INT32, arrow.INT64, arrow.UINT64:
			return "integer"
		case arrow.FLOAT64:
			return "number"
		case arrow.BOOL:
			return "boolean"
		case arrow.STRING:
			return "string"
		case arrow.TIMESTAMP:
			return "date-time string"
		case arrow.LIST:
			return "array"
		case arrow.STRUCT:
			return "object"
		case arrow.EXTENSION:
			return "object" // JSON text
		}
		return dt.String()
	}
	jsonKind := func(p map[string]any) string {
		switch {
		case p["type"] != nil && p["pattern"] != nil && strings.Contains(p["pattern"].(string), "T[0-9]{2}"):
			return "date-time string"
		case p["type"] != nil:
			return p["type"].(string)
		case p["enum"] != nil:
			return "string"
		case p["$ref"] != nil && strings.HasSuffix(p["$ref"].(string), "usiMove"):
			return "string"
		case p["$ref"] != nil:
			return "object"
		}
		return fmt.Sprint(p)
	}
	check := func(table string, schema *arrow.Schema, props map[string]map[string]any, extra []string, only map[string]bool) {
		cols := map[string]arrow.DataType{}
		for _, f := range schema.Fields() {
			cols[f.Name] = f.Type
		}
		for key, p := range props {
			if only != nil && !only[key] {
				continue
			}
			col := key
			dt, ok := cols[col]
			if !ok {
				t.Errorf("record key %q has no column in the %s table", key, table)
				continue
			}
			if kind(dt) != jsonKind(p) {
				t.Errorf("record key %q is %s, the %s table's column %s", key, jsonKind(p), table, kind(dt))
			}
			delete(cols, col)
		}
		for _, col := range extra {
			delete(cols, col)
		}
		if only == nil {
			for col := range cols {
				t.Errorf("the %s table's column %q is no key of a record", table, col)
			}
		}
	}
	games := map[string]bool{}
	for k := range sch.Properties {
		games[k] = k != "stats"
	}
	if _, ok := sch.Properties["stats"]; !ok {
		t.Fatal("the JSON Schema has no stats")
	}
	check("games", GamesSchema, sch.Properties, nil, games)
	if n := len(GamesSchema.Fields()); n != len(sch.Properties)-1 {
		t.Errorf("the games table has %d columns; the record %d keys besides stats", n, len(sch.Properties)-1)
	}
	// The positions table: the statistics' keys, the columns that say
	// where a move is (game_id, ply, sfen, side, move), and the game's
	// outcome (result, score, termination, plies).
	check("positions", PositionsSchema, sch.Defs["moveStats"].Properties, []string{"game_id", "ply", "sfen", "side", "move", "result", "score", "termination", "plies"}, nil)
}

// TestBadFiles: a games table cut short, a Parquet file that is not a table
// of this package, a positions table where a games table is due, and text
// named .parquet are each a one-line error that names the file.
func TestBadFiles(t *testing.T) {
	dir, _ := convert(t)
	gp := filepath.Join(dir, "games.parquet")
	data, err := os.ReadFile(gp)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.parquet")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	text := filepath.Join(dir, "text.parquet")
	os.WriteFile(text, []byte(`{"id":0}`+"\n"), 0o644)
	foreign := filepath.Join(dir, "foreign.parquet")
	writeForeign(t, foreign)
	noPositions := filepath.Join(t.TempDir(), "games.parquet")
	os.WriteFile(noPositions, data, 0o644)
	for _, c := range []struct {
		path, want string
		opts       Options
	}{
		{cut, "not a whole Parquet file", Options{}},
		{text, "not a whole Parquet file", Options{}},
		{foreign, "without shogilab.table in its metadata", Options{}},
		{filepath.Join(dir, "positions.parquet"), "a positions table, not a games table", Options{}},
		{noPositions, "positions.parquet: no such file", Options{}},
	} {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			_, err := NewReader([]string{c.path}, c.opts).Read()
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path[:len(c.path)-len("positions.parquet")]) ||
				strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "table: ") {
				t.Errorf("%s: %v; want one line naming the file, with %q", filepath.Base(c.path), err, c.want)
			}
		})
	}
	// Without statistics the games table reads alone.
	if got := readAll(t, Options{Fields: record.FieldMoves}, noPositions); len(got) < 320 {
		t.Errorf("%d games without the positions table", len(got))
	}
	if err := Positions([]string{cut}, func(*Position) error { return nil }); err == nil || !strings.Contains(err.Error(), cut) {
		t.Errorf("Positions of a cut file: %v", err)
	}
}

// writeForeign writes a Parquet file of some other program: two columns and
// no metadata of ours.
func writeForeign(t *testing.T, path string) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	b.Field(0).(*array.Int64Builder).Append(1)
	b.Field(1).(*array.StringBuilder).Append("x")
	rec := b.NewRecordBatch()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	fw, err := pqarrow.NewFileWriter(sc, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPositions: the positions of the records, from the record files by
// replay and from the tables, are the same rows (the tables' by game id);
// ply by ply, the SFENs
// follow the moves (each SFEN's board differs from the one before). A row
// of ply 0 starts a game: ids repeat across the files of different runs.
func TestPositions(t *testing.T) {
	dir, games := convert(t)
	collect := func(paths ...string) []Position {
		var out []Position
		err := Positions(paths, func(p *Position) error {
			c := *p
			if p.Stats != nil {
				s := *p.Stats
				c.Stats = &s
			}
			out = append(out, c)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	fromRecords := collect(sources(t)...)
	// The records name each mover's kind; the tables do not carry it by position.
	for i := range fromRecords {
		if fromRecords[i].Mover == "" {
			t.Fatalf("game %d ply %d: no mover kind from a record", fromRecords[i].Game, fromRecords[i].Ply)
		}
		fromRecords[i].Mover = ""
	}
	// The tables hold the games by id; the records, in the files' order.
	slices.SortStableFunc(fromRecords, func(a, b Position) int { return a.Game - b.Game })
	fromTable := collect(filepath.Join(dir, "positions.parquet"))
	fromGames := collect(filepath.Join(dir, "games.parquet"))
	plies := 0
	for _, g := range games {
		plies += g.Plies
	}
	if len(fromRecords) != plies || !reflect.DeepEqual(fromRecords, fromTable) || !reflect.DeepEqual(fromTable, fromGames) {
		t.Fatalf("%d positions from the records, %d from the positions table, %d through the games table; want %d, equal",
			len(fromRecords), len(fromTable), len(fromGames), plies)
	}
	for i, p := range fromTable[1:] {
		prev := fromTable[i]
		if p.Game == prev.Game && p.Ply != 0 && (p.Ply != prev.Ply+1 || p.SFEN == prev.SFEN || p.Side == prev.Side) {
			t.Fatalf("game %d ply %d: %+v after %+v", p.Game, p.Ply, p, prev)
		}
	}
}

// TestTimes: nanoseconds and a zero time survive the table.
func TestTimes(t *testing.T) {
	dir := t.TempDir()
	g := readJSONL(t, "../testdata/valid.jsonl")[1]
	g.StartedAt = time.Date(2262, 4, 11, 23, 47, 16, 854775807, time.UTC) // the last nanosecond an int64 holds
	h := *g
	h.ID, h.StartedAt, h.Seconds = 9, time.Time{}, 0
	w, err := Create(filepath.Join(dir, "g.parquet"), filepath.Join(dir, "p.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	w.Write(g)
	w.Write(&h)
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, Options{Fields: record.FieldStartedAt | record.FieldSeconds}, filepath.Join(dir, "g.parquet"))
	if !got[0].StartedAt.Equal(g.StartedAt) || got[0].Seconds != g.Seconds || !got[1].StartedAt.IsZero() || got[1].Seconds != 0 || math.IsNaN(got[0].Seconds) {
		t.Errorf("times %v %v, %v %v", got[0].StartedAt, got[0].Seconds, got[1].StartedAt, got[1].Seconds)
	}
	if !slices.Equal(got[0].Moves, nil) {
		t.Error("moves read though not asked for")
	}
	_ = errors.New
}

// TestSorterSpills sorts games by id through runs of three spilled to files and merged:
// ids come out in order, games of one id in the order added, and no run file stays behind.
func TestSorterSpills(t *testing.T) {
	dir := t.TempDir()
	s := &sorter{dir: dir, size: 3}
	ids := []int{7, 1, 4, 1, 0, 9, 3, 2, 8, 5, 6}
	for i, id := range ids {
		g := &record.Game{ID: id, Seed: uint64(i), Variant: "minishogi", Start: "rbsgk/4p/5/P4/KGSBR b - 1", Moves: []string{},
			Result: record.Draw, Termination: record.MaxPlies, Players: record.Players{Sente: record.Player{Name: "a", Kind: record.KindRandom},
				Gote: record.Player{Name: "b", Kind: record.KindRandom}}, Rules: record.Rules{Repetition: record.RepetitionDraw}, Version: "test"}
		if err := s.add(g); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.runs) != 3 {
		t.Errorf("%d runs spilled; want 3 (11 games in runs of 3, the last two kept)", len(s.runs))
	}
	var got []string
	if err := s.each(nil, func(g *record.Game) error { got = append(got, fmt.Sprintf("%d/%d", g.ID, g.Seed)); return nil }); err != nil {
		t.Fatal(err)
	}
	// Seeds are the order of addition: the two games of id 1 were added 2nd and 4th.
	if want := "0/4 1/1 1/3 2/7 3/6 4/2 5/9 6/10 7/0 8/8 9/5"; strings.Join(got, " ") != want {
		t.Errorf("sorted %s; want %s", strings.Join(got, " "), want)
	}
	s.cleanup()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// TestSettingColumns: a typed column per setting beside config, holding the config's value
// where it has the key with a value of the column's type (a JSON number that is whole for an
// integer column), and null otherwise: a key missing, a value of another type, a player
// without a config. DuckDB reads them; the expected values are written by hand.
func TestSettingColumns(t *testing.T) {
	if !duckdbtest.Available(t) {
		return
	}
	settings := []SettingColumn{{"threads", SettingInt}, {"c_puct", SettingFloat}, {"resign", SettingText}, {"repetition_leaves", SettingBool}}
	dir := t.TempDir()
	gp, pp := filepath.Join(dir, "games.parquet"), filepath.Join(dir, "positions.parquet")
	w, err := Create(gp, pp, settings...)
	if err != nil {
		t.Fatal(err)
	}
	game := func(id int, sente, gote map[string]any) *record.Game {
		return &record.Game{ID: id, Variant: "minishogi", Start: "rbsgk/4p/5/P4/KGSBR b - 1", Moves: []string{"2e4c"}, Plies: 1,
			Result: record.Sente, Termination: record.Resignation, Players: record.Players{
				Sente: record.Player{Name: "s", Kind: record.KindMCTS, Config: sente}, Gote: record.Player{Name: "g", Kind: record.KindUSI, Config: gote}},
			Rules: record.Rules{Repetition: record.RepetitionFirstMoverLoses}, Version: "test"}
	}
	for _, g := range []*record.Game{
		game(0, map[string]any{"threads": float64(2), "c_puct": 1.5, "resign": "never", "repetition_leaves": true}, nil), // as decoded from JSON
		game(1, map[string]any{"threads": int64(1), "c_puct": int64(2), "resign": "proven"}, map[string]any{"threads": "4"}),
		game(2, map[string]any{"threads": 1.5, "c_puct": "1.5", "resign": 3, "repetition_leaves": "yes"}, map[string]any{}),
		game(3, map[string]any{"repetition_leaves": "false"}, nil), // as a record's config writes a check setting
	} {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rows := duckdbtest.Query(t, fmt.Sprintf(`SELECT id, players.sente.threads::VARCHAR st, players.sente.c_puct sc, players.sente.resign sr,
		players.sente.repetition_leaves sl, players.gote.threads::VARCHAR gt, typeof(players.sente.threads) tt, typeof(players.sente.c_puct) tc,
		typeof(players.sente.resign) tr, typeof(players.sente.repetition_leaves) tl FROM '%s' ORDER BY id`, gp))
	want := []string{
		"0 2 1.5 never true <nil> BIGINT DOUBLE VARCHAR BOOLEAN",
		"1 1 2 proven <nil> <nil> BIGINT DOUBLE VARCHAR BOOLEAN",
		"2 <nil> <nil> <nil> <nil> <nil> BIGINT DOUBLE VARCHAR BOOLEAN",
		"3 <nil> <nil> <nil> false <nil> BIGINT DOUBLE VARCHAR BOOLEAN",
	}
	for i, r := range rows {
		got := fmt.Sprint(r["id"], " ", r["st"], " ", r["sc"], " ", r["sr"], " ", r["sl"], " ", r["gt"], " ", r["tt"], " ", r["tc"], " ", r["tr"], " ", r["tl"])
		if i >= len(want) || got != want[i] {
			t.Errorf("row %d: %s", i, got)
		}
	}
	if len(rows) != len(want) {
		t.Errorf("%d rows; want %d", len(rows), len(want))
	}
	// The tables still read back as records.
	if got := readAll(t, Options{}, gp); len(got) != 4 || got[2].Players.Sente.Config["resign"] != float64(3) {
		t.Errorf("read back %d games, the third's config %v", len(got), got[2].Players.Sente.Config)
	}
	if _, err := Create(filepath.Join(dir, "g2.parquet"), filepath.Join(dir, "p2.parquet"), SettingColumn{"config", SettingText}); err == nil {
		t.Error("a setting column named config was accepted")
	}
}

// TestTablesBeforeTargets: a positions table written before the columns fast and policy
// (issue 32), made here by DuckDB from a new one without them and with its metadata,
// reads back as the records with every move a target and no policies.
func TestTablesBeforeTargets(t *testing.T) {
	if !duckdbtest.Available(t) {
		return
	}
	dir, want := convert(t)
	pp := filepath.Join(dir, "positions.parquet")
	now := filepath.Join(dir, "positions-now.parquet")
	if err := os.Rename(pp, now); err != nil {
		t.Fatal(err)
	}
	pair := duckdbtest.Query(t, fmt.Sprintf(`SELECT decode(value) v FROM parquet_kv_metadata('%s') WHERE decode(key) = 'shogilab.pair'`, now))[0]["v"]
	duckdbtest.Query(t, fmt.Sprintf(`COPY (SELECT * EXCLUDE (fast, "policy") FROM read_parquet('%s')) TO '%s'
		(FORMAT parquet, KV_METADATA {'shogilab.table': 'positions', 'shogilab.format': '1', 'shogilab.pair': '%s'})`, now, pp, pair))
	if cols := duckdbtest.Query(t, fmt.Sprintf(`SELECT count(*)::INT n FROM parquet_schema('%s') WHERE name IN ('fast', 'policy')`, pp)); cols[0]["n"] != float64(0) {
		t.Fatalf("the old table has the new columns: %v", cols)
	}
	got := readAll(t, Options{}, filepath.Join(dir, "games.parquet"))
	if len(got) != len(want) {
		t.Fatalf("%d games back, want %d", len(got), len(want))
	}
	targets := 0
	for i, w := range want {
		for j := range w.Stats {
			w.Stats[j].Fast, w.Stats[j].Policy = false, nil
		}
		for _, s := range got[i].Stats {
			if s.Target() {
				targets++
			}
		}
		if !reflect.DeepEqual(got[i], w) {
			a, _ := record.MarshalLine(got[i])
			b, _ := record.MarshalLine(w)
			t.Fatalf("game %d differs:\n got %s\nwant %s", w.ID, a, b)
		}
	}
	if targets == 0 {
		t.Error("no statistics read at all")
	}
}
