package selfplay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/shogilab/shogilab/rules/minishogi"
)

// testMatch is a fast match: the MCTS engine at a tiny budget against
// itself (so records carry search statistics), or random players.
func testMatch(t testing.TB, kind string) Match {
	t.Helper()
	defaults := PlayerSpec{Limits: Limits{Nodes: 24}, Options: []Option{{"Noise", "0.25"}, {"TemperaturePlies", "6"}}}
	spec, err := ParsePlayerSpec(kind, defaults)
	if err != nil {
		t.Fatal(err)
	}
	openings, err := ParseStart("startpos")
	if err != nil {
		t.Fatal(err)
	}
	return Match{
		A: spec, B: spec, Openings: openings,
		Rules: minishogi.GameOptions{MaxPlies: 60}, Seed: 42, Version: "test",
	}
}

func execute(t testing.TB, r *Run) Summary {
	t.Helper()
	sum, err := r.Execute(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// schemaCheck validates every line of the files against
// datasets/record.schema.json.
func schemaCheck(t testing.TB, paths ...string) {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile("../datasets/record.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
			if err == nil {
				err = sch.Validate(inst)
			}
			if err != nil {
				t.Fatalf("%s:%d does not validate against the schema: %v", filepath.Base(p), i+1, err)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no records to validate")
	}
}
