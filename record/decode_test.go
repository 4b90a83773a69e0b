package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shogilab/shogilab/internal/bounded/boundedtest"
)

// The reference decoder: encoding/json into the record types, with the
// presence checks of required keys, as ParseLine was first written. The hand
// decoder must agree with it on every line it accepts.

type refStats MoveStats

func (s *refStats) UnmarshalJSON(b []byte) error {
	type plain MoveStats
	wire := struct {
		*plain
		Visits *int64   `json:"visits"`
		Value  *float64 `json:"value"`
	}{plain: (*plain)(s)}
	if err := json.Unmarshal(b, &wire); err != nil {
		return err
	}
	if wire.Visits == nil || wire.Value == nil {
		return errors.New("stats: an entry lacks visits or value")
	}
	s.Visits, s.Value = *wire.Visits, *wire.Value
	return nil
}

func refParse(line []byte) (*Game, error) {
	type gameFields Game
	g := new(Game)
	wire := struct {
		*gameFields
		ID      *int        `json:"id"`
		Seed    *uint64     `json:"seed"`
		Moves   *[]string   `json:"moves"`
		Plies   *int        `json:"plies"`
		Players *Players    `json:"players"`
		Rules   *Rules      `json:"rules"`
		Stats   *[]refStats `json:"stats"`
	}{gameFields: (*gameFields)(g)}
	if err := json.Unmarshal(line, &wire); err != nil {
		return nil, err
	}
	if wire.ID == nil || wire.Seed == nil || wire.Moves == nil || *wire.Moves == nil || wire.Plies == nil || wire.Players == nil || wire.Rules == nil {
		return nil, errors.New("a required key is missing")
	}
	g.ID, g.Seed, g.Moves, g.Plies = *wire.ID, *wire.Seed, *wire.Moves, *wire.Plies
	g.Players, g.Rules = *wire.Players, *wire.Rules
	if wire.Stats != nil {
		for _, s := range *wire.Stats {
			g.Stats = append(g.Stats, MoveStats(s))
		}
	}
	if err := g.validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// normal makes the empty lists nil, which JSON cannot tell apart once written.
func normal(g *Game) *Game {
	c := *g
	if len(c.Stats) == 0 {
		c.Stats = nil
	}
	c.Stats = append([]MoveStats(nil), c.Stats...)
	for i := range c.Stats {
		if len(c.Stats[i].Top) == 0 {
			c.Stats[i].Top = nil
		}
	}
	return &c
}

// foldedKey reports whether the line has a key that only matches a record's
// key without regard to case: encoding/json takes those, the hand decoder
// (rightly, by the format) does not.
func foldedKey(line []byte) bool {
	known := append(fieldNames[:], "sente", "gote", "name", "kind", "config", "repetition", "max_plies",
		"visits", "value", "top", "move", "score_cp", "mate", "ms")
	dec := json.NewDecoder(bytes.NewReader(line))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok {
			for _, k := range known {
				if s != k && strings.EqualFold(s, k) {
					return true
				}
			}
		}
	}
}

// agree checks one line: whatever the reference accepts, ParseLine accepts
// and decodes the same; whatever ParseLine accepts, the reference does too
// (but for the checks of balance only in skipped unknown keys).
func agree(t *testing.T, line []byte) {
	t.Helper()
	want, werr := refParse(line)
	got, gerr := ParseLine(line)
	switch {
	case werr == nil && gerr != nil:
		if !foldedKey(line) {
			t.Errorf("ParseLine refuses what encoding/json takes: %v\n%s", gerr, line)
		}
	case werr == nil && !reflect.DeepEqual(normal(got), normal(want)):
		if !foldedKey(line) {
			t.Errorf("ParseLine and encoding/json differ:\n%+v\n%+v\n%s", got, want, line)
		}
	case werr != nil && gerr == nil && json.Valid(line) && !foldedKey(line):
		t.Errorf("ParseLine takes what encoding/json refuses (%v):\n%s", werr, line)
	}
}

// corpus is every line of the package's examples and the shipped datasets.
func corpus(t testing.TB) [][]byte {
	var lines [][]byte
	paths, _ := filepath.Glob("../datasets/selfplay/*/games-*.jsonl.gz")
	more, _ := filepath.Glob("../datasets/selfplay/*/*/games-*.jsonl.gz")
	for _, p := range append(append([]string{"testdata/valid.jsonl"}, paths...), more...) {
		r := NewReader([]string{p})
		for {
			g, err := r.Read()
			if err != nil {
				break
			}
			line, err := MarshalLine(g)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
		}
		r.Close()
	}
	if len(lines) < 300 {
		t.Fatalf("corpus of %d lines", len(lines))
	}
	return lines
}

// TestDecodeAgreesWithEncodingJSON compares the hand decoder with
// encoding/json on the shipped records and on each of them rewritten: keys
// reordered and spaced out, strings escaped, nulls, unknown keys, numbers
// in other spellings, and cut in many places.
func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	for i, line := range corpus(t) {
		if testing.Short() && i%4 != 0 {
			continue
		}
		agree(t, line)
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		// encoding/json writes map keys sorted: another key order.
		indented, _ := json.MarshalIndent(m, " ", "\t")
		agree(t, indented)
		m["zz_unknown"] = map[string]any{"a": []any{"]", "}", 1.5, nil}}
		m["start_name"] = nil
		if p, ok := m["players"].(map[string]any); ok {
			p["sente"].(map[string]any)["name"] = "<é\"\\/>"
		}
		sorted, _ := json.Marshal(m)
		agree(t, sorted)
		agree(t, bytes.Replace(sorted, []byte(`"plies":`), []byte(`"plies":1e1,"plies":`), 1))
		agree(t, bytes.Replace(sorted, []byte(`"id":`), []byte(`"id":-0,"x":[tru],"id":`), 1))
		if i%40 == 0 {
			for cut := 0; cut < len(line); cut += 37 {
				agree(t, line[:cut])
			}
		}
	}
}

func FuzzDecode(f *testing.F) {
	addValidSeeds(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		agree(t, line)
		// A projection decodes its fields as the whole decode does.
		full, err := ParseLine(line)
		if err != nil {
			return
		}
		for _, fields := range []Fields{FieldMoves | FieldResult | FieldPlies, FieldPlayers | FieldResult, FieldStats | FieldID} {
			var g Game
			if err := newDecoder().decode(line, fields, &g); err != nil {
				t.Fatalf("fields %s: %v", fields, err)
			}
			if !reflect.DeepEqual(normal(&g), normal(project(full, fields))) {
				t.Errorf("fields %s: %+v, want %+v", fields, g, project(full, fields))
			}
		}
	})
}

// project is g with the fields not in f zeroed.
func project(g *Game, f Fields) *Game {
	var p Game
	pv, gv := reflect.ValueOf(&p).Elem(), reflect.ValueOf(g).Elem()
	for i := 0; i < gv.NumField(); i++ {
		key, _, _ := strings.Cut(gv.Type().Field(i).Tag.Get("json"), ",")
		if fieldOf([]byte(key))&f != 0 {
			pv.Field(i).Set(gv.Field(i))
		}
	}
	return &p
}

func TestProjectionSkipsAndChecksLess(t *testing.T) {
	for _, line := range corpus(t)[:50] {
		full, err := ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		for _, fields := range []Fields{FieldMoves | FieldResult | FieldPlies | FieldStart | FieldVariant | FieldID, FieldPlayers | FieldResult, FieldStats} {
			var g Game
			if err := newDecoder().decode(line, fields, &g); err != nil {
				t.Fatalf("fields %s: %v", fields, err)
			}
			if !reflect.DeepEqual(normal(&g), normal(project(full, fields))) {
				t.Errorf("fields %s: %+v, want %+v", fields, g, project(full, fields))
			}
		}
	}
	// Bad statistics are not seen when they are not read.
	line := []byte(`{"id":1,"seed":2,"variant":"minishogi","start":"rbsgk/4p/5/P4/KGSBR b - 1","moves":["2e3d"],"result":"draw","termination":"max_plies","plies":1,"players":{"sente":{"name":"a","kind":"mcts"},"gote":{"name":"b","kind":"mcts"}},"rules":{"repetition":"draw","max_plies":1},"stats":[{"visits":-5,"value":7}],"version":"x"}`)
	if _, err := ParseLine(line); err == nil || !strings.Contains(err.Error(), "visits -5 is negative") {
		t.Errorf("ParseLine: %v", err)
	}
	var g Game
	if err := newDecoder().decode(line, FieldMoves|FieldResult|FieldPlies, &g); err != nil || len(g.Moves) != 1 || g.Stats != nil {
		t.Errorf("projection: %v %+v", err, g)
	}
}

// TestDecodeBounded: a line within MaxLineBytes that decodes to more than a stated limit
// (MaxGamePlies moves or statistics entries, MaxTopMoves top moves, MaxConfigBytes of a
// configuration) is refused at the first element past the limit, having allocated what the
// limit allows however long the line (MaxGamePlies statistics entries of 96 bytes since
// fast and policy, appended, some 45 MiB; the other cases a few MiB): issue 33's four invalid lines of 62 MB took train
// fit to 2.4 GB before it rejected the first. The error is one short line.
func TestDecodeBounded(t *testing.T) {
	head := `{"id":0,"seed":1,"variant":"minishogi","start":"rbsgk/4p/5/P4/KGSBR b - 1",`
	repeat := func(item string, n int) string { return strings.TrimSuffix(strings.Repeat(item+",", n), ",") }
	for _, c := range []struct {
		name, line, want string
		ceiling          uint64
	}{
		{"two million moves (14 MB)", head + `"moves":[` + repeat(`"2e3d"`, 2_000_000) + `]}`, "more than 100000 moves", 4 << 20},
		{"a million statistics entries", head + `"stats":[` + repeat(`{"visits":1,"value":0}`, 1_000_000) + `]}`, "more than 100000 stats entries", 64 << 20},
		{"257 top moves", head + `"stats":[{"visits":1,"value":0,"top":[` + repeat(`{"move":"2e3d","visits":1}`, 257) + `]}]}`, "more than 256 top moves", 1 << 20},
		{"a configuration of 10 MB", head + `"players":{"sente":{"name":"x","kind":"usi","config":{"argv":"` + strings.Repeat("x", 10<<20) + `"}}}}`, "config: 10485771 bytes, more than 65536", 1 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := []byte(c.line)
			var err error
			boundedtest.Within(t, "ParseLine", c.ceiling, func() { _, err = ParseLine(line) })
			if err == nil || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 200 {
				t.Errorf("%.300v; want a short error with %q", err, c.want)
			}
		})
	}
}
