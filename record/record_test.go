package record

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const schemaPath = "../datasets/record.schema.json"

func compileSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// schemaValid validates one line against the JSON Schema.
func schemaValid(t testing.TB, sch *jsonschema.Schema, line []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

func readLines(t testing.TB, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSpace(data), []byte("\n"))
}

// addValidSeeds seeds a fuzz test with the lines of testdata/valid.jsonl.
func addValidSeeds(f *testing.F) {
	for _, line := range readLines(f, "testdata/valid.jsonl") {
		f.Add(line)
	}
}

func TestValidExamples(t *testing.T) {
	sch := compileSchema(t)
	for i, line := range readLines(t, "testdata/valid.jsonl") {
		if err := schemaValid(t, sch, line); err != nil {
			t.Errorf("valid.jsonl:%d fails the schema: %v", i+1, err)
		}
		if _, err := ParseLine(line); err != nil {
			t.Errorf("valid.jsonl:%d: %v", i+1, err)
		}
	}
}

// baseRecord is a hand-written valid record (the bare-king mate in 8 that
// Fairy-Stockfish plays, docs/rules.md#bare-king) that the invalid cases edit.
const baseRecord = `{"id":0,"seed":1,"variant":"minishogi","start":"4k/5/5/P4/KGSBR w - 1",
"moves":["1a2a","4e4d","2a2b","2e5b","2b2a","4d3c","2a3a","1e1a"],"result":"sente","termination":"checkmate","plies":8,
"players":{"sente":{"name":"fsf","kind":"usi"},"gote":{"name":"fsf","kind":"usi"}},
"rules":{"repetition":"first-mover-loses","max_plies":100},"stats":[{"visits":10,"value":-1}],"version":"0.1.0"}`

// edit returns baseRecord changed by f, as one line.
func edit(t *testing.T, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(baseRecord), &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInvalidRecords(t *testing.T) {
	sch := compileSchema(t)
	tests := []struct {
		name string
		edit func(m map[string]any)
		// schema says whether the JSON Schema can see the fault; the
		// cross-field ones only the record package checks.
		schema bool
		want   string
	}{
		{"result black", func(m map[string]any) { m["result"] = "black" }, true, `result "black" is not sente, gote or draw`},
		{"no id", func(m map[string]any) { delete(m, "id") }, true, "id is missing"},
		{"no seed", func(m map[string]any) { delete(m, "seed") }, true, "seed is missing"},
		{"no moves", func(m map[string]any) { delete(m, "moves") }, true, "moves is missing"},
		{"null moves", func(m map[string]any) { m["moves"] = nil }, true, "moves is missing"},
		{"no players", func(m map[string]any) { delete(m, "players") }, true, "players is missing"},
		{"no rules", func(m map[string]any) { delete(m, "rules") }, true, "rules is missing"},
		{"no version", func(m map[string]any) { delete(m, "version") }, true, "version is empty"},
		{"negative id", func(m map[string]any) { m["id"] = -1 }, true, "id -1 is negative"},
		{"negative seed", func(m map[string]any) { m["seed"] = -1 }, true, "not a JSON record"},
		{"fractional plies", func(m map[string]any) { m["plies"] = 8.5 }, true, "not a JSON record"},
		{"bad termination", func(m map[string]any) { m["termination"] = "interrupted" }, true, `termination "interrupted" is not one of`},
		{"bad kind", func(m map[string]any) { m["players"].(map[string]any)["gote"].(map[string]any)["kind"] = "human" }, true, `players.gote: kind "human"`},
		{"empty name", func(m map[string]any) { m["players"].(map[string]any)["sente"].(map[string]any)["name"] = "" }, true, "players.sente: name is empty"},
		{"bad repetition", func(m map[string]any) { m["rules"].(map[string]any)["repetition"] = "sente-wins" }, true, `rules.repetition "sente-wins"`},
		{"bad move", func(m map[string]any) { m["moves"].([]any)[3] = "2e5z" }, true, `moves[3] "2e5z" is not a USI move`},
		{"bad sfen side", func(m map[string]any) { m["start"] = "4k/5/5/P4/KGSBR x - 1" }, true, `side to move "x"`},
		{"value above 1", func(m map[string]any) { m["stats"].([]any)[0].(map[string]any)["value"] = 1.5 }, true, "stats[0]: value 1.5 is outside [-1, 1]"},
		{"stats without value", func(m map[string]any) { delete(m["stats"].([]any)[0].(map[string]any), "value") }, true, "stats: an entry lacks value"},
		{"stats without visits", func(m map[string]any) { delete(m["stats"].([]any)[0].(map[string]any), "visits") }, true, "stats: an entry lacks visits"},
		{"local started_at", func(m map[string]any) { m["started_at"] = "2025-01-02T03:04:05+09:00" }, true, "not in UTC"},
		{"plies mismatch", func(m map[string]any) { m["plies"] = 7 }, false, "plies is 7 but there are 8 moves"},
		{"too many stats", func(m map[string]any) {
			m["moves"], m["plies"], m["termination"], m["result"] = []any{"1a2a"}, 1, "resignation", "sente"
			m["stats"] = []any{map[string]any{"visits": 1, "value": 0}, map[string]any{"visits": 1, "value": 0}}
		}, false, "2 stats entries for 1 plies"},
		// Gote moved first and 8 plies were played, so Gote is to move and mated.
		{"mate credited to the mated side", func(m map[string]any) { m["result"] = "gote" }, false, "means sente"},
		{"draw by checkmate", func(m map[string]any) { m["result"] = "draw" }, false, "means sente"},
		{"max_plies not a draw", func(m map[string]any) { m["termination"] = "max_plies" }, false, "means draw"},
		{"over the limit", func(m map[string]any) { m["rules"].(map[string]any)["max_plies"] = 6 }, false, "8 plies exceed rules.max_plies 6"},
		{"resignation drawn", func(m map[string]any) { m["termination"], m["result"] = "resignation", "draw" }, false, "has a loser"},
		// With first-mover-loses, Gote (first to move in a handicap start) loses.
		{"repetition wrong loser", func(m map[string]any) { m["termination"], m["result"] = "repetition", "gote" }, false, "means sente"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line := edit(t, tc.edit)
			_, err := ParseLine(line)
			if err == nil {
				t.Errorf("ParseLine accepted %s", line)
			} else if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
			serr := schemaValid(t, sch, line)
			if tc.schema && serr == nil {
				t.Errorf("the schema accepted %s", line)
			}
			if !tc.schema && serr != nil {
				t.Errorf("the schema rejects what only the package should: %v", serr)
			}
		})
	}
	// The base itself is valid, so each case fails for its own edit.
	if _, err := ParseLine([]byte(baseRecord)); err != nil {
		t.Fatalf("baseRecord: %v", err)
	}
}

func TestStripTiming(t *testing.T) {
	lines := readLines(t, "testdata/valid.jsonl")
	a, err := ParseLine(lines[1])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ParseLine(lines[1])
	b.StartedAt = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	b.Seconds = 99
	b.Stats[2].MS = 7
	if reflect.DeepEqual(a, b) {
		t.Fatal("the timing edits changed nothing")
	}
	a.StripTiming()
	b.StripTiming()
	if !reflect.DeepEqual(a, b) {
		t.Errorf("after StripTiming:\n%+v\n%+v", a, b)
	}
	line, err := MarshalLine(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"started_at"`, `"seconds"`, `"ms"`} {
		if bytes.Contains(line, []byte(key)) {
			t.Errorf("stripped record still has %s: %s", key, line)
		}
	}
}

// TestRoundTrip checks that every field survives MarshalLine and ParseLine,
// comparing decoded JSON values so that field order does not matter.
func TestRoundTrip(t *testing.T) {
	for i, line := range readLines(t, "testdata/valid.jsonl") {
		g, err := ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		out, err := MarshalLine(g)
		if err != nil {
			t.Fatal(err)
		}
		var want, got any
		json.Unmarshal(line, &want)
		json.Unmarshal(out, &got)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("valid.jsonl:%d changed:\n%s\n%s", i+1, line, out)
		}
	}
}

func TestMarshalLineNilMoves(t *testing.T) {
	g := &Game{Variant: "minishogi", Start: "rbsgk/4p/5/P4/KGSBR b - 1", Result: Gote, Termination: EngineError,
		Players: Players{Player{Name: "x", Kind: KindUSI}, Player{Name: "y", Kind: KindRandom}},
		Rules:   Rules{Repetition: RepetitionDraw}, Version: "test"}
	line, err := MarshalLine(g)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(line, []byte(`"moves":[]`)) {
		t.Errorf("nil moves not written as []: %s", line)
	}
	if _, err := ParseLine(line); err != nil {
		t.Errorf("written record does not read back: %v", err)
	}
}

func FuzzParseLine(f *testing.F) {
	addValidSeeds(f)
	f.Add([]byte(`{"id":0}`))
	f.Add([]byte(baseRecord))
	f.Fuzz(func(t *testing.T, line []byte) {
		g, err := ParseLine(line)
		if err != nil {
			return
		}
		// Whatever parses must write and read back unchanged.
		out, err := MarshalLine(g)
		if err != nil {
			t.Fatalf("parsed record does not marshal: %v", err)
		}
		g2, err := ParseLine(out)
		if err != nil {
			t.Fatalf("written record does not parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(g, g2) && !bytes.Equal(out, mustMarshal(t, g2)) {
			t.Errorf("round trip changed the record:\n%s\n%s", out, mustMarshal(t, g2))
		}
	})
}

func mustMarshal(t *testing.T, g *Game) []byte {
	b, err := MarshalLine(g)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadmeExamples keeps the examples in datasets/README.md valid: each
// ```json block must pass the schema and the package's checks.
func TestReadmeExamples(t *testing.T) {
	data, err := os.ReadFile("../datasets/README.md")
	if err != nil {
		t.Fatal(err)
	}
	sch := compileSchema(t)
	blocks := 0
	for _, part := range strings.Split(string(data), "```json\n")[1:] {
		block, _, ok := strings.Cut(part, "```")
		if !ok {
			t.Fatal("an unterminated json block")
		}
		blocks++
		line := []byte(strings.TrimSpace(block))
		if err := schemaValid(t, sch, line); err != nil {
			t.Errorf("README example %d fails the schema: %v", blocks, err)
		}
		if _, err := ParseLine(line); err != nil {
			t.Errorf("README example %d: %v", blocks, err)
		}
	}
	if blocks != 3 {
		t.Errorf("found %d json examples in the README, want 3", blocks)
	}
}

// TestTargetFields: stats' fast and policy (issue 32) read back as written, a record
// without them reads as all targets with no policy, and bad values are refused by the
// package and the schema alike.
func TestTargetFields(t *testing.T) {
	sch := compileSchema(t)
	withStats := func(stats string) []byte {
		return []byte(strings.Replace(strings.ReplaceAll(baseRecord, "\n", ""), `"stats":[{"visits":10,"value":-1}]`, `"stats":`+stats, 1))
	}
	t.Run("old record", func(t *testing.T) {
		g, err := ParseLine([]byte(baseRecord))
		if err != nil {
			t.Fatal(err)
		}
		if s := g.Stats[0]; !s.Target() || s.Fast || s.Policy != nil {
			t.Errorf("an entry without fast or policy reads as %+v, target %v", s, s.Target())
		}
	})
	t.Run("round trip", func(t *testing.T) {
		line := withStats(`[{"visits":16,"value":0.25,"policy":[{"move":"1a2a","p":0.75},{"move":"1a1b","p":0.25}]},{"visits":4,"value":-0.5,"fast":true}]`)
		if err := schemaValid(t, sch, line); err != nil {
			t.Fatalf("the schema refuses %s: %v", line, err)
		}
		g, err := ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		want := []MoveStats{
			{Visits: 16, Value: 0.25, Policy: []PolicyMove{{"1a2a", 0.75}, {"1a1b", 0.25}}},
			{Visits: 4, Value: -0.5, Fast: true},
		}
		if !reflect.DeepEqual(g.Stats, want) {
			t.Fatalf("stats %+v, want %+v", g.Stats, want)
		}
		if !g.Stats[0].Target() || g.Stats[1].Target() {
			t.Errorf("targets %v %v, want true false", g.Stats[0].Target(), g.Stats[1].Target())
		}
		out, err := MarshalLine(g)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		json.Unmarshal(line, &a)
		json.Unmarshal(out, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("changed:\n%s\n%s", line, out)
		}
		if bytes.Contains(out, []byte(`"fast":false`)) {
			t.Errorf("a target move writes fast: %s", out)
		}
	})
	for _, tc := range []struct{ name, stats, want string }{
		{"p above 1", `[{"visits":1,"value":0,"policy":[{"move":"1a2a","p":1.5}]}]`, "policy[0].p 1.5 is outside [0, 1]"},
		{"bad move", `[{"visits":1,"value":0,"policy":[{"move":"1a2z","p":0.5}]}]`, `policy[0].move "1a2z" is not a USI move`},
		{"fast not boolean", `[{"visits":1,"value":0,"fast":1}]`, "fast is not true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := withStats(tc.stats)
			if _, err := ParseLine(line); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseLine: %v, want %q", err, tc.want)
			}
			if schemaValid(t, sch, line) == nil {
				t.Errorf("the schema accepts %s", line)
			}
		})
	}
	t.Run("sum above 1", func(t *testing.T) {
		// Only the package sees it: the schema checks each p alone.
		line := withStats(`[{"visits":1,"value":0,"policy":[{"move":"1a2a","p":0.6},{"move":"1a1b","p":0.6}]}]`)
		if _, err := ParseLine(line); err == nil || !strings.Contains(err.Error(), "policy sums to") {
			t.Errorf("ParseLine: %v", err)
		}
	})
}
