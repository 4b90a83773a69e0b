// Package duckdbtest runs SQL in DuckDB, the independent reader the tests of the Parquet
// tables check them against. DuckDB comes as its Node.js client (@duckdb/node-api, which
// ships DuckDB's own binary), installed by ci/install-duckdb.sh into $SHOGILAB_DUCKDB
// (default /opt/shogilab-duckdb).
package duckdbtest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/shogilab/shogilab/internal/nodetest"
)

// Dir is where ci/install-duckdb.sh put the client.
func Dir() string { return nodetest.Dir("SHOGILAB_DUCKDB", "/opt/shogilab-duckdb") }

// script runs the SQL of its first argument and prints the rows as one JSON array; DuckDB's
// JSON form gives 64-bit integers as strings.
const script = `
const { DuckDBInstance } = require('@duckdb/node-api');
(async () => {
	const db = await DuckDBInstance.create(':memory:');
	const con = await db.connect();
	const res = await con.runAndReadAll(process.argv[1]);
	process.stdout.write(JSON.stringify(res.getRowObjectsJson()));
})().catch(e => { console.error(String(e)); process.exit(1); });
`

// Available reports whether DuckDB can run here. Under CI=true a test that needs it fails
// instead of skipping (the CI script installs it).
func Available(t testing.TB) bool {
	t.Helper()
	return nodetest.Available(t, "DuckDB", Dir(), filepath.Join("@duckdb", "node-api"), "ci/install-duckdb.sh")
}

// Query runs sql and returns its rows, failing t on an error. The caller checks Available
// first.
func Query(t testing.TB, sql string) []map[string]any {
	t.Helper()
	cmd := exec.Command("node", "-e", script, sql)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(Dir(), "node_modules"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v: %s\n%s", err, stderr.String(), sql)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatalf("duckdb: %v: %s", err, out)
	}
	return rows
}
